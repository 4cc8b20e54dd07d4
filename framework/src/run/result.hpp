// The results of a run: per child run (RunRecord), per mutant, per case, with
// the small fixed set of statuses every reporter shares (STYLE.md habit 9).
#pragma once

#include "check/check.hpp"
#include "suite/model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace conform {

/// PASS; FAIL (a check failed or a mutant survived); XFAIL (failed as the
/// case's `xfail` says it will); XPASS (passed despite `xfail`: a failure);
/// UNSUPPORTED (the plugin cannot run it here); ERROR (the plugin crashed or
/// gave up: signal or reason named); TIMEOUT (no end within the limit);
/// INTERRUPTED (the run was stopped by a signal, SIGINT for Ctrl-C, before
/// this case or one of its runs ended).
enum class Status { pass, fail, xfail, xpass, unsupported, error, timeout, interrupted };

/// "PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED", "ERROR", "TIMEOUT",
/// "INTERRUPTED".
const char* to_string(Status s);
/// The inverse of to_string; Status::error for an unknown word.
Status status_from_string(const std::string& s);
/// Whether a case with this status makes the run fail (exit code 1; an
/// INTERRUPTED case did not pass either, and gates count it so).
bool is_failure(Status s);

/// How reports spell one check's verdict: "pass", "FAIL", or "NOT JUDGED"
/// when the check could not see what it judges (CheckResult::judged).
const char* verdict_word(const CheckResult& r);

/// One check's verdict on one run.
struct CheckOutcome {
  std::string check;
  ValueMap params;
  CheckResult result;
};

/// One child run: a case (or one of its mutants) with one seed.
struct RunRecord {
  std::uint64_t seed = 0;
  /// Empty for the case itself; the mutant's label otherwise.
  std::string mutant;
  /// PASS, FAIL, UNSUPPORTED, ERROR, TIMEOUT or INTERRUPTED.
  Status status = Status::error;
  /// Why ERROR, TIMEOUT, UNSUPPORTED or INTERRUPTED.
  std::string reason;
  std::vector<CheckOutcome> checks;
  double duration_s = 0;
  std::string artifact_dir;
};

/// A mutant and whether the checks it names all failed on it.
struct MutantOutcome {
  std::string label;
  std::vector<std::string> fails;
  RunRecord run;
  /// Checks named in `fails` that passed on the mutant.
  std::vector<std::string> survived;
  bool killed = false;
};

/// Everything about one (expanded) case.
struct CaseResult {
  const Case* c = nullptr;
  Status status = Status::error;
  /// One line: for a failure the first failing check with its evidence, the
  /// error, the mutant that survived; for UNSUPPORTED the reason.
  std::string headline;
  /// The seed of the run the headline is about (for replay).
  std::uint64_t headline_seed = 0;
  std::vector<RunRecord> runs;
  std::vector<MutantOutcome> mutants;
  double duration_s = 0;
  std::size_t runs_passed = 0;
};

}  // namespace conform
