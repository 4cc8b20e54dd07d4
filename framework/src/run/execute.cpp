// Plugin, then checks, for one run.
#include "run/execute.hpp"

#include "capture/vantage.hpp"

#include "check/scenario_need.hpp"
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

namespace {

const CheckOutcome* first_with(const RunRecord& record, Verdict v) {
  for (const auto& o : record.checks)
    if (o.result.verdict == v) return &o;
  return nullptr;
}

std::string reason(const CheckOutcome& o) { return o.check + ": " + o.result.summary; }

// The run's status from its outcomes, without CaptureOrigin::case_run.
void settle_as_seen(RunRecord& record) {
  if (first_with(record, Verdict::fail)) record.status = Status::fail;
  else if (first_with(record, Verdict::pass)) record.status = Status::pass;
  else if (const auto* o = first_with(record, Verdict::not_judged)) {
    record.status = Status::not_judged;
    record.reason = reason(*o);
  } else if (const auto* o = first_with(record, Verdict::not_exercised)) {
    record.status = Status::not_exercised;
    record.reason = reason(*o);
  } else if (first_with(record, Verdict::not_applicable)) {
    record.status = Status::not_applicable;
    for (const auto& o : record.checks)
      if (o.result.verdict == Verdict::not_applicable)
        record.reason += (record.reason.empty() ? "" : "; ") + reason(o);
  }
}

}  // namespace

RunRecord judge_checks(const Case& c, const std::string& artifact_dir, const CaseSettings& settings,
                       const CheckRegistry& checks, CaptureOrigin origin, const PreparedCaptures* prepared) {
  RunRecord record;
  record.status = Status::pass;
  for (const auto& expect : c.decl->expects) {
    CheckOutcome outcome{expect.check, expect.params, {}, expect.level};
    const Check* check = checks.find(expect.check);
    if (origin == CaptureOrigin::elsewhere && !expect.applies_offline)
      if (auto need = scenario_need(*check, expect.params)) {
        outcome.result = {Verdict::not_applicable, *need, {}};
        record.checks.push_back(std::move(outcome));
        continue;
      }
    try {
      outcome.result = check->evaluate({artifact_dir, settings, expect.params, prepared});
    } catch (const std::exception& e) {
      outcome.result = {Verdict::fail, "the check could not read the run: " + std::string(e.what()), {}};
    }
    record.checks.push_back(std::move(outcome));
  }
  settle_as_seen(record);
  if (origin == CaptureOrigin::elsewhere || record.status == Status::fail) return record;
  // A suite that claims a behaviour must show it: a check that could not
  // see is an ERROR (it fails a CI job as FAIL does but says why), one that
  // never saw its behaviour a FAIL, unless its expect allows that.
  if (const auto* o = first_with(record, Verdict::not_judged)) {
    record.status = Status::error;
    record.reason = reason(*o);
    return record;
  }
  for (std::size_t k = 0; k < record.checks.size(); ++k)
    if (record.checks[k].result.verdict == Verdict::not_exercised && !c.decl->expects[k].may_be_unexercised) {
      record.status = Status::fail;
      record.reason = record.checks[k].check + " was not exercised (the case claims it): " +
                      record.checks[k].result.summary;
      return record;
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
    std::vector<std::pair<std::string, std::string>> captures;
    for (const auto& [file, vantage] : capture_vantages(ctx.artifact_dir()))
      captures.emplace_back(file, to_string(vantage));
    const bool timed_out = outcome.status == RunOutcome::Status::timeout;
    if (outcome.status == RunOutcome::Status::completed || timed_out) {
      record = judge_checks(*job.c, ctx.artifact_dir(), ctx.settings(), checks, CaptureOrigin::case_run);
      // What a run that never ended (a deadlock) left is judged too: a
      // mutant is killed by it, and the report shows it; the run stays a
      // TIMEOUT.
      if (timed_out) {
        record.status = Status::timeout;
        record.reason = outcome.reason;
      }
    } else {
      record.status = outcome.status == RunOutcome::Status::unsupported ? Status::unsupported : Status::error;
      record.reason = outcome.reason;
    }
    record.captures = std::move(captures);
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
