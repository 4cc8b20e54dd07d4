// `zero_window_events`: zero-window episodes counted against a bound.
#include "check/tcp/zero_window_events.hpp"
#include "check/registrar.hpp"

#include "check/tcp/support/tcp_capture.hpp"

#include <fmt/format.h>

namespace conform {

std::vector<ValueSpec> ZeroWindowEvents::params() const {
  return {
      tcp_vantage_param(),
      {"max", ValueType::integer, Value{std::int64_t{0}}, "most zero-window episodes allowed", {}, 0},
      {"longer_than_ms", ValueType::floating, Value{0.0},
       "count only episodes that held longer than this, ms (0: every episode); a zero window "
       "a starved reader clears within microseconds is flow control working"},
      tcp_side_param("whose advertisements count: the receiver of the answer is the initiator"),
  };
}

CheckResult ZeroWindowEvents::evaluate(const CheckInput& input) const {
  auto loaded = load_tcp_capture(input);
  if (!loaded.capture) return loaded.failure;
  const TcpCapture& cap = *loaded.capture;
  const auto max = value_or<std::int64_t>(input.params, "max", 0);
  const auto longer_than_ns =
      static_cast<std::int64_t>(value_or<double>(input.params, "longer_than_ms", 0) * 1e6);

  CheckResult result;
  std::size_t episodes = 0, all_episodes = 0, segments = 0, probes = 0;
  for (const auto& flow : cap.flows)
    for (int d : tcp_sides(input.params)) {
      const tcp::Direction& dir = flow.dir[d];
      all_episodes += dir.zero_window_episodes.size();
      segments += dir.zero_windows.size();
      probes += flow.dir[1 - d].zero_window_probes.size();
      for (const auto& e : dir.zero_window_episodes) {
        if (e.ns() <= longer_than_ns && longer_than_ns > 0) continue;
        ++episodes;
        if (result.evidence.size() < kMaxTcpEvidence)
          result.evidence.push_back(cap.evidence(
              e.start, fmt::format("{}: {} advertises a zero window for {}, until frame {}", flow.name(),
                                   tcp::to_string(dir.from), format_ms(e.ns()), e.end.frame)));
      }
    }
  result.verdict = pass_if(static_cast<std::int64_t>(episodes) <= max);
  const std::string which =
      longer_than_ns > 0 ? fmt::format(" longer than {} (of {})", format_ms(longer_than_ns), all_episodes) : "";
  result.summary = fmt::format(
      "{} zero-window episodes{} (required <= {}): {} zero-window segments, {} probes of them",
      episodes, which, max, segments, probes);
  return result;
}

}  // namespace conform

CONFORM_REGISTER_CHECK(zero_window_events, ZeroWindowEvents)
