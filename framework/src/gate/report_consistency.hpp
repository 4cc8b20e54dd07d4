// Whether a JSON report read back says one thing throughout: each verdict
// is the one its runs, checks and mutants give, so an edited report cannot
// turn a failure into a pass in `conform merge` or in the HTML page.
#pragma once

#include "gate/report_reader.hpp"

namespace conform {

/// Throws InputError naming `report.path` and the JSON pointer of the first
/// member that contradicts what it is made from (exit 2):
/// - a run's status: PASS with a check that failed or with none that
///   passed, FAIL with no check failed or unexercised, or XFAIL/XPASS (which
///   only cases have);
/// - a mutant's `killed` and `survived` against its run's checks;
/// - a case's status against the one its runs and mutants give (an XFAIL or
///   XPASS case had an `xfail`, which the report does not carry), its
///   `runs_passed`, and a failure's `seed` (the run its verdict comes from);
/// - `totals` against the cases' statuses.
void check_consistent(const ReadReport& report);

}  // namespace conform
