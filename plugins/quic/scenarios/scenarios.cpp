// The list of the plugin's scenarios and the helpers every scenario uses to
// read its parameters.
#include "scenarios/scenario.hpp"

namespace conform::quic {

const std::vector<ScenarioEntry>& scenario_table() {
  static const std::vector<ScenarioEntry> table = {
      handshake_scenario(), uni_fanout_scenario(), uni_publish_scenario(),
      request_response_scenario(), bulk_scenario(),
  };
  return table;
}

MadeScenario make_scenario(const std::string& name, const ValueMap& params) {
  for (const ScenarioEntry& e : scenario_table()) {
    if (e.spec.name != name) continue;
    ValueMap full = params;
    for (const ValueSpec& p : e.spec.params)
      if (!full.count(p.name) && p.default_value) full.emplace(p.name, *p.default_value);
    for (const ValueSpec& p : e.spec.params) {
      auto it = full.find(p.name);
      if (it == full.end() || conform::type_of(it->second) != p.type)
        return {nullptr, "scenario " + name + ": parameter " + p.name + " must be " + to_string(p.type)};
    }
    return e.make(full);
  }
  return {nullptr, "the quic plugin has no scenario '" + name + "'"};
}

std::string at_least(const ValueMap& params, const std::vector<std::string>& names, int64_t min) {
  for (const std::string& n : names)
    if (integer_param(params, n) < min)
      return n + " = " + std::to_string(integer_param(params, n)) + ": must be at least " +
             std::to_string(min);
  return {};
}

std::string clients_problem(const ValueMap& params) {
  if (auto problem = at_least(params, {"clients"}, 1); !problem.empty()) return problem;
  if (integer_param(params, "clients") > 1000) return "clients: at most 1000";
  return {};
}

}  // namespace conform::quic
