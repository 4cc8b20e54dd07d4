// Baselines: reading one, comparing a run with it.
#include "gate/baseline.hpp"

#include "common/json_file.hpp"

#include <set>

namespace conform {

namespace {

// Every status a report of `conform run` or `conform check` may hold.
Status baseline_status(const std::string& path, const std::string& pointer, const std::string& word) {
  if (const auto s = parse_status(word)) return *s;
  std::vector<std::string> words;
  for (int s = 0; s <= static_cast<int>(Status::not_applicable); ++s) words.push_back(to_string(Status(s)));
  throw json_shape_error(path, pointer, "unknown status \"" + word + "\"" + did_you_mean(word, words));
}

}  // namespace

Baseline read_baseline(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  if (!doc.is_object()) throw json_shape_error(path, "", "expected a conform JSON report (an object)");
  auto cases = doc.find("cases");
  if (cases == doc.end()) throw json_shape_error(path, "", "no \"cases\": not a conform JSON report");
  if (!cases->is_array()) throw json_shape_error(path, "/cases", "expected an array");
  Baseline baseline{path, {}};
  for (std::size_t i = 0; i < cases->size(); ++i) {
    const std::string pointer = "/cases/" + std::to_string(i);
    const nlohmann::json& c = (*cases)[i];
    std::string id = json_string(path, c, pointer, "id");
    Status status = baseline_status(path, pointer + "/status", json_string(path, c, pointer, "status"));
    if (!baseline.cases.emplace(id, status).second)
      throw json_shape_error(path, pointer + "/id", "case \"" + id + "\" appears twice");
  }
  return baseline;
}

BaselineComparison compare_with_baseline(const Baseline& baseline, const std::vector<CaseVerdict>& verdicts,
                                         const FailOn& fail_on) {
  auto failing = [&](Status s) { return fails_gate(s, fail_on); };
  BaselineComparison out;
  std::set<std::string> seen;
  for (const auto& r : verdicts) {
    seen.insert(r.id);
    auto it = baseline.cases.find(r.id);
    BaselineEntry entry{r.id, Status::unsupported, it != baseline.cases.end(), r.status};
    if (entry.in_baseline) entry.was = it->second;
    if (failing(r.status)) {
      if (!entry.in_baseline || entry.was == Status::unsupported) out.new_failures.push_back(entry);
      else if (failing(entry.was)) out.known.push_back(entry);
      else out.regressions.push_back(entry);
    } else if (r.status != Status::unsupported && entry.in_baseline && failing(entry.was)) {
      out.fixed.push_back(entry);
    }
  }
  for (const auto& [id, status] : baseline.cases) out.not_run += seen.count(id) == 0;
  return out;
}

}  // namespace conform
