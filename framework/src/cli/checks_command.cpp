// Printing the check catalogue for people, tools and docs/checks.md.
#include "cli/checks_command.hpp"

#include "cli/settings_markdown.hpp"

#include "run/record_json.hpp"
#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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
    out.push_back({{"name", name},
                   {"transport", c.transport().empty() ? std::string("any") : c.transport()},
                   {"level", std::string(to_string(c.level()))},
                   {"rfc", c.rfc()},
                   {"summary", c.summary()},
                   {"params", params}});
  }
  return out.dump(2) + "\n";
}

std::string checks_markdown(const CheckRegistry& registry) {
  std::string out;
  for (const std::string transport : {"QUIC", "TCP", ""}) {
    out += fmt::format("### {} checks\n\n", transport.empty() ? "Any transport's" : transport);
    out += "| check | level | source | parameters | passes when |\n|---|---|---|---|---|\n";
    for (const auto& name : registry.names()) {
      const Check& c = check_named(registry, name);
      if (c.transport() != transport) continue;
      std::vector<std::string> params;
      for (const ValueSpec& p : c.params()) params.push_back(markdown_param(p));
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", name, to_string(c.level()), markdown_cell(c.rfc()),
                         params.empty() ? std::string("none") : markdown_cell(fmt::format("{}", fmt::join(params, "; "))),
                         markdown_cell(c.summary()));
    }
    out += transport.empty() ? "" : "\n";
  }
  return out;
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
  }
  fmt::print("{} checks\n", registry.names().size());
  return 0;
}

}  // namespace conform
