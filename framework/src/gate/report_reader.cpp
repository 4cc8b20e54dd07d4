// JSON report → cases and results.
#include "gate/report_reader.hpp"

#include "gate/json_file.hpp"
#include "run/record_json.hpp"

#include <nlohmann/json.hpp>

namespace conform {

namespace {
using nlohmann::json;

// `j[key]`, or a shape error naming `pointer/key`.
const json& member(const std::string& path, const json& j, const std::string& pointer, const char* key) {
  if (!j.is_object()) throw json_shape_error(path, pointer, "expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw json_shape_error(path, pointer, std::string("no \"") + key + "\"");
  return *it;
}

// nlohmann's message without its "[json.exception.type_error.302] " tag.
std::string plain(const json::exception& e) {
  std::string what = e.what();
  auto end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

MutantOutcome mutant_from_json(const json& j) {
  MutantOutcome m;
  m.label = j.at("label").get<std::string>();
  m.fails = j.at("fails").get<std::vector<std::string>>();
  m.killed = j.at("killed").get<bool>();
  m.survived = j.at("survived").get<std::vector<std::string>>();
  m.run = record_from_json(j.at("run"));
  return m;
}

ReportedCase case_from_json(const json& j) {
  ReportedCase c;
  c.suite = j.at("suite").get<std::string>();
  c.decl.pos = {c.suite};
  c.decl.id = j.at("id").get<std::string>();
  c.decl.rfc = j.at("section").get<std::string>();
  c.decl.requirement = j.at("requirement").get<std::string>();
  c.decl.summary = j.at("summary").get<std::string>();
  c.decl.plugin = j.at("plugin").get<std::string>();
  c.decl.scenario = j.at("scenario").get<std::string>();
  c.settings.id = c.decl.id;
  c.settings.scenario = c.decl.scenario;
  c.settings.params = value_map_from_json(j.at("params"));
  c.settings.network = value_map_from_json(j.at("network"));
  for (const auto& [role, values] : j.at("knobs").get_ref<const json::object_t&>())
    c.settings.knobs[role] = value_map_from_json(values);
  CaseResult& r = c.result;
  const std::string status = j.at("status").get<std::string>();
  r.status = status_from_string(status);
  if (status != to_string(r.status)) throw std::invalid_argument("unknown status \"" + status + "\"");
  r.headline = j.at("headline").get<std::string>();
  r.duration_s = j.at("duration_s").get<double>();
  r.runs_passed = j.at("runs_passed").get<std::size_t>();
  for (const auto& run : j.at("runs")) r.runs.push_back(record_from_json(run));
  for (const auto& m : j.at("mutants")) r.mutants.push_back(mutant_from_json(m));
  if (auto seed = j.find("seed"); seed != j.end()) r.headline_seed = seed->get<std::uint64_t>();
  return c;
}

ShardInfo shard_from_json(const json& j) {
  ShardInfo s;
  s.index = j.at("index").get<std::size_t>();
  s.count = j.at("count").get<std::size_t>();
  s.cases_total = j.at("cases_total").get<std::size_t>();
  s.cases_digest = j.at("cases_digest").get<std::string>();
  s.positions = j.at("positions").get<std::vector<std::size_t>>();
  s.replay_args = j.at("replay_args").get<std::vector<std::string>>();
  return s;
}

}  // namespace

ReadReport read_report(const std::string& path) {
  const json doc = read_json_file(path);
  ReadReport report;
  report.path = path;
  std::string where;
  try {
    report.conform_version = json_string(path, doc, "", "conform_version");
    where = "/seed";
    report.seed = member(path, doc, "", "seed").get<std::uint64_t>();
    where = "/seed_pinned";
    report.seed_pinned = member(path, doc, "", "seed_pinned").get<bool>();
    report.out_dir = json_string(path, doc, "", "out_dir");
    if (auto shard = doc.find("shard"); shard != doc.end()) {
      where = "/shard";
      report.shard = shard_from_json(*shard);
    }
    const json& cases = member(path, doc, "", "cases");
    where = "/cases";
    if (!cases.is_array()) throw json_shape_error(path, where, "expected an array");
    for (std::size_t i = 0; i < cases.size(); ++i) {
      where = "/cases/" + std::to_string(i);
      report.cases.push_back(case_from_json(cases[i]));
    }
  } catch (const json::exception& e) {
    throw json_shape_error(path, where, plain(e));
  } catch (const std::invalid_argument& e) {
    throw json_shape_error(path, where, e.what());
  }
  return report;
}

}  // namespace conform
