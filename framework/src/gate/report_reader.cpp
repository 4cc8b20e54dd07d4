// JSON report → cases and results.
#include "gate/report_reader.hpp"

#include "common/json_file.hpp"
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

// Reads one object's members, keeping in `where` the JSON pointer of the
// member being read, so a conversion error names that member.
class Fields {
 public:
  Fields(const json& j, std::string base, std::string& where) : j_(j), base_(std::move(base)), where_(where) {
    where_ = base_;
    if (!j_.is_object()) throw std::invalid_argument("expected an object");
  }
  const json& at(const char* key) const {
    where_ = base_ + "/" + key;
    auto it = j_.find(key);
    if (it == j_.end()) {
      where_ = base_;
      throw std::invalid_argument(std::string("no \"") + key + "\"");
    }
    return *it;
  }
  template <class T>
  T get(const char* key) const {
    return at(key).template get<T>();
  }
  const json& array(const char* key) const {
    const json& a = at(key);
    if (!a.is_array()) throw std::invalid_argument("expected an array");
    return a;
  }
  const std::string& base() const { return base_; }

 private:
  const json& j_;
  std::string base_;
  std::string& where_;
};

// A run record; its members are checked one by one first, so an error names
// the member, then read by the same code that reads a forked run's record.
RunRecord run_from_json(const json& j, const std::string& base, std::string& where) {
  Fields f(j, base, where);
  f.get<std::uint64_t>("seed");
  f.get<std::string>("mutant");
  const std::string status = f.get<std::string>("status");
  if (to_string(status_from_string(status)) != status)
    throw std::invalid_argument("unknown status \"" + status + "\"");
  f.get<std::string>("reason");
  if (!(f.get<double>("duration_s") >= 0)) throw std::invalid_argument("must be a number of seconds, at least 0");
  f.get<std::string>("artifact_dir");
  f.array("checks");
  return record_from_json(j);
}

MutantOutcome mutant_from_json(const json& j, const std::string& base, std::string& where) {
  Fields f(j, base, where);
  MutantOutcome m;
  m.label = f.get<std::string>("label");
  m.fails = f.get<std::vector<std::string>>("fails");
  m.killed = f.get<bool>("killed");
  m.survived = f.get<std::vector<std::string>>("survived");
  m.run = run_from_json(f.at("run"), base + "/run", where);
  return m;
}

ReportedCase case_from_json(const json& j, const std::string& base, std::string& where) {
  Fields f(j, base, where);
  ReportedCase c;
  c.suite = f.get<std::string>("suite");
  c.decl.pos = {c.suite};
  c.decl.id = f.get<std::string>("id");
  c.decl.rfc = f.get<std::string>("section");
  c.decl.requirement = f.get<std::string>("requirement");
  c.decl.summary = f.get<std::string>("summary");
  c.decl.plugin = f.get<std::string>("plugin");
  c.decl.scenario = f.get<std::string>("scenario");
  c.settings.id = c.decl.id;
  c.settings.scenario = c.decl.scenario;
  c.settings.params = value_map_from_json(f.at("params"));
  c.settings.network = value_map_from_json(f.at("network"));
  for (const auto& [role, values] : f.at("knobs").get_ref<const json::object_t&>())
    c.settings.knobs[role] = value_map_from_json(values);
  CaseResult& r = c.result;
  const std::string status = f.get<std::string>("status");
  r.status = status_from_string(status);
  if (status != to_string(r.status)) throw std::invalid_argument("unknown status \"" + status + "\"");
  r.headline = f.get<std::string>("headline");
  r.duration_s = f.get<double>("duration_s");
  if (!(r.duration_s >= 0)) throw std::invalid_argument("must be a number of seconds, at least 0");
  r.runs_passed = f.get<std::size_t>("runs_passed");
  const json& runs = f.array("runs");
  for (std::size_t k = 0; k < runs.size(); ++k)
    r.runs.push_back(run_from_json(runs[k], base + "/runs/" + std::to_string(k), where));
  const json& mutants = f.array("mutants");
  for (std::size_t k = 0; k < mutants.size(); ++k)
    r.mutants.push_back(mutant_from_json(mutants[k], base + "/mutants/" + std::to_string(k), where));
  if (auto seed = j.find("seed"); seed != j.end()) r.headline_seed = f.get<std::uint64_t>("seed");
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

ReadReport read_report(const std::string& path) { return report_from_json(path, read_json_file(path)); }

ReadReport report_from_json(const std::string& path, const nlohmann::json& doc) {
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
      report.cases.push_back(case_from_json(cases[i], "/cases/" + std::to_string(i), where));
    }
  } catch (const json::exception& e) {
    throw json_shape_error(path, where, plain(e));
  } catch (const std::invalid_argument& e) {
    throw json_shape_error(path, where, e.what());
  }
  return report;
}

}  // namespace conform
