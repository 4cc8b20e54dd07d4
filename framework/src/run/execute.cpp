// Plugin, then checks, for one run.
#include "run/execute.hpp"

#include "common/input_error.hpp"
#include "run/case_context.hpp"
#include "suite/matrix.hpp"

namespace conform {
namespace {

// The demand `plugin` declares for a run of these settings, if it declares one.
std::optional<RunDemand> declared_demand(const PluginInfo& plugin, const CaseSettings& settings) {
  for (const auto& scenario : plugin.scenarios)
    if (scenario.name == settings.scenario && scenario.demand) return scenario.demand(settings.params);
  return std::nullopt;
}

}  // namespace

RunRecord judge_checks(const Case& c, const std::string& artifact_dir, const CaseSettings& settings,
                       const CheckRegistry& checks) {
  RunRecord record;
  record.status = Status::pass;
  for (const auto& expect : c.decl->expects) {
    CheckOutcome outcome{expect.check, expect.params, {}};
    const Check* check = checks.find(expect.check);
    try {
      outcome.result = check->evaluate({artifact_dir, settings, expect.params});
    } catch (const std::exception& e) {
      outcome.result = {false, "the check could not read the run: " + std::string(e.what()), {}};
    }
    if (!outcome.result.passed && record.status == Status::pass) record.status = Status::fail;
    // A check that could not see what it judges makes no verdict: the
    // run is an ERROR, which fails a CI job as FAIL does but says why.
    if (!outcome.result.judged && record.status != Status::error) {
      record.status = Status::error;
      record.reason = outcome.check + ": " + outcome.result.summary;
    }
    record.checks.push_back(std::move(outcome));
  }
  return record;
}

RunRecord execute_run(const RunJob& job, Plugin& plugin, const CheckRegistry& checks) {
  CaseSettings settings = job.mutant ? apply_mutant(job.c->settings, *job.mutant) : job.c->settings;
  settings.seed = job.seed;
  settings.demand = declared_demand(plugin.info(), settings);
  RunRecord record;
  try {
    CaseContext ctx(std::move(settings), job.c->net(job.mutant), job.artifact_dir);
    RunOutcome outcome = plugin.run(ctx);
    ctx.close_captures();
    if (outcome.status == RunOutcome::Status::completed) {
      record = judge_checks(*job.c, ctx.artifact_dir(), ctx.settings(), checks);
    } else {
      record.status = outcome.status == RunOutcome::Status::unsupported ? Status::unsupported
                      : outcome.status == RunOutcome::Status::timeout   ? Status::timeout
                                                                         : Status::error;
      record.reason = outcome.reason;
    }
  } catch (const std::exception& e) {
    record.status = Status::error;
    record.reason = std::string("the run threw: ") + e.what();
  }
  record.seed = job.seed;
  record.mutant = job.mutant ? job.mutant->label : "";
  record.artifact_dir = job.artifact_dir;
  return record;
}

}  // namespace conform
