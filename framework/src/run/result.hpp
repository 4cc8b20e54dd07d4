// The results of a run: per child run (RunRecord), per mutant, per case, with
// the small fixed set of statuses every reporter shares (STYLE.md habit 9).
#pragma once

#include "check/check.hpp"
#include "check/requirement_level.hpp"
#include "suite/model.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace conform {

/// PASS; FAIL (a check failed or a mutant survived); XFAIL (failed as the
/// case's `xfail` says it will); XPASS (passed despite `xfail`: a failure);
/// UNSUPPORTED (the plugin cannot run it here); ERROR (the plugin crashed or
/// gave up: signal or reason named); TIMEOUT (no end within the limit);
/// INTERRUPTED (the run was stopped by a signal, SIGINT for Ctrl-C, before
/// this case or one of its runs ended); NOT EXERCISED (no check instance saw
/// the behaviour it judges, none failed); NOT JUDGED (no instance passed or
/// failed, one could not see what it judges: a gate that cannot see is not
/// green, so it counts as a failure unless `--fail-on` says
/// `not-judged=ok`); NOT APPLICABLE (on a capture made elsewhere, every
/// instance rests on the case's scenario: never a failure).
enum class Status {
  pass, fail, xfail, xpass, unsupported, error, timeout, interrupted, not_exercised, not_judged, not_applicable
};

/// "PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED", "ERROR", "TIMEOUT",
/// "INTERRUPTED", "NOT EXERCISED", "NOT JUDGED", "NOT APPLICABLE".
const char* to_string(Status s);
/// The inverse of to_string; nullopt for a word it never returns.
std::optional<Status> parse_status(const std::string& s);
/// Whether a case with this status makes the run fail (exit code 1; an
/// INTERRUPTED case did not pass either, and gates count it so).
bool is_failure(Status s);
/// Whether a case with this status saw nothing to judge, so that a run does
/// not count it as passed or failed: UNSUPPORTED, NOT EXERCISED (the totals
/// count each apart, RunTotals).
bool is_skipped(Status s);

/// One check's verdict on one run, at the level its `[[case.expect]]` gives.
struct CheckOutcome {
  std::string check;
  ValueMap params;
  CheckResult result;
  RequirementLevel level = RequirementLevel::expectation;
};

/// "FAIL [SHOULD] check: summary" style label of an outcome: the verdict and,
/// for PASS and FAIL, the level in brackets.
std::string verdict_label(const CheckOutcome& o);

struct MutantOutcome;

/// "killed (c failed)", or "SURVIVED: " and why: each check its `fails`
/// names that did not fail on it, with its verdict and summary, and the
/// mutant run's folder; or the run's status and reason when it ended
/// before its checks. What every report prints for a mutant.
std::string mutant_verdict(const MutantOutcome& m);

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
  /// Each capture the run wrote, by file name, and where it was taken
  /// (capture_vantages()); empty in reports written before it was kept.
  std::vector<std::pair<std::string, std::string>> captures;
};

/// A mutant and whether the checks it names all failed on it.
struct MutantOutcome {
  std::string label;
  std::vector<std::string> fails;
  /// The run of the first seed on which it was not killed, else of the first.
  RunRecord run;
  /// Checks named in `fails` that passed on that run.
  std::vector<std::string> survived;
  /// Killed on every seed.
  bool killed = false;
  /// The seeds it ran with (its case's), and those on which it was not killed.
  std::vector<std::uint64_t> seeds, survived_seeds;
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

/// Which failed cases fail the run by level (`--fail-on`): those failing a
/// MUST, those failing a MUST or a SHOULD, or any.
enum class FailLevel { must, should, any };
/// What gives exit code 1: failures at `level`, NOT JUDGED cases unless
/// `not_judged` is false (a gate on production captures whose keys it may
/// lack), and NOT EXERCISED cases when `not_exercised` is true (a gate that
/// must not be green having judged nothing). Failures that are no check's
/// (ERROR, TIMEOUT, ...) always do.
struct FailOn {
  FailLevel level = FailLevel::any;
  bool not_judged = true;
  bool not_exercised = false;
};
/// `--fail-on`'s value: a level ("must", "should", "any"), then optionally
/// ",not-judged=fail|ok" and ",not-exercised=ok|fail", each once, in either
/// order; nullopt for anything else.
std::optional<FailOn> parse_fail_on(std::string_view text);
/// Whether a case of status `s` fails a gate of `fail_on`, whatever its
/// level: a failure, but NOT JUDGED only when `fail_on.not_judged`, and NOT
/// EXERCISED when `fail_on.not_exercised` (how a baseline compares).
bool fails_gate(Status s, const FailOn& fail_on);
/// Whether `level` of `--fail-on` counts a failure at `failed`.
bool counts(FailLevel level, RequirementLevel failed);

/// The level a failed case fails at: the highest level of the checks that
/// FAILed in its runs; MUST for a failure that is no check's (ERROR,
/// TIMEOUT, XPASS, NOT JUDGED, a mutant that survived, an expected check not
/// exercised), which no level of `--fail-on` excuses. nullopt when `r` did
/// not fail.
std::optional<RequirementLevel> failure_level(const CaseResult& r);

}  // namespace conform
