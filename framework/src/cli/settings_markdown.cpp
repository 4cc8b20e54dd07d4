// Markdown tables of the network settings and the plugins' knobs.
#include "cli/settings_markdown.hpp"

#include "common/input_error.hpp"
#include "common/value_range.hpp"
#include "net/net_config.hpp"
#include "suite/value_format.hpp"

#include <fmt/format.h>

namespace conform {
namespace {

constexpr const char* kKnobsPrefix = "knobs-";

std::string code(const std::string& text) { return text.empty() ? "" : "`" + markdown_cell(text) + "`"; }

std::string default_text(const ValueSpec& spec) {
  return spec.default_value ? code(format_toml(*spec.default_value)) : "required";
}

// The bounds, or the values a string may take.
std::string allowed_text(const ValueSpec& spec) {
  if (spec.one_of.empty()) return range_text(spec);
  std::string out;
  for (const auto& v : spec.one_of) out += (out.empty() ? "" : " \\| ") + code(v);
  return out;
}

// One row a key; a key one direction sets apart (`server_mtu`) shares a row
// with its twin, `client_mtu`, under the base key's doc.
std::string network_table() {
  std::string out = "| key | type | default | unit | range | meaning |\n|---|---|---|---|---|---|\n";
  for (const NetSetting& s : net_settings()) {
    if (s.sender == "client") continue;
    std::string name = code(s.spec.name), doc = s.spec.doc, fallback = default_text(s.spec);
    if (s.sender == "server") {
      name += ", " + code("client_" + s.base_key);
      doc = s.spec.doc.substr(0, s.spec.doc.find(" — for what the server sends only")) +
            " — for one direction only: `server_` what the server sends, `client_` what each client sends";
      fallback = s.base_key == "delay_ms" ? "half of `rtt_ms`" : "as " + code(s.base_key);
    }
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", name, to_string(s.spec.type), fallback, s.unit,
                       allowed_text(s.spec), markdown_cell(doc));
  }
  return out;
}

std::string selector_table() {
  std::string out = "| part | example | meaning | reads the packets |\n|---|---|---|---|\n";
  for (const SelectorForm& f : selector_forms())
    out += fmt::format("| {} | {} | {} | {} |\n", code(f.part), code(f.example), markdown_cell(f.meaning),
                       f.reads_contents ? "yes: with the run's keys (the relay, with the key logs the programs write as they go)" : "");
  return out;
}

std::string knob_table(const PluginInfo& plugin) {
  std::string out = "| knob | type | default | range or values | meaning |\n|---|---|---|---|---|\n";
  for (const ValueSpec& k : plugin.knobs)
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code(k.name), to_string(k.type), default_text(k),
                       allowed_text(k), markdown_cell(k.doc));
  return out;
}

}  // namespace

std::vector<std::string> markdown_sections(const std::vector<const PluginInfo*>& plugins) {
  std::vector<std::string> names = {"network", "selectors"};
  for (const PluginInfo* p : plugins)
    if (!p->knobs.empty()) names.push_back(kKnobsPrefix + p->name);
  return names;
}

std::string settings_markdown(const std::string& name, const std::vector<const PluginInfo*>& plugins) {
  if (name == "network") return network_table();
  if (name == "selectors") return selector_table();
  for (const PluginInfo* p : plugins)
    if (!p->knobs.empty() && name == kKnobsPrefix + p->name) return knob_table(*p);
  throw InputError(SourcePos{"--markdown"}, "no section '" + name + "'; sections: " +
                           fmt::format("{}", fmt::join(markdown_sections(plugins), ", ")));
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch >= 0 && ch < 0x20) ch = ' ';  // a line break would end the row
    if (ch == '|' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace conform
