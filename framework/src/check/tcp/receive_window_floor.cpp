// `receive_window_floor`: windows advertised during transfers against a floor.
#include "check/tcp/receive_window_floor.hpp"
#include "check/registrar.hpp"

#include "check/tcp/support/tcp_capture.hpp"

#include <fmt/format.h>

namespace conform {

namespace {

// The frames [first, last] a transfer spans: between transfers an idle
// receiver's window says nothing about how it keeps up.
std::pair<std::uint64_t, std::uint64_t> span_of(const tcp::Flow& flow, const tcp::Transfer& t) {
  return {t.first_request.frame, t.answered() ? t.last_response.frame : flow.last.frame};
}

struct Judged {
  const tcp::Flow* flow;
  int side;
  const tcp::WindowAdvert* window;
};

// Every window `side` advertised during any transfer (statistic "every"), or
// the largest it advertised during each transfer ("transfer_peak").
std::vector<Judged> windows_to_judge(const tcp::Flow& flow, int side, bool peaks) {
  std::vector<Judged> out;
  const auto& windows = flow.dir[side].windows;
  for (const auto& t : flow.transfers) {
    const auto [first, last] = span_of(flow, t);
    const tcp::WindowAdvert* peak = nullptr;
    for (const auto& w : windows) {
      if (w.at.frame < first || w.at.frame > last) continue;
      if (!peaks) out.push_back({&flow, side, &w});
      else if (!peak || w.bytes > peak->bytes) peak = &w;
    }
    if (peak) out.push_back({&flow, side, peak});
  }
  return out;
}
}  // namespace

std::vector<ValueSpec> ReceiveWindowFloor::params() const {
  return {
      tcp_vantage_param(),
      {"min_bytes", ValueType::integer, std::nullopt, "smallest window allowed, bytes (after scaling)"},
      tcp_side_param("whose windows count: the receiver of the answer is the initiator"),
      {"statistic", ValueType::string, Value{std::string("every")},
       "every: each window advertised during a transfer; transfer_peak: the largest window of "
       "each transfer, what the receiver offers once it has caught up (its buffer's capacity, "
       "which the loopback spike saw clamped), so a reader falling behind for a moment does not count",
       {"every", "transfer_peak"}},
  };
}

CheckResult ReceiveWindowFloor::evaluate(const CheckInput& input) const {
  auto loaded = load_tcp_capture(input);
  if (!loaded.capture) return loaded.failure;
  const TcpCapture& cap = *loaded.capture;
  const auto floor = static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, value_or<std::int64_t>(input.params, "min_bytes", 0)));
  const bool peaks = value_or<std::string>(input.params, "statistic", "every") == "transfer_peak";

  CheckResult result;
  std::size_t judged = 0, below = 0;
  std::optional<Judged> lowest;
  for (const auto& flow : cap.flows)
    for (int d : tcp_sides(input.params))
      for (const Judged& j : windows_to_judge(flow, d, peaks)) {
        ++judged;
        if (!lowest || j.window->bytes < lowest->window->bytes) lowest = j;
        if (j.window->bytes >= floor) continue;
        ++below;
        if (result.evidence.size() < kMaxTcpEvidence)
          result.evidence.push_back(cap.evidence(
              j.window->at, fmt::format("{}: {} advertises {} bytes{} (window scale {})", flow.name(),
                                        tcp::to_string(flow.dir[d].from), j.window->bytes,
                                        peaks ? ", the most in its transfer" : "",
                                        flow.dir[d].window_shift)));
      }
  if (judged == 0) {
    result.summary = cap.file + " holds no window advertised during a transfer";
    return result;
  }
  result.verdict = pass_if(below == 0);
  result.summary = fmt::format("{} of {} {} are below {} bytes; lowest {} bytes ({})", below, judged,
                               peaks ? "transfer peak windows" : "windows advertised during transfers",
                               floor, lowest->window->bytes, lowest->flow->name());
  if (result.verdict == Verdict::pass) result.evidence.push_back(cap.evidence(lowest->window->at, "lowest window judged"));
  return result;
}

}  // namespace conform

CONFORM_REGISTER_CHECK(receive_window_floor, ReceiveWindowFloor)
