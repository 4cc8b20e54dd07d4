// Matrix expansion and overrides.
#include "suite/matrix.hpp"

#include "suite/network_points.hpp"
#include "suite/toml_value.hpp"
#include "suite/value_format.hpp"

#include <map>

namespace conform {
namespace {

const PluginInfo* find_plugin(const Catalogue& catalogue, const std::string& name) {
  for (const auto* p : catalogue.plugins)
    if (p->name == name) return p;
  return nullptr;
}

CaseSettings base_settings(const CaseDecl& decl, const PluginInfo& plugin,
                           const Catalogue& catalogue) {
  using suite_detail::with_defaults;
  CaseSettings s;
  s.id = decl.id;
  s.scenario = decl.scenario;
  for (const auto& scenario : plugin.scenarios)
    if (scenario.name == decl.scenario) s.params = with_defaults(scenario.params, decl.params);
  for (const auto& role : plugin.roles) {
    auto it = decl.knobs.find(role);
    s.knobs[role] = with_defaults(plugin.knobs, it == decl.knobs.end() ? ValueMap{} : it->second);
  }
  s.network = with_defaults(*catalogue.network, decl.network);
  return s;
}

}  // namespace

void apply_setting(CaseSettings& settings, const std::string& key, const Value& value) {
  auto dot = key.find('.');
  if (dot == std::string::npos) {
    settings.params[key] = value;
    return;
  }
  std::string head = key.substr(0, dot), name = key.substr(dot + 1);
  if (head == "params")
    settings.params[name] = value;
  else if (head == "network")
    settings.network[name] = value;
  else
    settings.knobs[head][name] = value;
}

CaseSettings apply_mutant(CaseSettings settings, const MutantDecl& mutant) {
  for (const auto& [role, knobs] : mutant.knobs)
    for (const auto& [k, v] : knobs) settings.knobs[role][k] = v;
  for (const auto& [k, v] : mutant.params) settings.params[k] = v;
  for (const auto& [k, v] : mutant.network) settings.network[k] = v;
  return settings;
}

std::vector<Case> expand_cases(const std::vector<std::unique_ptr<SuiteFile>>& suites,
                               const Catalogue& catalogue) {
  std::vector<Case> cases;
  for (const auto& suite : suites) {
    for (const auto& decl : suite->cases) {
      const PluginInfo* plugin = find_plugin(catalogue, decl.plugin);
      if (!plugin) continue;
      const CaseSettings base = base_settings(decl, *plugin, catalogue);
      // An odometer over the axes; the last axis turns fastest.
      std::vector<std::size_t> index(decl.matrix.size(), 0);
      while (true) {
        Case c{suite.get(), &decl, base};
        std::string suffix;
        for (std::size_t a = 0; a < decl.matrix.size(); ++a) {
          const auto& axis = decl.matrix[a];
          apply_setting(c.settings, axis.key, axis.values[index[a]]);
          if (suite_detail::is_network_axis(axis.key))
            c.network_point = c.network_point * axis.values.size() + index[a];
          suffix += (suffix.empty() ? "" : ",") + axis.key + "=" + format_bare(axis.values[index[a]]);
        }
        if (!suffix.empty()) c.settings.id += "[" + suffix + "]";
        cases.push_back(std::move(c));
        std::size_t a = decl.matrix.size();
        while (a > 0 && ++index[a - 1] == decl.matrix[a - 1].values.size()) index[--a] = 0;
        if (a == 0) break;
      }
    }
  }
  // A matrix can repeat a value ([1, 1]) or spell an id another case has.
  std::map<std::string, const Case*> seen;
  std::vector<Diagnostic> problems;
  for (const auto& c : cases) {
    auto [it, fresh] = seen.emplace(c.id(), &c);
    if (!fresh)
      problems.push_back({c.decl->pos, "case id '" + c.id() + "' comes out twice (first from " +
                                           it->second->decl->pos.str() + ")"});
  }
  if (!problems.empty()) throw InputError(std::move(problems));
  return cases;
}

}  // namespace conform
