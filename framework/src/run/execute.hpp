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

/// Judges the captures in `artifact_dir` with every check `c` expects:
/// PASS when all passed, FAIL otherwise, ERROR when a check could not see
/// what it judges (CheckResult::judged; the reason names the check and
/// why). A check that throws fails with the reason. Seed, mutant, artifact folder and duration are left unset.
RunRecord judge_checks(const Case& c, const std::string& artifact_dir, const CaseSettings& settings,
                       const CheckRegistry& checks);

/// Runs `job` with `plugin` and judges it with `checks`: PASS when every
/// check passed, FAIL otherwise, UNSUPPORTED or ERROR as the plugin says.
/// Never throws; a plugin that throws gives ERROR. Duration is left 0.
RunRecord execute_run(const RunJob& job, Plugin& plugin, const CheckRegistry& checks);

}  // namespace conform
