// The totals of a run's event stream.
#include "run/run_events.hpp"

namespace conform {

void RunTotals::add(const CaseResult& result) {
  if (is_skipped(result.status)) ++skipped;
  else if (result.status == Status::interrupted) ++interrupted;
  else if (is_failure(result.status)) ++failed;
  else ++passed;
  if (const auto level = failure_level(result)) ++failed_at[static_cast<std::size_t>(*level)];
  duration_s += result.duration_s;
}

std::size_t RunTotals::failures(FailOn fail_on) const {
  std::size_t n = 0;
  for (auto level : {RequirementLevel::must, RequirementLevel::should, RequirementLevel::expectation})
    if (counts(fail_on, level)) n += failed_at[static_cast<std::size_t>(level)];
  return n;
}

}  // namespace conform
