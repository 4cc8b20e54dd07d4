// `transfer_time`: durations of the capture's transfers against bounds.
#include "check/tcp/transfer_time.hpp"
#include "check/registrar.hpp"

#include "check/tcp/support/tcp_capture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace conform {
namespace {

struct Timed {
  const tcp::Flow* flow;
  std::size_t number;  // from 1 within the flow
  const tcp::Transfer* transfer;
};

}  // namespace

std::vector<ValueSpec> TransferTime::params() const {
  return {
      tcp_vantage_param(),
      {"max_ms", ValueType::floating, Value{-1.0}, "longest transfer allowed, ms; -1: no bound"},
      {"percentile", ValueType::floating, Value{99.0}, "which percentile `percentile_ms` bounds", {}, {}, {},
       FloatRange{0, 100, true}},
      {"percentile_ms", ValueType::floating, Value{-1.0}, "bound on that percentile, ms; -1: no bound"},
      {"min_transfers", ValueType::integer, Value{std::int64_t{1}}, "fewest transfers the capture must hold", {}, 0},
  };
}

CheckResult TransferTime::evaluate(const CheckInput& input) const {
  auto loaded = load_tcp_capture(input);
  if (!loaded.capture) return loaded.failure;
  const TcpCapture& cap = *loaded.capture;
  const double max_ms = value_or<double>(input.params, "max_ms", -1);
  const double pct = value_or<double>(input.params, "percentile", 99);
  const double pct_ms = value_or<double>(input.params, "percentile_ms", -1);
  const auto min_transfers = value_or<std::int64_t>(input.params, "min_transfers", 1);

  CheckResult result;
  std::vector<Timed> all;
  std::vector<Timed> unanswered;
  for (const auto& flow : cap.flows)
    for (std::size_t i = 0; i < flow.transfers.size(); ++i) {
      Timed t{&flow, i + 1, &flow.transfers[i]};
      (t.transfer->answered() ? all : unanswered).push_back(t);
    }
  for (const auto& t : unanswered)
    if (result.evidence.size() < kMaxTcpEvidence)
      result.evidence.push_back(cap.evidence(
          t.transfer->first_request,
          fmt::format("{} transfer {}: {} request bytes, never answered", t.flow->name(), t.number,
                      t.transfer->request_bytes)));
  std::sort(all.begin(), all.end(), [](const Timed& a, const Timed& b) {
    return a.transfer->duration_ns() > b.transfer->duration_ns();
  });
  const auto n = all.size() + unanswered.size();
  if (all.empty()) {
    result.summary = fmt::format("{}: {} transfers, none answered", cap.file, n);
    return result;
  }
  const std::int64_t slowest = all.front().transfer->duration_ns();
  // Nearest rank: the smallest value with at least pct% of transfers at or below it.
  const std::size_t rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(pct / 100 * all.size())));
  const std::int64_t at_pct = all[all.size() - rank].transfer->duration_ns();
  const bool max_ok = max_ms < 0 || slowest <= static_cast<std::int64_t>(max_ms * 1e6);
  const bool pct_ok = pct_ms < 0 || at_pct <= static_cast<std::int64_t>(pct_ms * 1e6);
  const bool count_ok = static_cast<std::int64_t>(n) >= min_transfers;
  result.verdict = pass_if(max_ok && pct_ok && count_ok && unanswered.empty());
  result.summary = fmt::format(
      "{} transfers ({} unanswered, required >= {}): slowest {} (bound {}), p{:g} {} (bound {})", n,
      unanswered.size(), min_transfers, format_ms(slowest), max_ms < 0 ? "none" : fmt::format("{:g} ms", max_ms),
      pct, format_ms(at_pct), pct_ms < 0 ? "none" : fmt::format("{:g} ms", pct_ms));
  for (const auto& t : all) {
    const bool over = max_ms >= 0 && t.transfer->duration_ns() > static_cast<std::int64_t>(max_ms * 1e6);
    if (&t != &all.front() && !over) break;
    if (result.evidence.size() >= kMaxTcpEvidence) break;
    result.evidence.push_back(cap.evidence(
        t.transfer->first_request,
        fmt::format("{} transfer {}: {} request + {} response bytes took {}, ending at frame {}",
                    t.flow->name(), t.number, t.transfer->request_bytes, t.transfer->response_bytes,
                    format_ms(t.transfer->duration_ns()), t.transfer->last_response.frame)));
  }
  return result;
}

}  // namespace conform

CONFORM_REGISTER_CHECK(transfer_time, TransferTime)
