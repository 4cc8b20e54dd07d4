// The totals of a run's event stream.
#include "run/run_events.hpp"

namespace conform {

void RunTotals::add(const CaseResult& result) {
  if (result.status == Status::unsupported) ++skipped;
  else if (result.status == Status::interrupted) ++interrupted;
  else if (is_failure(result.status)) ++failed;
  else ++passed;
  duration_s += result.duration_s;
}

}  // namespace conform
