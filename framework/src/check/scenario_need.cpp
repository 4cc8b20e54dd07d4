// Which set parameters tie an instance to its case's scenario.
#include "check/scenario_need.hpp"

#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace conform {
bool set_by_case(const std::vector<ValueSpec>& specs, const ValueMap& params, const std::string& name) {
  const auto value = params.find(name);
  if (value == params.end()) return false;
  const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ValueSpec& s) { return s.name == name; });
  return spec == specs.end() || !spec->default_value || !(*spec->default_value == value->second);
}

std::optional<std::string> scenario_need(const Check& check, const ValueMap& params) {
  const auto specs = check.params();
  std::vector<std::pair<ScenarioPart, std::string>> set;
  for (const auto& [name, part] : check.scenario_params())
    if (set_by_case(specs, params, name))
      set.emplace_back(part, fmt::format("{} = {}", name, format_toml(params.at(name))));
  if (set.empty()) return std::nullopt;
  std::vector<std::string> needs;
  for (const auto& [part, values] : group_by_part(set))
    needs.push_back(fmt::format("{}: {}", to_string(part), fmt::join(values, ", ")));
  return fmt::format("needs {}", fmt::join(needs, "; "));
}

ScenarioGroups group_by_part(const std::vector<std::pair<ScenarioPart, std::string>>& texts) {
  ScenarioGroups groups;
  for (const auto& [part, text] : texts) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == part; });
    if (it == groups.end()) it = groups.insert(groups.end(), {part, {}});
    it->second.push_back(text);
  }
  return groups;
}

}  // namespace conform
