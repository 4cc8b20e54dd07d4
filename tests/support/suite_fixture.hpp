// Helpers for the suite loader's tests: hand-made plugin declarations, a
// catalogue built from them, and parsing TOML text written to a scratch folder.
#pragma once

#include "check/registry.hpp"
#include "net/net_config.hpp"
#include "suite/loader.hpp"
#include "suite/value_format.hpp"
#include "support/support.hpp"

#include <conform/plugin.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace conform::test {

/// "quic": plays client and server; scenario "fanout" has a parameter of
/// every type (`cc` restricted by one_of, `label` without a default),
/// "handshake" none. Knobs of every type; `initial_rtt_ms` in (0, 10000].
inline const PluginInfo& quic_plugin() {
  static const PluginInfo info = [] {
    PluginInfo p;
    p.name = "quic";
    p.version = "0.1";
    p.roles = {"client", "server"};
    p.scenarios = {
        {"fanout",
         "streams",
         {
             {"frames", ValueType::integer, Value{std::int64_t{100}}, "frames to send"},
             {"cc", ValueType::string, Value{std::string("newreno")}, "congestion controller",
              {"newreno", "cubic", "bbr"}},
             {"pacing_gain", ValueType::floating, Value{1.25}, "pacing gain"},
             {"tags", ValueType::string_list, Value{std::vector<std::string>{"t0"}}, "tags"},
             {"zero_rtt", ValueType::boolean, Value{false}, "use 0-RTT"},
             {"label", ValueType::string, std::nullopt, "a parameter without default"},
         }},
        {"handshake", "just a handshake", {}},
    };
    p.knobs = {
        {"initial_mtu", ValueType::integer, Value{std::int64_t{1200}}, "bytes"},
        {"emit_max_streams", ValueType::boolean, Value{true}, "send MAX_STREAMS"},
        {"initial_rtt_ms", ValueType::floating, Value{333.0}, "ms", {}, {}, {}, FloatRange{0, 10000, true}},
        {"alpn", ValueType::string_list, Value{std::vector<std::string>{"h3"}}, "ALPN"},
    };
    return p;
  }();
  return info;
}

/// "tcp": a second plugin, so messages listing plugins list two.
inline const PluginInfo& tcp_plugin() {
  static const PluginInfo info = [] {
    PluginInfo p;
    p.name = "tcp";
    p.version = "0.1";
    p.roles = {"client", "server"};
    p.scenarios = {{"bulk", "bulk transfer", {}}};
    return p;
  }();
  return info;
}

/// quic and tcp, the built-in checks and the network keys.
inline Catalogue test_catalogue() {
  return Catalogue{{&quic_plugin(), &tcp_plugin()}, &CheckRegistry::builtin(), &network_spec()};
}

/// `text` without its first character when that is a newline, so a raw
/// string literal may start on the line after `R"(` and still have its
/// first TOML line be line 1.
inline std::string toml_text(const std::string& text) {
  return !text.empty() && text.front() == '\n' ? text.substr(1) : text;
}

/// A file parsed by parse_suite_file.
struct Parsed {
  std::string path;
  std::unique_ptr<SuiteFile> suite;
  std::vector<Diagnostic> problems;
  /// The problems as `file:line:col: message` lines.
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    for (const auto& d : problems) out.push_back(d.str());
    return out;
  }
};

/// Writes `text` (see toml_text) to `<scratch dir>/<file>` and parses it.
inline Parsed parse_text(const std::string& dir, const std::string& file, const std::string& text,
                         const Catalogue& catalogue = test_catalogue()) {
  Parsed p;
  p.path = write_file(dir + "/" + file, toml_text(text));
  p.suite = parse_suite_file(p.path, catalogue, p.problems);
  return p;
}

/// A value with its type, so one comparison checks both: `integer 200`,
/// `float 2.5`, `string "cubic"`, `array of strings ["a", "b"]`.
inline std::string describe(const Value& v) { return to_string(type_of(v)) + " " + format_toml(v); }

/// Every entry of `values` as `name=<describe>`, in name order, joined by "; ".
inline std::string describe(const ValueMap& values) {
  std::string out;
  for (const auto& [name, v] : values) out += (out.empty() ? "" : "; ") + name + "=" + describe(v);
  return out;
}

/// The diagnostics of `e` as `file:line:col: message` lines.
inline std::vector<std::string> lines_of(const InputError& e) {
  std::vector<std::string> out;
  for (const auto& d : e.diagnostics()) out.push_back(d.str());
  return out;
}

/// The first six lines of a valid case; line 7 is the first a test adds.
inline std::string case_head(const std::string& id, const std::string& plugin = "quic",
                      const std::string& scenario = "fanout") {
  return "[[case]]\n"
         "id = \"" + id + "\"\n"
         "rfc = \"9000§4.6\"\n"
         "requirement = \"it MUST hold\"\n"
         "plugin = \"" + plugin + "\"\n"
         "scenario = \"" + scenario + "\"\n";
}

/// A valid expect block of three lines.
inline const std::string kExpect =
    "  [[case.expect]]\n"
    "  check = \"datagrams_captured\"\n"
    "  vantage = \"client\"\n";

/// `lines` in order, to compare problems whatever order they come in.
inline std::vector<std::string> sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// `path:line:col: message`.
inline std::string at(const std::string& path, int line, int column, const std::string& message) {
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

}  // namespace conform::test
