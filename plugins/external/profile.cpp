// Profile files: TOML parsed with toml++, every problem with its position.
#include "profile.hpp"

#include "command_template.hpp"

#include <conform/label.hpp>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

namespace external {
namespace fs = std::filesystem;
using conform::PluginProblem;

const Profile* ProfileSet::find(const std::string& name) const {
  for (const auto& p : profiles)
    if (p.name == name) return &p;
  return nullptr;
}

namespace {

// Problems of one file, positioned at toml++ nodes.
struct FileProblems {
  std::string file;
  std::vector<PluginProblem> list;
  void add(const toml::source_region& at, std::string message, std::size_t column_offset = 0) {
    list.push_back({file, at.begin.line, static_cast<std::uint32_t>(at.begin.column + column_offset),
                    std::move(message), kProfileKnob, {}});
  }
};

void reject_unknown_keys(const toml::table& t, const std::vector<std::string>& allowed, const std::string& where,
                         FileProblems& problems) {
  for (const auto& [key, value] : t) {
    const std::string name(key.str());
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    problems.add(key.source(), "unknown key '" + name + "' in " + where + "; expected " + list);
  }
}

std::optional<std::string> template_string(const toml::node& node, const std::string& what, FileProblems& problems) {
  const auto* s = node.as_string();
  if (!s) {
    problems.add(node.source(), what + " must be a string");
    return std::nullopt;
  }
  if (auto bad = check_template(s->get())) {
    // +1: the opening quote.
    problems.add(node.source(), what + ": " + bad->message, bad->offset + 1);
    return std::nullopt;
  }
  return s->get();
}

// A name a program's environment can hold as NAME=value: POSIX's portable
// names, so no '=' or NUL can split or cut the entry.
bool environment_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
}

// A name that reads back unchanged in an expanded case id
// (`[client.implementation=NAME]`) and in its folder.
bool profile_name(const std::string& name) {
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-';
  });
}

// Reads program, package, args and env of `t` (the table written `where`,
// "[client]" or "[[client.prepare]]") into `c`.
void read_command(const toml::table& t, const std::string& where, Command& c, FileProblems& problems) {
  const std::string label = where.substr(where.find_first_not_of('['), where.find(']') - where.find_first_not_of('['));
  const toml::node* program = t.get("program");
  if (!program || !program->as_string() || program->as_string()->get().empty())
    problems.add(program ? program->source() : t.source(), where + " needs 'program', a non-empty string");
  else {
    c.program = program->as_string()->get();
    c.line = program->source().begin.line;
    c.column = program->source().begin.column;
  }
  if (const toml::node* package = t.get("package")) {
    if (package->as_string())
      c.package = package->as_string()->get();
    else
      problems.add(package->source(), label + ".package must be a string");
  }
  if (const toml::node* args = t.get("args")) {
    if (const toml::array* list = args->as_array()) {
      for (const auto& a : *list)
        if (auto s = template_string(a, label + ".args item", problems)) c.args.push_back(*s);
    } else {
      problems.add(args->source(), label + ".args must be an array of strings");
    }
  }
  if (const toml::node* env = t.get("env")) {
    if (const toml::table* vars = env->as_table()) {
      for (const auto& [key, value] : *vars) {
        const std::string name(key.str());
        if (!environment_name(name)) {
          problems.add(key.source(), label + ".env: '" + name +
                                         "' is not an environment variable name (letters, digits and '_', "
                                         "not starting with a digit)");
          continue;
        }
        if (auto s = template_string(value, label + ".env." + name, problems)) c.env[name] = *s;
      }
    } else {
      problems.add(env->source(), label + ".env must be a table of strings");
    }
  }
}

void read_prepare(const toml::node& node, const std::string& role, RoleCommand& c, FileProblems& problems) {
  const toml::array* list = node.as_array();
  if (!list) {
    problems.add(node.source(), role + ".prepare must be an array of tables: write [[" + role + ".prepare]]");
    return;
  }
  for (const auto& item : *list) {
    const toml::table* t = item.as_table();
    if (!t) {
      problems.add(item.source(), role + ".prepare items must be tables with 'program' and 'args'");
      continue;
    }
    reject_unknown_keys(*t, {"program", "package", "args", "env"}, "[[" + role + ".prepare]]", problems);
    Command step;
    read_command(*t, "[[" + role + ".prepare]]", step, problems);
    c.prepare.push_back(std::move(step));
  }
}

void read_files(const toml::node& node, const std::string& role, RoleCommand& c, FileProblems& problems) {
  const toml::table* files = node.as_table();
  if (!files) {
    problems.add(node.source(), role + ".files must be a table of file name = text");
    return;
  }
  for (const auto& [key, value] : *files) {
    const std::string name(key.str());
    if (name.empty() || name.find('/') != std::string::npos || name[0] == '.')
      problems.add(key.source(), role + ".files: '" + name + "' must be a plain file name inside {profile_dir}");
    else if (auto s = template_string(value, role + ".files." + name, problems))
      c.files[name] = *s;
  }
}

// [role.profile_template]: `args` (templates) and `leave_out` (plain names).
void read_template(const toml::node& node, const std::string& role, RoleCommand& c, FileProblems& problems) {
  const std::string where = role + ".profile_template";
  const toml::table* t = node.as_table();
  if (!t) return problems.add(node.source(), where + " must be a table: write [" + where + "] with 'args'");
  reject_unknown_keys(*t, {"args", "leave_out"}, "[" + where + "]", problems);
  c.template_args.emplace();
  if (const toml::array* args = t->get_as<toml::array>("args"))
    for (const auto& a : *args) {
      const auto s = template_string(a, where + ".args item", problems);
      if (!s) continue;
      // Made once, the template cannot hold what differs from run to run.
      for (const auto& [name, meaning] : placeholders())
        if (name != "profile_dir" && expand(*s, {{name, "\x01"}}).find('\x01') != std::string::npos)
          problems.add(a.source(), where + ".args item: {" + name + "} differs from run to run, and the template "
                                   "is made once: only {profile_dir} (the template's folder) is allowed");
      c.template_args->push_back(*s);
    }
  else
    problems.add(t->get("args") ? t->get("args")->source() : t->source(), where + " needs 'args', an array of strings");
  if (const toml::node* leave_out = t->get("leave_out")) {
    const toml::array* list = leave_out->as_array();
    if (!list) return problems.add(leave_out->source(), where + ".leave_out must be an array of file names");
    for (const auto& item : *list) {
      const auto* name = item.as_string();
      if (name && conform::is_one_line(name->get()) && name->get().find('/') == std::string::npos &&
          name->get() != "." && name->get() != "..")
        c.template_leave_out.push_back(name->get());
      else
        problems.add(item.source(), where + ".leave_out items must be plain file names inside {profile_dir}");
    }
  }
}

// `key` of [role] into `out` when present; a problem unless it is a boolean.
void read_flag(const toml::table& t, const char* key, const std::string& role, const std::string& what, bool& out,
               FileProblems& problems) {
  const toml::node* node = t.get(key);
  if (!node) return;
  if (const auto* b = node->as_boolean())
    out = b->get();
  else
    problems.add(node->source(), role + "." + key + " must be true or false" + what);
}

// `workload`: "http3", "raw-quic", or a list of them (a program that
// speaks both, such as conform-quic's --workload).
void read_workloads(const toml::node& node, std::vector<Workload>& out, FileProblems& problems) {
  const std::string bad = "'workload' must be \"http3\", \"raw-quic\" or a list of them";
  std::vector<const toml::node*> items;
  if (const auto* list = node.as_array())
    for (const toml::node& item : *list) items.push_back(&item);
  else
    items.push_back(&node);
  std::vector<Workload> read;
  for (const toml::node* item : items) {
    const auto* text = item->as_string();
    const auto w = text ? workload_named(text->get()) : std::nullopt;
    if (!w) return problems.add(item->source(), bad);
    if (std::find(read.begin(), read.end(), *w) == read.end()) read.push_back(*w);
  }
  if (read.empty()) return problems.add(node.source(), bad);
  out = std::move(read);
}

std::optional<RoleCommand> read_role(const toml::table& root, const std::string& role, FileProblems& problems) {
  const toml::node* node = root.get(role);
  if (!node) return std::nullopt;
  const toml::table* t = node->as_table();
  if (!t) {
    problems.add(node->source(), "'" + role + "' must be a table: write [" + role + "]");
    return std::nullopt;
  }
  reject_unknown_keys(*t, {"program", "package", "args", "env", "keylog", "needs", "prepare", "files", "forks",
                          "quic_knobs", "profile_template"}, "[" + role + "]",
                      problems);
  RoleCommand c;
  read_command(*t, "[" + role + "]", c, problems);
  if (const toml::node* prepare = t->get("prepare")) read_prepare(*prepare, role, c, problems);
  if (const toml::node* files = t->get("files")) read_files(*files, role, c, problems);
  if (const toml::node* made = t->get("profile_template")) read_template(*made, role, c, problems);
  read_flag(*t, "forks", role, "", c.forks, problems);
  read_flag(*t, "keylog", role, " (whether the program writes {keylog})", c.keylog, problems);
  read_flag(*t, "quic_knobs", role, " (whether the program takes the in-house QUIC's knobs)", c.quic_knobs, problems);
  if (const toml::node* needs = t->get("needs")) {
    const toml::array* list = needs->as_array();
    if (!list) problems.add(needs->source(), role + ".needs must be an array of file paths");
    for (std::size_t i = 0; list && i < list->size(); ++i) {
      const auto* path = list->get(i)->as_string();
      if (path && !path->get().empty())
        c.needs.push_back(path->get());
      else
        problems.add(list->get(i)->source(), role + ".needs item must be a non-empty string (a file path)");
    }
  }
  return c;
}

}  // namespace

void load_profile_file(const std::string& path, ProfileSet& set) {
  FileProblems problems{path, {}};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    set.problems.push_back({path, 0, 0, std::string("cannot read: ") + std::strerror(errno), kProfileKnob, ""});
    return;
  }
  toml::table root;
  try {
    root = toml::parse(in, path);
  } catch (const toml::parse_error& e) {
    // No name to read: the problem concerns no case by name.
    problems.add(e.source(), std::string(e.description()));
    set.problems.insert(set.problems.end(), problems.list.begin(), problems.list.end());
    return;
  }
  reject_unknown_keys(root, {"profile", "client", "server"}, "a profile", problems);
  Profile p;
  p.file = path;
  const toml::table* head = root.get("profile") ? root.get("profile")->as_table() : nullptr;
  if (!head) {
    problems.list.push_back({path, 1, 1, "a profile needs a [profile] table with 'name'", kProfileKnob, {}});
  } else {
    reject_unknown_keys(*head, {"name", "summary", "version", "version_from", "workload"}, "[profile]", problems);
    const toml::node* name = head->get("name");
    if (!name || !name->as_string() || name->as_string()->get().empty())
      problems.add(name ? name->source() : head->source(), "[profile] needs 'name', a non-empty string");
    else if (!profile_name(name->as_string()->get()))
      problems.add(name->source(), "[profile] name \"" + name->as_string()->get() +
                                       "\" must be letters, digits, '.', '_' and '-' (it is a case id's "
                                       "matrix value and part of a folder name)");
    else
      p.name = name->as_string()->get();
    for (auto [key, field] : {std::pair{"summary", &p.summary}, std::pair{"version", &p.version}})
      if (const toml::node* node = head->get(key)) {
        if (node->as_string() && conform::is_one_line(node->as_string()->get()))
          *field = node->as_string()->get();
        else
          problems.add(node->source(), std::string("'") + key + "' must be a string of one line");
      }
    if (const toml::node* from = head->get("version_from")) {
      std::string error = "'version_from' must be a string";
      if (from->as_string()) p.version_from = parse_version_source(from->as_string()->get(), error);
      if (!p.version_from) problems.add(from->source(), error);
    }
    if (const toml::node* workload = head->get("workload")) read_workloads(*workload, p.workloads, problems);
  }
  p.client = read_role(root, "client", problems);
  p.server = read_role(root, "server", problems);
  // A program that speaks several workloads learns which one from
  // {workload}; without it, it would play its default against any pair.
  for (const auto* role : {&p.client, &p.server})
    if (p.workloads.size() > 1 && *role &&
        std::none_of((*role)->args.begin(), (*role)->args.end(),
                     [](const std::string& a) { return a.find("{workload}") != std::string::npos; }))
      problems.add(head->get("workload")->source(),
                   "a profile of more than one workload must pass {workload} to its programs; [" +
                       std::string(role == &p.client ? "client" : "server") + "] does not");
  if (problems.list.empty() && !p.client && !p.server)
    problems.list.push_back({path, 1, 1, "a profile needs [client], [server] or both", kProfileKnob, {}});
  if (problems.list.empty() && set.find(p.name))
    problems.add(head->get("name")->source(),
                 "profile '" + p.name + "' is also defined in " + set.find(p.name)->file);
  for (auto& q : problems.list) q.value = p.name;
  set.problems.insert(set.problems.end(), problems.list.begin(), problems.list.end());
  (problems.list.empty() ? set.profiles : set.broken).push_back(std::move(p));
}

ProfileSet load_profiles(const std::vector<std::string>& dirs) {
  ProfileSet set;
  // A folder named twice (CONFORM_EXTERNAL_PROFILES appended to twice, or
  // naming the shipped one) is read once: its profiles are not duplicates.
  std::set<fs::path> read;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      set.problems.push_back({dir, 0, 0, fs::exists(dir, ec) ? "not a folder: CONFORM_EXTERNAL_PROFILES names folders"
                                                            : "no such profile folder",
                              kProfileKnob, ""});
      continue;
    }
    if (!read.insert(fs::weakly_canonical(dir, ec)).second) continue;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      // Hidden files: an editor's lock (.#x.toml) or backup, not a profile.
      if (entry.path().extension() == ".toml" && name[0] != '.') files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      // A FIFO or device would block or never end the read.
      if (std::error_code kind; !fs::is_regular_file(f, kind)) {
        set.problems.push_back({f, 0, 0, "not a regular file", kProfileKnob, ""});
        continue;
      }
      load_profile_file(f, set);
    }
  }
  return set;
}

}  // namespace external
