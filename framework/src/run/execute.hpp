// One run of a case in the current process: the plugin plays the scenario,
// then the case's checks judge the captures it left.
#pragma once

#include "check/registry.hpp"
#include "plugin/loader.hpp"
#include "run/result.hpp"

namespace conform {

/// What one child run does.
struct RunJob {
  const Case* c = nullptr;
  /// The mutant this run plays, or nullptr for the case itself.
  const MutantDecl* mutant = nullptr;
  std::uint64_t seed = 0;
  /// Absolute folder for this run's captures, key log, log and verdict.
  std::string artifact_dir;
};

/// Whether every expected check must see the behaviour it judges: a run of
/// a suite must exercise what it claims (`conform run`); a capture made
/// elsewhere shows what it shows (`conform check`).
enum class ExerciseRule { required, as_seen };

/// Judges the captures in `artifact_dir` with every check `c` expects, each
/// outcome at its expect's level. FAIL when one failed; else PASS when one
/// passed; else NOT JUDGED when one could not see what it judges, else NOT
/// EXERCISED (the reason names the check and what it looked for). With
/// ExerciseRule::required, a check NOT EXERCISED that its expect does not
/// allow (`may_be_unexercised`) makes the run FAIL, and one NOT JUDGED makes
/// it ERROR, whatever the others say. A check that throws fails with the
/// reason. Seed, mutant, artifact folder and duration are left unset.
RunRecord judge_checks(const Case& c, const std::string& artifact_dir, const CaseSettings& settings,
                       const CheckRegistry& checks, ExerciseRule rule);

/// Runs `job` with `plugin` and judges it with `checks`: PASS when every
/// check passed, FAIL otherwise, UNSUPPORTED or ERROR as the plugin says.
/// Never throws; a plugin that throws gives ERROR. Duration is left 0.
RunRecord execute_run(const RunJob& job, Plugin& plugin, const CheckRegistry& checks);

}  // namespace conform
