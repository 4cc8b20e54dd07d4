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

/// Where the captures a case is judged on come from: a run of the case,
/// which played its scenario and must exercise what the suite claims
/// (`conform run`), or elsewhere, which shows what it shows and never
/// played the scenario (`conform check`).
enum class CaptureOrigin { case_run, elsewhere };

/// Judges the captures in `artifact_dir` with every check `c` expects, each
/// outcome at its expect's level. FAIL when one failed; else PASS when one
/// passed; else NOT JUDGED when one could not see what it judges, else NOT
/// EXERCISED (the reason names the check and what it looked for), else NOT
/// APPLICABLE. From a case run, a check NOT EXERCISED that its expect does
/// not allow (`may_be_unexercised`) makes the run FAIL, and one NOT JUDGED
/// makes it ERROR, whatever the others say. On captures from elsewhere, an
/// instance whose expect sets a parameter of the case's scenario is NOT
/// APPLICABLE, unjudged (check/scenario_need.hpp). A check that throws
/// fails with the reason. Seed, mutant, artifact folder and duration are
/// left unset.
RunRecord judge_checks(const Case& c, const std::string& artifact_dir, const CaseSettings& settings,
                       const CheckRegistry& checks, CaptureOrigin origin,
                       const PreparedCaptures* prepared = nullptr);

/// Runs `job` with `plugin` and judges it with `checks`: PASS when every
/// check passed, FAIL otherwise, UNSUPPORTED or ERROR as the plugin says.
/// Never throws; a plugin that throws gives ERROR. Duration is left 0.
RunRecord execute_run(const RunJob& job, Plugin& plugin, const CheckRegistry& checks);

}  // namespace conform
