// JSON report → cases and results.
#include "gate/report_reader.hpp"

#include "common/json_file.hpp"
#include "gate/report_consistency.hpp"
#include "run/record_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace conform {

namespace {
using nlohmann::json;

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
  const json& object(const char* key) const {
    const json& o = at(key);
    if (!o.is_object()) throw std::invalid_argument("expected an object");
    return o;
  }
  // nlohmann would take true as 1 and -1 as 2^64-1: a seed, count or frame
  // number must be written as one.
  std::uint64_t count(const char* key) const {
    const json& n = at(key);
    if (!n.is_number_unsigned()) throw std::invalid_argument("expected an integer at least 0");
    return n.get<std::uint64_t>();
  }
  double seconds(const char* key) const {
    const json& n = at(key);
    if (!n.is_number()) throw std::invalid_argument(std::string("type must be number, but is ") + n.type_name());
    const double s = n.get<double>();
    if (!(s >= 0)) throw std::invalid_argument("must be a number of seconds, at least 0");
    return s;
  }
  Status status(const char* key) const {
    const std::string word = get<std::string>(key);
    const auto s = parse_status(word);
    if (!s) throw std::invalid_argument("unknown status \"" + word + "\"");
    return *s;
  }
  const std::string& base() const { return base_; }

 private:
  const json& j_;
  std::string base_;
  std::string& where_;
};

// One check's verdict in a run record, with its evidence.
void check_shape(const json& j, const std::string& base, std::string& where) {
  Fields f(j, base, where);
  f.get<std::string>("check");
  value_map_from_json(f.object("params"));
  if (!parse_verdict(f.get<std::string>("verdict")))
    throw std::invalid_argument("unknown verdict \"" + f.get<std::string>("verdict") + "\"");
  if (!parse_requirement_level(f.get<std::string>("level")))
    throw std::invalid_argument("unknown level \"" + f.get<std::string>("level") + "\"");
  f.get<std::string>("summary");
  const json& evidence = f.array("evidence");
  for (std::size_t k = 0; k < evidence.size(); ++k) {
    Fields e(evidence[k], base + "/evidence/" + std::to_string(k), where);
    e.get<std::string>("capture");
    e.count("frame");
    if (!e.at("time_ns").is_null()) e.count("time_ns");
    e.get<std::string>("text");
  }
}

// A run record; its members are checked one by one first, so an error names
// the member, then read by the same code that reads a forked run's record.
RunRecord run_from_json(const json& j, const std::string& base, std::string& where) {
  Fields f(j, base, where);
  f.count("seed");
  f.get<std::string>("mutant");
  f.status("status");
  f.get<std::string>("reason");
  f.seconds("duration_s");
  f.get<std::string>("artifact_dir");
  const json& checks = f.array("checks");
  for (std::size_t k = 0; k < checks.size(); ++k) check_shape(checks[k], base + "/checks/" + std::to_string(k), where);
  where = base;
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
  // Reports before mutants ran on every seed: the one seed of their run.
  m.seeds = j.contains("seeds") ? f.get<std::vector<std::uint64_t>>("seeds") : std::vector<std::uint64_t>{m.run.seed};
  if (j.contains("survived_seeds")) m.survived_seeds = f.get<std::vector<std::uint64_t>>("survived_seeds");
  else if (!m.killed) m.survived_seeds = {m.run.seed};
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
  c.settings.params = value_map_from_json(f.object("params"));
  c.settings.network = value_map_from_json(f.object("network"));
  const Fields knobs(f.object("knobs"), base + "/knobs", where);
  for (const auto& [role, values] : f.at("knobs").get_ref<const json::object_t&>())
    c.settings.knobs[role] = value_map_from_json(knobs.object(role.c_str()));
  CaseResult& r = c.result;
  r.status = f.status("status");
  r.headline = f.get<std::string>("headline");
  r.duration_s = f.seconds("duration_s");
  r.runs_passed = f.count("runs_passed");
  const json& runs = f.array("runs");
  for (std::size_t k = 0; k < runs.size(); ++k)
    r.runs.push_back(run_from_json(runs[k], base + "/runs/" + std::to_string(k), where));
  const json& mutants = f.array("mutants");
  for (std::size_t k = 0; k < mutants.size(); ++k)
    r.mutants.push_back(mutant_from_json(mutants[k], base + "/mutants/" + std::to_string(k), where));
  // A failure names the seed its replay command runs with.
  if (is_failure(r.status) || j.contains("seed")) r.headline_seed = f.count("seed");
  if (j.contains("replay")) f.get<std::string>("replay");
  return c;
}

ShardInfo shard_from_json(const json& j, std::string& where) {
  Fields f(j, "/shard", where);
  ShardInfo s;
  s.index = f.count("index");
  s.count = f.count("count");
  s.cases_total = f.count("cases_total");
  s.cases_digest = f.get<std::string>("cases_digest");
  const json& positions = f.array("positions");
  for (std::size_t k = 0; k < positions.size(); ++k) {
    where = "/shard/positions/" + std::to_string(k);
    if (!positions[k].is_number_unsigned()) throw std::invalid_argument("expected an integer at least 0");
    s.positions.push_back(positions[k].get<std::size_t>());
  }
  s.replay_args = f.get<std::vector<std::string>>("replay_args");
  return s;
}

// An index into a list of `size` `what`s: refused at `where` past its end.
std::size_t index_below(const json& j, std::size_t size, const char* what, const std::string& at,
                        std::string& where) {
  where = at;
  if (!j.is_number_unsigned() || j.get<std::uint64_t>() >= size)
    throw std::invalid_argument(fmt::format("expected the index of one of the job's {} {}{} (from 0)", size, what,
                                            size == 1 ? "" : "s"));
  return j.get<std::size_t>();
}

CheckShardReport check_shard_from_json(const json& j, std::string& where) {
  Fields f(j, "/check_shard", where);
  CheckShardReport s;
  s.spec.index = f.count("index");
  s.spec.count = f.count("count");
  if (s.spec.index < 1 || s.spec.index > s.spec.count) {
    where = "/check_shard/index";
    throw std::invalid_argument("expected 1 to count");
  }
  s.split_bytes = f.count("split_bytes");
  s.cases_digest = f.get<std::string>("cases_digest");
  s.cases_total = f.count("cases_total");
  s.inputs_digest = f.get<std::string>("inputs_digest");
  s.replay_inputs = f.get<std::string>("replay_inputs");
  const json& captures = f.array("captures");
  for (std::size_t k = 0; k < captures.size(); ++k) {
    Fields c(captures[k], "/check_shard/captures/" + std::to_string(k), where);
    CheckShardReport::Capture capture{c.get<std::string>("file"), c.count("bytes"), c.get<bool>("read"),
                                      c.get<bool>("split"), 0};
    if (capture.read) capture.connections = c.count("connections");
    s.captures.push_back(std::move(capture));
  }
  const json& judged = f.array("judged");
  for (std::size_t k = 0; k < judged.size(); ++k) {
    const std::string at = "/check_shard/judged/" + std::to_string(k);
    where = at;
    if (!judged[k].is_array() || judged[k].size() != 3) throw std::invalid_argument("expected [case, capture, connection]");
    CheckShardReport::Place p;
    p.case_index = index_below(judged[k][0], s.cases_total, "case", at + "/0", where);
    p.capture = index_below(judged[k][1], s.captures.size(), "capture", at + "/1", where);
    const auto& capture = s.captures[p.capture];
    where = at + "/2";
    if (!capture.read) throw std::invalid_argument("a connection of a capture the job did not read");
    if (!judged[k][2].is_number_unsigned() || judged[k][2].get<std::uint64_t>() < 1 ||
        judged[k][2].get<std::uint64_t>() > capture.connections)
      throw std::invalid_argument(fmt::format("expected a connection's number, 1 to {}", capture.connections));
    p.connection = judged[k][2].get<std::size_t>();
    where = at;
    if (!s.judged.empty() && !(s.judged.back() < p))
      throw std::invalid_argument("places out of order: a job lists them by case, capture and connection");
    s.judged.push_back(p);
  }
  return s;
}

}  // namespace

RunTotals totals_from_json(const json& j, std::string& where) {
  Fields f(j, "/totals", where);
  RunTotals t;
  for (const auto& c : kTotalsCounts)
    if (always_in_totals(c) || j.contains(c.key)) t.*c.count = f.count(c.key);
  t.duration_s = f.seconds("duration_s");
  return t;
}

ReadReport read_report(const std::string& path) { return report_from_json(path, read_json_file(path)); }

ReadReport report_from_json(const std::string& path, const nlohmann::json& doc) {
  ReadReport report;
  report.path = path;
  std::string where;
  try {
    Fields f(doc, "", where);
    report.conform_version = f.get<std::string>("conform_version");
    report.seed = f.count("seed");
    report.seed_pinned = f.get<bool>("seed_pinned");
    report.out_dir = f.get<std::string>("out_dir");
    if (doc.contains("shard")) report.shard = shard_from_json(f.at("shard"), where);
    if (doc.contains("check_shard")) report.check_shard = check_shard_from_json(f.at("check_shard"), where);
    if (doc.contains("offline")) report.offline = f.object("offline");
    const json& cases = f.array("cases");
    for (std::size_t i = 0; i < cases.size(); ++i)
      report.cases.push_back(case_from_json(cases[i], "/cases/" + std::to_string(i), where));
    report.totals = totals_from_json(f.at("totals"), where);
  } catch (const json::exception& e) {
    throw json_shape_error(path, where, json_error_message(e));
  } catch (const std::invalid_argument& e) {
    throw json_shape_error(path, where, e.what());
  }
  check_consistent(report);
  return report;
}

}  // namespace conform
