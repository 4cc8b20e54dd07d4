// The list of the plugin's scenarios and the helpers every scenario uses to
// read its parameters.
#include "scenarios/scenario.hpp"

#include <limits>

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
      if (const auto* x = std::get_if<int64_t>(&it->second); x && ((p.min && *x < *p.min) || (p.max && *x > *p.max)))
        return {nullptr, p.name + " = " + std::to_string(*x) + ": must be from " +
                             std::to_string(p.min.value_or(std::numeric_limits<int64_t>::min())) + " to " +
                             std::to_string(p.max.value_or(std::numeric_limits<int64_t>::max()))};
    }
    return e.make(full);
  }
  return {nullptr, "the quic plugin has no scenario '" + name + "'"};
}

}  // namespace conform::quic
