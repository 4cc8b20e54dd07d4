// Suite files: discovery, the `[suite]` table, duplicate ids.
#include "suite/loader.hpp"

#include "suite/case_parser.hpp"
#include "suite/rule_from.hpp"
#include "suite/toml_file.hpp"
#include "suite/toml_value.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <map>
#include <set>
#include <tuple>

namespace conform {
namespace fs = std::filesystem;
using suite_detail::Problems;

std::vector<std::string> discover_suite_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
      continue;
    }
    if (ec && ec != std::errc::no_such_file_or_directory)
      throw InputError({path}, "cannot read: " + ec.message());
    if (!fs::is_directory(path, ec)) throw InputError({path}, "no such suite file or folder");
    std::vector<std::string> found;
    try {
      for (const auto& entry : fs::recursive_directory_iterator(path))
        if (entry.path().extension() == ".toml" && entry.is_regular_file())
          found.push_back(entry.path().string());
    } catch (const fs::filesystem_error& e) {
      throw InputError({e.path1().string()}, "cannot read: " + e.code().message());
    }
    if (found.empty()) throw InputError({path}, "no suite files (*.toml) in this folder");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  // A file named twice (itself and through its folder) is loaded once.
  std::set<fs::path> seen;
  std::erase_if(files, [&](const std::string& f) {
    std::error_code ec;
    return !seen.insert(fs::weakly_canonical(f, ec)).second;
  });
  return files;
}

namespace {

void read_suite_table(const toml::table& root, SuiteFile& suite, Problems& problems) {
  const toml::node* node = root.get("suite");
  if (!node) return;
  const toml::table* table = node->as_table();
  if (!table) {
    problems.add(node->source(), "'suite' must be a table");
    return;
  }
  for (const auto& [key, value] : *table) {
    const std::string name(key.str());
    std::string* field = name == "title" ? &suite.title : name == "rfc" ? &suite.rfc : nullptr;
    if (!field) {
      problems.add(key.source(), "unknown key 'suite." + name + "'" +
                                     did_you_mean(name, {"title", "rfc"}));
      continue;
    }
    if (auto s = value.as_string())
      *field = s->get();
    else
      problems.add(value.source(), "'suite." + name + "' must be a string, not " +
                                       suite_detail::toml_type_name(value));
  }
}

// Every value the case gives `knob` in some role: set in the case or a
// mutant, taken by a matrix axis `role.knob`, or the knob's default where the
// case leaves it unset.
std::set<std::string> values_of(const CaseDecl& c, const PluginInfo& plugin, const std::string& knob) {
  std::set<std::string> values;
  const auto add = [&](const Value& v) {
    if (const auto* text = std::get_if<std::string>(&v)) values.insert(*text);
  };
  const auto set_in = [&](const std::map<std::string, ValueMap>& knobs, const std::string& role) {
    const auto side = knobs.find(role);
    if (side == knobs.end() || !side->second.contains(knob)) return false;
    add(side->second.at(knob));
    return true;
  };
  const ValueSpec* spec = suite_detail::find_spec(plugin.knobs, knob);
  for (const auto& role : plugin.roles) {
    bool chosen = set_in(c.knobs, role);
    for (const auto& m : c.mutants) set_in(m.knobs, role);
    for (const auto& axis : c.matrix)
      if (axis.key == role + "." + knob) {
        for (const auto& v : axis.values) add(v);
        chosen = true;
      }
    if (!chosen && spec && spec->default_value) add(*spec->default_value);
  }
  return values;
}

bool refuses(const PluginProblem& q, const CaseDecl& c, const PluginInfo& plugin) {
  if (q.knob.empty()) return true;
  return !q.value.empty() && values_of(c, plugin, q.knob).contains(q.value);
}

// A plugin whose own files are wrong cannot run the cases those files
// concern: their problems are the suite's, once each; the problems no case
// here meets are `warnings`.
void add_plugin_problems(const std::vector<std::unique_ptr<SuiteFile>>& suites, const Catalogue& catalogue,
                         std::vector<Diagnostic>& problems, std::vector<Diagnostic>& warnings) {
  // Each case refused for one knob value, said once at the case, so that a
  // user sees which case brought the problems in.
  std::set<std::pair<const CaseDecl*, std::string>> told;
  for (const PluginInfo* p : catalogue.plugins)
    for (const PluginProblem& q : p->problems) {
      bool named = false, refused = false;
      for (const auto& suite : suites)
        for (const auto& c : suite->cases) {
          if (c.plugin != p->name) continue;
          named = true;
          if (!refuses(q, c, *p)) continue;
          refused = true;
          if (!q.knob.empty() && told.emplace(&c, q.value).second)
            problems.push_back({c.pos, "case '" + c.id + "' is refused: a role's " + q.knob + " is \"" + q.value +
                                           "\" (set, by a matrix or a mutant, or by default), which has problems"});
        }
      if (named)
        (refused ? problems : warnings)
            .push_back({SourcePos{q.file, q.line, q.column}, "plugin '" + p->name + "': " + q.message});
    }
}

}  // namespace

std::unique_ptr<SuiteFile> parse_suite_file(const std::string& path, const Catalogue& catalogue,
                                            std::vector<Diagnostic>& diagnostics, suite_detail::RuleSources* rules) {
  auto suite = std::make_unique<SuiteFile>();
  suite->path = path;
  Problems problems(path);
  auto parsed = suite_detail::parse_toml_file(path, problems);
  if (!parsed) {
    diagnostics.insert(diagnostics.end(), problems.list().begin(), problems.list().end());
    return suite;
  }
  const toml::table& root = *parsed;
  for (const auto& [key, value] : root) {
    const std::string name(key.str());
    if (name != "suite" && name != "case")
      problems.add(key.source(), "unknown top-level key '" + name + "'" +
                                     did_you_mean(name, {"suite", "case"}));
  }
  read_suite_table(root, *suite, problems);
  if (const toml::node* cases = root.get("case")) {
    if (const toml::array* list = cases->as_array(); list && list->is_array_of_tables()) {
      suite_detail::RuleSources own;
      suite_detail::RuleSources& sources = rules ? *rules : own;
      for (const auto& node : *list)
        if (auto c = suite_detail::parse_case(*node.as_table(), catalogue, problems,
                                              sources.rule_of(*node.as_table(), path, problems)))
          suite->cases.push_back(std::move(*c));
    } else {
      problems.add(cases->source(), "'case' must be an array of tables: write [[case]]");
    }
  }
  if (suite->cases.empty() && problems.list().empty())
    problems.add(SourcePos{path}, "no [[case]] in this suite file");
  diagnostics.insert(diagnostics.end(), problems.list().begin(), problems.list().end());
  return suite;
}

std::vector<std::unique_ptr<SuiteFile>> load_suites(const std::vector<std::string>& paths,
                                                    const Catalogue& catalogue, std::vector<Diagnostic>* warnings) {
  std::vector<std::unique_ptr<SuiteFile>> suites;
  std::vector<Diagnostic> problems;
  suite_detail::RuleSources rules;
  for (const auto& file : discover_suite_files(paths))
    suites.push_back(parse_suite_file(file, catalogue, problems, &rules));
  std::map<std::string, SourcePos> first_seen;
  for (const auto& suite : suites)
    for (const auto& c : suite->cases) {
      auto [it, fresh] = first_seen.emplace(c.id, c.pos);
      if (!fresh)
        problems.push_back(
            {c.pos, "duplicate case id '" + c.id + "' (first at " + it->second.str() + ")"});
    }
  std::vector<Diagnostic> unmet;
  add_plugin_problems(suites, catalogue, problems, unmet);
  // toml++ visits keys by name; users read problems best in file order.
  // A rule several cases take is checked with each: its problems are told
  // once.
  for (auto* list : {&problems, &unmet}) {
    std::stable_sort(list->begin(), list->end(), [](const Diagnostic& a, const Diagnostic& b) {
      return std::tie(a.pos.file, a.pos.line, a.pos.column) < std::tie(b.pos.file, b.pos.line, b.pos.column);
    });
    std::set<std::string> told;
    std::erase_if(*list, [&](const Diagnostic& d) { return !told.insert(d.str()).second; });
  }
  if (warnings) warnings->insert(warnings->end(), unmet.begin(), unmet.end());
  if (!problems.empty()) throw InputError(std::move(problems));
  return suites;
}

}  // namespace conform
