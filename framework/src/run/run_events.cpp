// The totals of a run's event stream.
#include "run/run_events.hpp"

#include <string_view>

namespace conform {

const char* total_bucket(Status s) {
  switch (s) {
    case Status::pass:
    case Status::xfail: return "passed";
    case Status::not_judged: return "not_judged";
    case Status::not_exercised: return "not_exercised";
    case Status::not_applicable: return "not_applicable";
    case Status::unsupported: return "skipped";
    case Status::interrupted: return "interrupted";
    default: return "failed";
  }
}

std::size_t RunTotals::finished() const {
  std::size_t n = 0;
  for (const auto& c : kTotalsCounts)
    if (c.count != &RunTotals::interrupted) n += this->*c.count;
  return n;
}

void RunTotals::add(const CaseResult& result) {
  const std::string_view bucket = total_bucket(result.status);
  for (const auto& c : kTotalsCounts)
    if (bucket == c.key) ++(this->*c.count);
  // NOT JUDGED fails the run by its own rule (FailOn::not_judged), at no level.
  if (result.status != Status::not_judged)
    if (const auto level = failure_level(result)) ++failed_at[static_cast<std::size_t>(*level)];
  duration_s += result.duration_s;
}

std::size_t RunTotals::failures(FailOn fail_on) const {
  std::size_t n = 0;
  for (auto level : {RequirementLevel::must, RequirementLevel::should, RequirementLevel::expectation})
    if (counts(fail_on.level, level)) n += failed_at[static_cast<std::size_t>(level)];
  return n + (fail_on.not_judged ? not_judged : 0) + (fail_on.not_exercised ? not_exercised : 0);
}

}  // namespace conform
