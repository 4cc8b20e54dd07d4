// Which set parameters tie an instance to its case's scenario.
#include "check/scenario_need.hpp"

#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace conform {
namespace {

// Whether the expect gave `name` a value of its own: one without a default
// always did.
bool set_by_case(const std::vector<ValueSpec>& specs, const ValueMap& params, const std::string& name) {
  const auto value = params.find(name);
  if (value == params.end()) return false;
  const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ValueSpec& s) { return s.name == name; });
  return spec == specs.end() || !spec->default_value || !(*spec->default_value == value->second);
}

}  // namespace

std::optional<std::string> scenario_need(const Check& check, const ValueMap& params) {
  const auto specs = check.params();
  std::vector<std::string> needs;
  for (const auto& [name, part] : check.scenario_params()) {
    if (!set_by_case(specs, params, name)) continue;
    needs.push_back(fmt::format("{}: {} = {}", to_string(part), name, format_toml(params.at(name))));
  }
  if (needs.empty()) return std::nullopt;
  return fmt::format("needs {}", fmt::join(needs, "; "));
}

}  // namespace conform
