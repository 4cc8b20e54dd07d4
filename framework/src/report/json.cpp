// The JSON report: every case with its runs, checks, evidence and mutants,
// grouped views by section, and the totals.
#include "report/file_reporter.hpp"
#include "report/report_json.hpp"
#include "run/record_json.hpp"

namespace conform {
using nlohmann::json;

namespace {

json case_json(const CaseResult& r, const RunPlan& plan) {
  json runs = json::array();
  for (const auto& run : r.runs) runs.push_back(to_json(run));
  json mutants = json::array();
  for (const auto& m : r.mutants)
    mutants.push_back({{"label", m.label},
                       {"fails", m.fails},
                       {"killed", m.killed},
                       {"survived", m.survived},
                       {"seeds", m.seeds},
                       {"survived_seeds", m.survived_seeds},
                       {"run", to_json(m.run)}});
  const CaseDecl& d = *r.c->decl;
  json j = {{"id", r.c->id()},          {"suite", r.c->suite->path},
            {"section", d.rfc},         {"requirement", d.requirement},
            {"summary", d.summary},     {"plugin", d.plugin},
            {"scenario", d.scenario},   {"status", to_string(r.status)},
            {"headline", r.headline},   {"duration_s", r.duration_s},
            {"runs_passed", r.runs_passed}, {"runs", runs},
            {"mutants", mutants},       {"params", to_json(r.c->settings.params)},
            {"network", to_json(r.c->settings.network)}};
  json knobs = json::object();
  for (const auto& [role, values] : r.c->settings.knobs) knobs[role] = to_json(values);
  j["knobs"] = knobs;
  if (is_failure(r.status)) {
    j["replay"] = replay_command(plan, r);
    j["seed"] = r.headline_seed;
  }
  return j;
}

}  // namespace

void DocumentReporter::add_section(std::string key, std::function<json()> render) {
  sections_.emplace_back(std::move(key), std::move(render));
}

json report_document(const std::vector<CaseResult>& results, const RunPlan& plan, const RunTotals& totals) {
  json cases = json::array();
  json sections = json::object();
  for (const auto& r : results) {
    cases.push_back(case_json(r, plan));
    json& s = sections[r.c->decl->rfc];
    if (s.is_null()) s = {{"cases", json::array()}, {"passed", 0}, {"failed", 0}, {"skipped", 0}};
    s["cases"].push_back(r.c->id());
    const char* bucket = total_bucket(r.status);
    s[bucket] = s.value(bucket, 0) + 1;
  }
  // passed, failed and skipped always; the other states only when some case
  // has them, so that reports of whole runs keep their shape.
  json totals_json = json::object();
  for (const auto& c : kTotalsCounts)
    if (totals.*c.count || always_in_totals(c)) totals_json[c.key] = totals.*c.count;
  totals_json["duration_s"] = totals.duration_s;
  return {{"conform_version", CONFORM_VERSION},
          {"seed", plan.seed},
          {"seed_pinned", plan.seed_pinned},
          {"out_dir", plan.out_dir},
          {"cases", cases},
          {"sections", sections},
          {"totals", totals_json}};
}

json DocumentReporter::document(const RunTotals& totals) const {
  json doc = report_document(results_, plan_, totals);
  for (const auto& [key, section] : sections_)
    if (json value = section(); !value.is_null()) doc[key] = std::move(value);
  return doc;
}

std::string JsonReporter::render(const RunTotals& totals) const {
  // Paths and ids need not be UTF-8; JSON must be.
  return document(totals).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace conform
