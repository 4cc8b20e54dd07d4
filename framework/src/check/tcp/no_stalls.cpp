// `no_stalls`: the longest gap in each transfer against a bound.
#include "check/tcp/no_stalls.hpp"
#include "check/registrar.hpp"

#include "check/tcp/support/tcp_capture.hpp"

#include <fmt/format.h>

namespace conform {

std::vector<ValueSpec> NoStalls::params() const {
  return {
      tcp_vantage_param(),
      {"max_gap_ms", ValueType::floating, Value{200.0},
       "longest time a transfer may go without new data, ms (200: Linux's minimum "
       "retransmission timeout)"},
  };
}

CheckResult NoStalls::evaluate(const CheckInput& input) const {
  auto loaded = load_tcp_capture(input);
  if (!loaded.capture) return loaded.failure;
  const TcpCapture& cap = *loaded.capture;
  const auto bound_ns = static_cast<std::int64_t>(value_or<double>(input.params, "max_gap_ms", 200) * 1e6);

  CheckResult result;
  std::size_t transfers = 0, stalled = 0;
  const tcp::Gap* worst = nullptr;
  const tcp::Flow* worst_flow = nullptr;
  for (const auto& flow : cap.flows)
    for (std::size_t i = 0; i < flow.transfers.size(); ++i) {
      const tcp::Gap& gap = flow.transfers[i].longest_gap;
      ++transfers;
      if (!worst || gap.ns() > worst->ns()) {
        worst = &gap;
        worst_flow = &flow;
      }
      if (gap.ns() <= bound_ns) continue;
      ++stalled;
      if (result.evidence.size() < kMaxTcpEvidence)
        result.evidence.push_back(cap.evidence(
            gap.from, fmt::format("{} transfer {}: no new data for {} after this frame, until frame {}",
                                  flow.name(), i + 1, format_ms(gap.ns()), gap.to.frame)));
    }
  if (transfers == 0) {
    result.summary = cap.file + " holds no transfer to judge";
    return result;
  }
  result.verdict = pass_if(stalled == 0);
  result.summary = fmt::format("{} of {} transfers stalled longer than {}; longest gap {} ({})",
                               stalled, transfers, format_ms(bound_ns), format_ms(worst->ns()),
                               worst_flow->name());
  if (result.verdict == Verdict::pass)
    result.evidence.push_back(cap.evidence(worst->from, fmt::format("longest gap starts here, ends at frame {}", worst->to.frame)));
  return result;
}

}  // namespace conform

CONFORM_REGISTER_CHECK(no_stalls, NoStalls)
