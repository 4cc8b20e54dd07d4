// From the runs of one case (its seeds and its mutants) to its one result.
#pragma once

#include "run/result.hpp"

namespace conform {

/// Whether the checks a mutant names in `fails` all failed on `run`, and
/// which of them did not fail on it (survived: PASS, NOT EXERCISED or NOT
/// JUDGED).
MutantOutcome judge_mutant(const MutantDecl& mutant, RunRecord run);

/// A mutant over every seed of its case: killed only when killed on each;
/// else its outcome is that of the first seed on which it was not, and
/// `survived_seeds` lists every such seed.
MutantOutcome judge_mutant(const MutantDecl& mutant, std::vector<RunRecord> runs);

/// The case's status and headline. Runs that ERROR or TIMEOUT outrank a
/// FAIL; a FAIL outranks an INTERRUPTED run, which outranks a surviving
/// mutant; a mutant whose run was INTERRUPTED makes a passing case
/// INTERRUPTED; with `xfail` a FAIL becomes XFAIL and a PASS becomes XPASS,
/// and then a mutant that was not killed still makes the case FAIL (xfail
/// is about the case's own runs). A case whose every run is UNSUPPORTED is
/// UNSUPPORTED.
CaseResult aggregate(const Case& c, std::vector<RunRecord> runs,
                     std::vector<MutantOutcome> mutants);

}  // namespace conform
