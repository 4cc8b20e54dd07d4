// The totals of a run's event stream.
#include "run/run_events.hpp"

#include <string_view>

namespace conform {

const char* total_bucket(Status s) {
  if (is_skipped(s)) return "skipped";
  if (s == Status::interrupted) return "interrupted";
  if (s == Status::not_applicable) return "not_applicable";
  if (is_failure(s)) return "failed";
  return "passed";
}

void RunTotals::add(const CaseResult& result) {
  const std::string_view bucket = total_bucket(result.status);
  ++(bucket == "skipped"          ? skipped
     : bucket == "interrupted"    ? interrupted
     : bucket == "not_applicable" ? not_applicable
     : bucket == "failed"         ? failed
                                  : passed);
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
