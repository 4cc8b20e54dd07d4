// One `[[case]]`: fields, knobs per role, network, matrix, expect, mutant.
#include "suite/case_parser.hpp"

#include "suite/check_selector.hpp"
#include "suite/network_points.hpp"
#include "suite/rule_from.hpp"
#include "suite/value_format.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace conform::suite_detail {
namespace {

const std::vector<std::string> kCaseKeys = {
    "id",     "summary", "rfc",    "requirement", "plugin", "scenario", "params",
    "network", "matrix", "seeds", "timeout",     "xfail",  "expect",   "mutant", "no_mutant", "rule_from"};

// Roles a case may name; one the plugin does not play makes the case
// unsupported rather than invalid.
const std::vector<std::string> kWellKnownRoles = {"client", "server", "relay", "publisher",
                                                  "subscriber"};

// Bounds that keep a typo from asking for a run of years or of millions of
// cases.
constexpr std::int64_t kMaxSeeds = 10'000;
constexpr std::size_t kMaxMatrixPoints = 10'000;
constexpr double kMaxTimeoutSeconds = 1e6;

const std::vector<std::string> kBcp14Levels = {"MUST", "SHOULD", "MAY", "REQUIRED",
                                               "RECOMMENDED", "OPTIONAL"};

// Whether `text` holds a BCP 14 keyword as a whole word ("MUSTARD" does not)
// or says "no keyword": RFC 9000 §4.6 states what a good receiver does with
// MAX_STREAMS without one, and a case that judges only that must say so.
bool names_level(const std::string& text) {
  if (text.find("no keyword") != std::string::npos) return true;
  std::string word;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    unsigned char ch = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
    if (std::isalpha(ch)) {
      word += static_cast<char>(ch);
      continue;
    }
    if (std::find(kBcp14Levels.begin(), kBcp14Levels.end(), word) != kBcp14Levels.end()) return true;
    word.clear();
  }
  return false;
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// What parse_case needs while it walks one case table.
struct CaseWalk {
  const toml::table& table;
  const Catalogue& catalogue;
  Problems& problems;
  const PluginInfo* plugin = nullptr;
  const ScenarioSpec* scenario = nullptr;
  // The case rule_from names, which gives the keys of kRuleKeys.
  const toml::table* rule = nullptr;
};

// The table that gives `key`: the rule's case for the keys a rule gives.
const toml::table& owner(const CaseWalk& cx, std::string_view key) {
  if (cx.rule && std::find(std::begin(kRuleKeys), std::end(kRuleKeys), key) != std::end(kRuleKeys)) return *cx.rule;
  return cx.table;
}

// The case's node for `key`, from its rule's case for the keys a rule gives.
const toml::node* get(const CaseWalk& cx, std::string_view key) { return owner(cx, key).get(key); }

std::optional<std::string> read_string(CaseWalk& cx, const char* key, bool required) {
  const toml::node* node = get(cx, key);
  if (!node) {
    if (required) cx.problems.add(owner(cx, key).source(), std::string("case needs '") + key + "'");
    return std::nullopt;
  }
  if (auto s = node->as_string()) {
    if (required && s->get().empty())
      cx.problems.add(node->source(), std::string("'") + key + "' must not be empty");
    return s->get();
  }
  cx.problems.add(node->source(),
                  std::string("'") + key + "' must be a string, not " + toml_type_name(*node));
  return std::nullopt;
}

const toml::table* read_table(CaseWalk& cx, const toml::node& node, const std::string& what) {
  if (auto t = node.as_table()) return t;
  cx.problems.add(node.source(), "'" + what + "' must be a table, not " + toml_type_name(node));
  return nullptr;
}

void read_citation(CaseWalk& cx, CaseDecl& c) {
  c.rfc = read_string(cx, "rfc", true).value_or("");
  if (const toml::node* node = get(cx, "rfc"); node && !c.rfc.empty()) {
    auto mark = c.rfc.find("§");
    bool digits = mark != std::string::npos && mark > 0 &&
                  std::all_of(c.rfc.begin(), c.rfc.begin() + mark,
                              [](unsigned char ch) { return std::isdigit(ch) != 0; });
    if (!digits || mark + 2 >= c.rfc.size())
      cx.problems.add(node->source(), "'rfc' must read like 9000§4.6 (RFC number, §, section)");
  }
  c.requirement = read_string(cx, "requirement", true).value_or("");
  if (const toml::node* node = get(cx, "requirement"); node && !c.requirement.empty()) {
    if (!names_level(c.requirement))
      cx.problems.add(node->source(),
                      "'requirement' must name its level as a word: MUST, SHOULD or MAY "
                      "(REQUIRED, RECOMMENDED, OPTIONAL), or say 'no keyword' where the RFC gives none");
  }
}

void resolve_plugin(CaseWalk& cx, CaseDecl& c) {
  auto name = read_string(cx, "plugin", true);
  if (!name || name->empty()) return;
  c.plugin = *name;
  std::vector<std::string> names;
  for (const auto* p : cx.catalogue.plugins) {
    names.push_back(p->name);
    if (p->name == c.plugin) cx.plugin = p;
  }
  if (cx.plugin) return;
  std::string found = names.empty() ? "none" : "";
  for (const auto& n : names) found += (found.empty() ? "" : ", ") + n;
  cx.problems.add(cx.table.get("plugin")->source(), "unknown plugin '" + c.plugin + "'" +
                                                        did_you_mean(c.plugin, names) +
                                                        "; plugins found: " + found);
}

void resolve_scenario(CaseWalk& cx, CaseDecl& c) {
  auto name = read_string(cx, "scenario", true);
  if (!name || name->empty() || !cx.plugin) return;
  c.scenario = *name;
  std::vector<std::string> names;
  for (const auto& s : cx.plugin->scenarios) {
    names.push_back(s.name);
    if (s.name == c.scenario) cx.scenario = &s;
  }
  if (!cx.scenario)
    cx.problems.add(cx.table.get("scenario")->source(),
                    "plugin '" + c.plugin + "' has no scenario '" + c.scenario + "'" +
                        did_you_mean(c.scenario, names));
}

void read_numbers(CaseWalk& cx, CaseDecl& c) {
  if (const toml::node* node = cx.table.get("seeds")) {
    auto n = node->as_integer();
    if (!n || n->get() < 1 || n->get() > kMaxSeeds)
      cx.problems.add(node->source(), "'seeds' must be an integer from 1 to " +
                                          std::to_string(kMaxSeeds));
    else
      c.seeds = n->get();
  }
  if (const toml::node* node = cx.table.get("timeout")) {
    std::optional<double> t;
    if (auto f = node->as_floating_point()) t = f->get();
    if (auto i = node->as_integer()) t = static_cast<double>(i->get());
    if (!t || !(*t > 0 && *t <= kMaxTimeoutSeconds))
      cx.problems.add(node->source(), "'timeout' must be a number of seconds above 0 and at most " +
                                          std::to_string(static_cast<long>(kMaxTimeoutSeconds)));
    else
      c.timeout_s = t;
  }
}

// A role table, `params` or `network` in a case or mutant; returns false if
// `key` is none of these.
bool read_settings_table(CaseWalk& cx, const std::string& key, const toml::node& node,
                         std::map<std::string, ValueMap>& knobs, ValueMap& params,
                         ValueMap& network, std::map<std::string, SourcePos>& network_pos,
                         std::string* unsupported) {
  if (key == "params") {
    if (auto t = read_table(cx, node, key); t && cx.scenario)
      params = read_values(*t, cx.scenario->params,
                           "parameter of scenario '" + cx.scenario->name + "':", cx.problems);
    return true;
  }
  if (key == "network") {
    if (auto t = read_table(cx, node, key)) {
      network = read_values(*t, *cx.catalogue.network, "network setting", cx.problems);
      // The values are read into link settings with the matrix and mutants
      // applied (expand_cases), whose problems point here.
      for (const auto& [k, n] : *t) network_pos[std::string(k.str())] = cx.problems.at(n.source());
    }
    return true;
  }
  bool plays = cx.plugin && contains(cx.plugin->roles, key);
  if (plays) {
    if (auto t = read_table(cx, node, key))
      knobs[key] = read_values(*t, cx.plugin->knobs,
                               "knob of plugin '" + cx.plugin->name + "':", cx.problems);
    return true;
  }
  if (contains(kWellKnownRoles, key)) {
    // In a case this makes the case unsupported; a mutant of a case the
    // plugin can run must not name a role it cannot set.
    if (cx.plugin && !unsupported)
      cx.problems.add(node.source(), "mutant sets knobs of role '" + key + "', which plugin '" +
                                         cx.plugin->name + "' does not play");
    else if (cx.plugin && unsupported->empty())
      *unsupported = "plugin '" + cx.plugin->name + "' plays no '" + key + "' role";
    return true;
  }
  return false;
}

std::vector<std::string> allowed_keys(const CaseWalk& cx, std::vector<std::string> keys) {
  if (cx.plugin) keys.insert(keys.end(), cx.plugin->roles.begin(), cx.plugin->roles.end());
  return keys;
}

// The spec of a matrix key: `frames` (a scenario parameter), `params.frames`,
// `client.initial_mtu` (a knob of a role), `network.rtt_ms`.
const ValueSpec* matrix_spec(const CaseWalk& cx, const std::string& key) {
  auto dot = key.find('.');
  if (dot == std::string::npos)
    return cx.scenario ? find_spec(cx.scenario->params, key) : nullptr;
  std::string head = key.substr(0, dot), name = key.substr(dot + 1);
  if (head == "params") return cx.scenario ? find_spec(cx.scenario->params, name) : nullptr;
  if (head == "network") return find_spec(*cx.catalogue.network, name);
  if (cx.plugin && contains(cx.plugin->roles, head)) return find_spec(cx.plugin->knobs, name);
  return nullptr;
}

std::vector<std::string> matrix_candidates(const CaseWalk& cx) {
  std::vector<std::string> out;
  if (cx.scenario) out = spec_names(cx.scenario->params);
  for (const auto& n : spec_names(*cx.catalogue.network)) out.push_back("network." + n);
  if (cx.plugin)
    for (const auto& role : cx.plugin->roles)
      for (const auto& n : spec_names(cx.plugin->knobs)) out.push_back(role + "." + n);
  return out;
}

void read_matrix(CaseWalk& cx, CaseDecl& c) {
  const toml::node* node = cx.table.get("matrix");
  if (!node) return;
  const toml::table* table = read_table(cx, *node, "matrix");
  if (!table || !cx.scenario) return;
  // toml++ keeps a table's keys sorted by name; the axes go in the order they
  // are written, so that the last one written turns fastest.
  std::vector<const toml::key*> keys;
  for (const auto& [key, values] : *table) keys.push_back(&key);
  std::stable_sort(keys.begin(), keys.end(), [](const toml::key* a, const toml::key* b) {
    return a->source().begin < b->source().begin;
  });
  std::set<std::string> axes_seen;
  for (const toml::key* key_ptr : keys) {
    const toml::key& key = *key_ptr;
    const toml::node& values = *table->get(key.str());
    const std::string name(key.str());
    const ValueSpec* spec = matrix_spec(cx, name);
    if (!spec && values.is_table()) {
      cx.problems.add(key.source(), "matrix key '" + name + "' holds a table: quote dotted keys, "
                                        "e.g. \"" + name + ".x\" = [1, 2]");
      continue;
    }
    if (!spec) {
      cx.problems.add(key.source(), "matrix over unknown key '" + name + "'" +
                                        did_you_mean(name, matrix_candidates(cx)));
      continue;
    }
    // `frames` and `params.frames` are one setting.
    const std::string setting = name.rfind("params.", 0) == 0 ? name.substr(7) : name;
    if (!axes_seen.insert(setting).second) {
      cx.problems.add(key.source(), "matrix sets '" + setting + "' twice");
      continue;
    }
    const toml::array* list = values.as_array();
    if (!list || list->empty()) {
      cx.problems.add(values.source(), "matrix '" + name + "' must be a non-empty array");
      continue;
    }
    MatrixAxis axis{name, {}, {}};
    for (const auto& item : *list)
      if (auto v = to_value(item, *spec, "matrix value of '" + name + "'", cx.problems)) {
        axis.values.push_back(*v);
        axis.positions.push_back(cx.problems.at(item.source()));
      }
    c.matrix.push_back(std::move(axis));
  }
  std::size_t points = 1;
  for (const auto& axis : c.matrix) points = std::min(points * axis.values.size(), kMaxMatrixPoints + 1);
  if (points > kMaxMatrixPoints)
    cx.problems.add(node->source(), "matrix expands to more than " + std::to_string(kMaxMatrixPoints) +
                                        " cases");
}

// `level`, `may_be_unexercised` and `applies_offline`: how the case counts
// the check's verdict.
void read_expect_verdict_keys(CaseWalk& cx, const toml::table& table, ExpectDecl& e) {
  if (const toml::node* node = table.get("level")) {
    const auto* text = node->as_string();
    const auto level = text ? parse_requirement_level(text->get()) : std::nullopt;
    if (level) e.level = *level;
    else cx.problems.add(node->source(), "'level' must be \"MUST\", \"SHOULD\" or \"expectation\"");
  }
  if (const toml::node* node = table.get("may_be_unexercised")) {
    if (const auto* flag = node->as_boolean()) e.may_be_unexercised = flag->get();
    else cx.problems.add(node->source(), "'may_be_unexercised' must be a boolean");
  }
  if (const toml::node* node = table.get("applies_offline")) {
    if (const auto* flag = node->as_boolean()) e.applies_offline = flag->get();
    else cx.problems.add(node->source(), "'applies_offline' must be a boolean");
  }
}

std::optional<ExpectDecl> read_expect(CaseWalk& cx, const toml::table& table) {
  ExpectDecl e;
  e.pos = cx.problems.at(table.source());
  const toml::node* check_node = table.get("check");
  auto name = check_node ? check_node->as_string() : nullptr;
  if (!name) {
    cx.problems.add(check_node ? check_node->source() : table.source(),
                    "[[case.expect]] needs 'check', the name of a check (a string)");
    return std::nullopt;
  }
  e.check = name->get();
  e.pos = cx.problems.at(check_node->source());
  const Check* check = cx.catalogue.checks->find(e.check);
  if (!check) {
    cx.problems.add(check_node->source(), "unknown check '" + e.check + "'" +
                                              did_you_mean(e.check, cx.catalogue.checks->names()));
    return std::nullopt;
  }
  e.level = check->level();
  const auto specs = check->params();
  // Read from `table` itself, not a copy: toml++ does not copy a node's
  // source position, and the problems must point into the file.
  e.params = with_defaults(specs, read_values(table, specs, "parameter of check '" + e.check + "':",
                                              cx.problems, {"check", "level", "may_be_unexercised", "applies_offline"}));
  read_expect_verdict_keys(cx, table, e);
  if (const auto problem = check->param_problem(e.params)) {
    const toml::node* at = table.get(problem->param);
    cx.problems.add(at ? at->source() : check_node->source(),
                    "parameter '" + problem->param + "' of check '" + e.check + "': " + problem->why);
  }
  for (const auto& spec : specs)
    if (!e.params.count(spec.name) && !table.contains(spec.name))
      cx.problems.add(check_node->source(),
                      "check '" + e.check + "' needs parameter '" + spec.name + "'");
  return e;
}

std::string mutant_label(const MutantDecl& m) {
  std::string label;
  auto add = [&](const std::string& prefix, const ValueMap& values) {
    for (const auto& [k, v] : values)
      label += (label.empty() ? "" : ", ") + prefix + k + "=" + format_toml(v);
  };
  for (const auto& [role, knobs] : m.knobs) add(role + ".", knobs);
  add("params.", m.params);
  add("network.", m.network);
  return label.empty() ? "no overrides" : label;
}

// Why a `fails` entry names no [[case.expect]] of the case; nullopt when it
// names at least one.
std::optional<std::string> unselected(const std::string& entry, const std::vector<ExpectDecl>& expects) {
  std::string problem;
  const auto selector = parse_check_selector(entry, problem);
  if (!selector) return "'fails' entry '" + entry + "': " + problem;
  std::vector<std::string> expected;
  for (const auto& e : expects) expected.push_back(e.check);
  if (!contains(expected, selector->check))
    return "mutant expects '" + selector->check + "' to fail, but the case has no such [[case.expect]]" +
           did_you_mean(selector->check, expected);
  for (const auto& e : expects)
    if (selects(*selector, e.check, e.params)) return std::nullopt;
  return "'fails' entry '" + entry + "': no [[case.expect]] of '" + selector->check +
         "' has those parameters";
}

std::optional<MutantDecl> read_mutant(CaseWalk& cx, const toml::table& table,
                                      const std::vector<ExpectDecl>& expects) {
  MutantDecl m;
  m.pos = cx.problems.at(table.source());
  const std::size_t problems_before = cx.problems.list().size();
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (name == "fails") continue;
    if (!read_settings_table(cx, name, node, m.knobs, m.params, m.network, m.network_pos, nullptr))
      cx.problems.add(key.source(), "unknown key '" + name + "' in [[case.mutant]]" +
                                        did_you_mean(name, allowed_keys(cx, {"fails", "params",
                                                                             "network"})));
  }
  // A mutant whose every override was refused, or whose plugin is unknown
  // (its role tables cannot be read), has been reported already.
  const bool overrides_refused = cx.problems.list().size() != problems_before || !cx.plugin;
  const toml::node* fails = table.get("fails");
  const toml::array* list = fails ? fails->as_array() : nullptr;
  if (fails && !list) {
    cx.problems.add(fails->source(), "'fails' must be an array of check names, e.g. fails = [\"" +
                                         std::string(fails->is_string() ? fails->as_string()->get() : "check") +
                                         "\"], not " + toml_type_name(*fails));
    return std::nullopt;
  }
  if (!list || list->empty()) {
    cx.problems.add(fails ? fails->source() : table.source(),
                    "[[case.mutant]] needs 'fails', the checks that must fail on it");
    return std::nullopt;
  }
  for (const auto& item : *list) {
    auto s = item.as_string();
    if (!s) {
      cx.problems.add(item.source(), "'fails' must list check names (strings)");
      continue;
    }
    if (auto why = unselected(s->get(), expects)) cx.problems.add(item.source(), *why);
    m.fails.push_back(s->get());
  }
  m.label = mutant_label(m);
  if (m.knobs.empty() && m.params.empty() && m.network.empty() && !overrides_refused)
    cx.problems.add(table.source(), "[[case.mutant]] overrides nothing: it would be the case itself");
  std::set<std::string> named(m.fails.begin(), m.fails.end());
  if (named.size() != m.fails.size())
    cx.problems.add(fails->source(), "'fails' names a check twice");
  return m;
}

template <typename Read>
void for_each_table(CaseWalk& cx, const char* key, Read read) {
  const toml::node* node = get(cx, key);
  if (!node) return;
  const toml::array* list = node->as_array();
  if (!list || !list->is_array_of_tables()) {
    cx.problems.add(node->source(), std::string("'") + key + "' must be written [[case." + key +
                                        "]] (an array of tables)");
    return;
  }
  for (const auto& item : *list) read(*item.as_table());
}

}  // namespace

std::optional<CaseDecl> parse_case(const toml::table& table, const Catalogue& catalogue, Problems& problems,
                                   const Rule& rule) {
  if (rule.named && !rule.table) return std::nullopt;
  CaseWalk cx{table, catalogue, problems};
  cx.rule = rule.table;
  CaseDecl c;
  c.pos = problems.at(table.source());
  auto id = read_string(cx, "id", true);
  if (id && std::any_of(id->begin(), id->end(), [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; }))
    problems.add(table.get("id")->source(), "'id' must not hold control characters");
  if (id && !id->empty()) {
    c.id = *id;
    c.pos = problems.at(table.get("id")->source());
  }
  c.summary = read_string(cx, "summary", false).value_or("");
  c.xfail = read_string(cx, "xfail", false);
  c.no_mutant = read_string(cx, "no_mutant", false);
  if (c.no_mutant && c.no_mutant->find_first_not_of(" \t\n") == std::string::npos)
    problems.add(table.get("no_mutant")->source(), "'no_mutant' must say why the case has no mutant");
  read_citation(cx, c);
  resolve_plugin(cx, c);
  resolve_scenario(cx, c);
  read_numbers(cx, c);
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (contains(kCaseKeys, name) && name != "params" && name != "network") continue;
    if (!read_settings_table(cx, name, node, c.knobs, c.params, c.network, c.network_pos, &c.unsupported))
      problems.add(key.source(), "unknown key '" + name + "' in [[case]]" +
                                     did_you_mean(name, allowed_keys(cx, kCaseKeys)));
  }
  read_matrix(cx, c);
  for_each_table(cx, "expect", [&](const toml::table& t) {
    if (auto e = read_expect(cx, t)) c.expects.push_back(std::move(*e));
  });
  for_each_table(cx, "mutant", [&](const toml::table& t) {
    auto m = read_mutant(cx, t, c.expects);
    if (!m) return;
    for (const auto& other : c.mutants)
      if (other.label == m->label && m->label != "no overrides")
        problems.add(m->pos, "this mutant repeats the one at " + other.pos.str());
    c.mutants.push_back(std::move(*m));
  });
  if (cx.plugin && cx.plugin->mutants_required && !cx.catalogue.offline && c.mutants.empty() && !c.no_mutant &&
      !c.id.empty() && !table.contains("mutant"))
    problems.add(c.pos, "case '" + c.id + "' of plugin '" + c.plugin +
                            "' needs a [[case.mutant]] whose knobs break what it shows, so that its checks are seen "
                            "to fail, or no_mutant = \"why\" when none can");
  if (c.no_mutant && !c.mutants.empty())
    problems.add(table.get("no_mutant")->source(),
                 "'no_mutant' says why a case has no mutant, but this one has " + std::to_string(c.mutants.size()));
  read_network_points(c, problems);
  if (c.expects.empty() && !get(cx, "expect"))
    problems.add(cx.rule ? problems.at(cx.rule->source()) : c.pos,
                 (c.id.empty() ? std::string("the case") : "case '" + c.id + "'") +
                     (cx.rule ? " takes a rule that" : "") + " has no [[case.expect]]: nothing would judge it");
  if (c.id.empty()) return std::nullopt;
  return c;
}

}  // namespace conform::suite_detail
