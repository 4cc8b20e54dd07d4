// Printing the check catalogue for people, tools and docs/checks.md.
#include "cli/checks_command.hpp"

#include "cli/settings_markdown.hpp"

#include "check/scenario_need.hpp"
#include "run/record_json.hpp"
#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace conform {
namespace {

const Check& check_named(const CheckRegistry& registry, const std::string& name) { return *registry.find(name); }

std::string markdown_param(const ValueSpec& p) {
  std::string type = to_string(p.type);
  if (!p.one_of.empty()) type = fmt::format("{}", fmt::join(p.one_of, " | "));
  if (p.min || p.max) type += ", " + range_text(p);
  const std::string fallback = p.default_value ? "default " + format_toml(*p.default_value) : "required";
  return fmt::format("`{}` ({}, {}): {}", p.name, type, fallback, p.doc);
}

nlohmann::json param_json(const ValueSpec& p) {
  nlohmann::json j{{"name", p.name}, {"type", to_string(p.type)}, {"doc", p.doc}};
  if (p.default_value) j["default"] = to_json(*p.default_value);
  if (!p.one_of.empty()) j["one_of"] = p.one_of;
  if (p.min) j["min"] = *p.min;
  if (p.max) j["max"] = *p.max;
  if (p.range) {
    j["min"] = p.range->min;
    j["max"] = p.range->max;
    if (p.range->min_excluded) j["min_excluded"] = true;
  }
  return j;
}

}  // namespace

CLI::App* add_checks_command(CLI::App& app, ChecksCommandOptions& options) {
  auto* cmd = app.add_subcommand("checks", "list the check catalogue: name, transport, level, RFC source, "
                                           "summary and parameters of every check a suite can name");
  auto* json = cmd->add_flag("--json", options.json, "print the catalogue as JSON for tools");
  cmd->add_flag("--markdown", options.markdown, "print the tables of docs/checks.md")->excludes(json);
  return cmd;
}

std::string checks_json(const CheckRegistry& registry) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& name : registry.names()) {
    const Check& c = check_named(registry, name);
    nlohmann::json params = nlohmann::json::array();
    for (const ValueSpec& p : c.params()) params.push_back(param_json(p));
    nlohmann::json scenario_params = nlohmann::json::array();
    for (const auto& [param, part] : c.scenario_params())
      scenario_params.push_back({{"name", param}, {"carries", std::string(to_string(part))}});
    out.push_back({{"name", name},
                   {"transport", c.transport().empty() ? std::string("any") : c.transport()},
                   {"level", std::string(to_string(c.level()))},
                   {"rfc", c.rfc()},
                   {"summary", c.summary()},
                   {"params", params},
                   {"scenario_params", scenario_params},
                   {"vantage", c.vantage_need() ? nlohmann::json{{"at", c.vantage_need()->at},
                                                                 {"elsewhere", c.vantage_need()->elsewhere}}
                                                : nlohmann::json()}});
  }
  return out.dump(2) + "\n";
}

namespace {

// "`max_ms`, `min_ms` (a bound of the case's simulated path)": the
// parameters of `c` that carry its case's scenario, by what they carry;
// empty when it has none.
std::string scenario_params_text(const Check& c) {
  std::vector<std::pair<ScenarioPart, std::string>> named;
  for (const auto& [param, part] : c.scenario_params()) named.emplace_back(part, fmt::format("`{}`", param));
  std::vector<std::string> parts;
  for (const auto& [part, params] : group_by_part(named))
    parts.push_back(fmt::format("{} ({})", fmt::join(params, ", "), to_string(part)));
  return fmt::format("{}", fmt::join(parts, "; "));
}

// Which checks judge captures made elsewhere, and which of their parameters
// make an instance NOT APPLICABLE there (docs/offline.md).
std::string offline_markdown(const CheckRegistry& registry) {
  std::string out =
      "\n### Offline\n\nOn a capture made elsewhere (`conform check`) every check runs; an instance whose "
      "expect sets one of these parameters to other than its default is NOT APPLICABLE, since the capture never "
      "played the case's scenario (unless the expect says `applies_offline = true`).\n\n"
      "| check | NOT APPLICABLE offline when the expect sets |\n|---|---|\n";
  for (const auto& name : registry.names()) {
    const std::string params = scenario_params_text(check_named(registry, name));
    out += fmt::format("| `{}` | {} |\n", name, params.empty() ? std::string("nothing: applies to any capture")
                                                                 : markdown_cell(params));
  }
  return out;
}

// Which checks judge what an endpoint knew, where that shows, and how a
// capture taken elsewhere is judged (docs/offline.md, "Vantage").
std::string vantage_markdown(const CheckRegistry& registry) {
  std::string out =
      "\n### Vantage\n\nChecks that judge what an endpoint knew, where a capture shows it, and what they do with "
      "a capture taken elsewhere (`conform check` infers where, or `--vantage` says). Other checks read only what "
      "any capture shows.\n\n| check | needs a capture at | a capture taken elsewhere |\n|---|---|---|\n";
  for (const auto& name : registry.names())
    if (const auto need = check_named(registry, name).vantage_need())
      out += fmt::format("| `{}` | {} | {} |\n", name, markdown_cell(need->at), markdown_cell(need->elsewhere));
  return out;
}

}  // namespace

std::string checks_markdown(const CheckRegistry& registry) {
  std::string out;
  for (const std::string transport : {"QUIC", "TCP", "UDP", ""}) {
    const auto names = registry.names();
    if (std::none_of(names.begin(), names.end(),
                     [&](const std::string& n) { return check_named(registry, n).transport() == transport; }))
      continue;
    if (!out.empty()) out += "\n";
    out += fmt::format("### {} checks\n\n", transport.empty() ? "Any transport's" : transport);
    out += "| check | level | source | parameters | passes when |\n|---|---|---|---|---|\n";
    for (const auto& name : names) {
      const Check& c = check_named(registry, name);
      if (c.transport() != transport) continue;
      std::vector<std::string> params;
      for (const ValueSpec& p : c.params()) params.push_back(markdown_param(p));
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", name, to_string(c.level()), markdown_cell(c.rfc()),
                         params.empty() ? std::string("none") : markdown_cell(fmt::format("{}", fmt::join(params, "; "))),
                         markdown_cell(c.summary()));
    }
  }
  return out + offline_markdown(registry) + vantage_markdown(registry);
}

int command_checks(const ChecksCommandOptions& options, const CheckRegistry& registry) {
  if (options.json) {
    fmt::print("{}", checks_json(registry));
    return 0;
  }
  if (options.markdown) {
    fmt::print("{}", checks_markdown(registry));
    return 0;
  }
  for (const auto& name : registry.names()) {
    const Check& c = check_named(registry, name);
    fmt::print("{}  {}  {}  {}\n  {}\n", name, c.transport().empty() ? "any" : c.transport(), to_string(c.level()),
               c.rfc(), c.summary());
    for (const ValueSpec& p : c.params()) fmt::print("    {}\n", describe(p));
    if (const std::string scenario = scenario_params_text(c); !scenario.empty())
      fmt::print("    NOT APPLICABLE to captures made elsewhere when set: {}\n", scenario);
    if (const auto need = c.vantage_need())
      fmt::print("    needs a capture at {}; from elsewhere: {}\n", need->at, need->elsewhere);
  }
  fmt::print("{} checks\n", registry.names().size());
  return 0;
}

}  // namespace conform
