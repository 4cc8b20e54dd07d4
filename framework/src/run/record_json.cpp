// RunRecord <-> JSON.
#include "run/record_json.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>

namespace conform {
using nlohmann::json;

json to_json(const Value& v) {
  return std::visit([](const auto& x) { return json(x); }, v);
}

json to_json(const ValueMap& values) {
  json j = json::object();
  for (const auto& [k, v] : values) j[k] = to_json(v);
  return j;
}

json to_json(const Evidence& e) {
  json j = {{"capture", e.capture}, {"frame", e.frame}, {"text", e.text}};
  j["time_ns"] = e.time_ns >= 0 ? json(e.time_ns) : json(nullptr);
  return j;
}

json to_json(const RunRecord& r) {
  json checks = json::array();
  for (const auto& c : r.checks) {
    json evidence = json::array();
    for (const auto& e : c.result.evidence) evidence.push_back(to_json(e));
    checks.push_back({{"check", c.check},
                      {"params", to_json(c.params)},
                      {"verdict", to_string(c.result.verdict)},
                      {"level", to_string(c.level)},
                      {"summary", c.result.summary},
                      {"evidence", evidence}});
  }
  json captures = json::array();
  for (const auto& [file, vantage] : r.captures) captures.push_back({{"file", file}, {"vantage", vantage}});
  return {{"seed", r.seed},         {"mutant", r.mutant},
          {"status", to_string(r.status)}, {"reason", r.reason},
          {"duration_s", r.duration_s},    {"artifact_dir", r.artifact_dir},
          {"captures", captures},          {"checks", checks}};
}

namespace {

Value value_from_json(const json& j) {
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number_integer()) return j.get<std::int64_t>();
  if (j.is_number()) return j.get<double>();
  if (j.is_array()) return j.get<std::vector<std::string>>();
  return j.get<std::string>();
}

}  // namespace

ValueMap value_map_from_json(const json& j) {
  ValueMap values;
  for (const auto& [k, v] : j.get_ref<const json::object_t&>()) values[k] = value_from_json(v);
  return values;
}

namespace {

// A word this version does not know is refused, not read as another.
template <typename T>
T known(std::optional<T> parsed, const char* what, const std::string& word) {
  if (!parsed) throw std::invalid_argument(std::string("unknown ") + what + " \"" + word + "\"");
  return *parsed;
}

}  // namespace

RunRecord record_from_json(const json& j) {
  RunRecord r;
  r.seed = j.at("seed").get<std::uint64_t>();
  r.mutant = j.at("mutant").get<std::string>();
  const auto status = j.at("status").get<std::string>();
  r.status = known(parse_status(status), "status", status);
  r.reason = j.at("reason").get<std::string>();
  r.duration_s = j.at("duration_s").get<double>();
  r.artifact_dir = j.at("artifact_dir").get<std::string>();
  if (auto it = j.find("captures"); it != j.end())
    for (const auto& c : *it) r.captures.emplace_back(c.at("file").get<std::string>(), c.at("vantage").get<std::string>());
  for (const auto& c : j.at("checks")) {
    CheckOutcome o;
    o.check = c.at("check").get<std::string>();
    o.params = value_map_from_json(c.at("params"));
    const auto verdict = c.at("verdict").get<std::string>();
    o.result.verdict = known(parse_verdict(verdict), "verdict", verdict);
    const auto level = c.at("level").get<std::string>();
    o.level = known(parse_requirement_level(level), "level", level);
    o.result.summary = c.at("summary").get<std::string>();
    for (const auto& e : c.at("evidence"))
      o.result.evidence.push_back({e.at("capture").get<std::string>(),
                                   e.at("frame").get<std::uint64_t>(),
                                   e.at("time_ns").is_null() ? -1 : e.at("time_ns").get<std::int64_t>(),
                                   e.at("text").get<std::string>()});
    r.checks.push_back(std::move(o));
  }
  return r;
}

}  // namespace conform
