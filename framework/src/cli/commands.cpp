// run, list, plugins.
#include "cli/commands.hpp"

#include "check/registry.hpp"
#include "cli/select.hpp"
#include "common/input_error.hpp"
#include "net/network_spec.hpp"
#include "plugin/search_path.hpp"
#include "report/file_reporter.hpp"
#include "report/interop_matrix.hpp"
#include "run/runner.hpp"
#include "suite/matrix.hpp"
#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <thread>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace conform {
namespace fs = std::filesystem;

PluginSet load_plugins(const PluginOptions& options) {
  PluginSet set;
  if (options.files.empty() || !options.dirs.empty())
    for (const auto& dir : plugin_search_path(options.dirs)) set.load_dir(dir);
  for (const auto& file : options.files) set.load_file(file);
  return set;
}

Catalogue catalogue_of(const PluginSet& plugins) {
  Catalogue catalogue{{}, &CheckRegistry::builtin(), &network_spec()};
  for (const auto& p : plugins.all()) catalogue.plugins.push_back(&p.info());
  return catalogue;
}

// The selected cases, or InputError when the selection is empty.
std::vector<Case> selected_cases(const std::vector<std::unique_ptr<SuiteFile>>& suites,
                                 const Catalogue& catalogue, const SelectOptions& select) {
  auto cases = select_cases(expand_cases(suites, catalogue), select.filters, select.sections);
  if (cases.empty()) {
    std::string why;
    for (const auto& f : select.filters) why += " --filter " + f;
    for (const auto& s : select.sections) why += " --section " + s;
    throw InputError({select.paths.front()}, "no case matches" + why);
  }
  return cases;
}

// A report file must be writable before the run, not found unwritable after it.
void check_writable(const std::string& path, const char* option) {
  if (path.empty()) return;
  fs::path parent = fs::absolute(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw InputError({path}, std::string(option) + ": folder " + parent.string() + " does not exist");
  if (fs::is_directory(path, ec)) throw InputError({path}, std::string(option) + ": is a folder");
  // The report is written through a temporary file beside it: try one.
  fs::path probe = path + ".tmp." + std::to_string(getpid());
  int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  // /proc and read-only mounts say ENOENT or EROFS: name the folder that refuses.
  if (fd < 0)
    throw InputError({path}, std::string(option) + ": cannot create a file in " + parent.string() + ": " +
                                 std::strerror(errno));
  close(fd);
  fs::remove(probe, ec);
}

namespace {

// Two runs writing into one artifact folder would corrupt each other's
// captures; the second is refused. The lock lives as long as the returned fd.
int lock_out_dir(const std::string& path) {
  const std::string lock = (fs::path(path) / ".conform.lock").string();
  int fd = open(lock.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError({path}, "--out: cannot create " + lock + ": " + std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    throw InputError({path}, "--out: another conform run is writing into this folder");
  }
  return fd;
}

// The artifact folder must be a folder we can create and write in.
void prepare_out_dir(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec || !fs::is_directory(path))
    throw InputError({path}, "--out: cannot create the artifact folder" +
                                 (ec ? ": " + ec.message() : std::string(": a file is in the way")));
  if (access(path.c_str(), W_OK) != 0) throw InputError({path}, "--out: the folder is not writable");
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
}

// `path` is `folder` or lies below it, links and ".." resolved.
bool inside_folder(const std::string& path, const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return false;
  const fs::path f = fs::weakly_canonical(fs::absolute(folder), ec);
  const fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  return !ec && std::mismatch(f.begin(), f.end(), p.begin(), p.end()).first == f.end();
}

}  // namespace

void refuse_overwriting(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& out = outputs[i];
    if (out.path.empty()) continue;
    for (std::size_t k = 0; k < i; ++k)
      if (!outputs[k].path.empty() && same_file(out.path, outputs[k].path))
        throw InputError({out.path}, std::string(outputs[k].option) + " and " + out.option + " name the same file");
    for (const auto& in : inputs) {
      if (inside_folder(out.path, in))
        throw InputError({out.path}, std::string(out.option) + " is inside the input folder " + in +
                                         ": outputs are never written among the inputs");
      if (same_file(out.path, in))
        throw InputError({out.path}, std::string(out.option) + " names an input file (" + in +
                                         "): writing the report would overwrite it");
    }
  }
}

void refuse_repeated(const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (same_file(inputs[k], inputs[i]))
        throw InputError({inputs[i]}, fmt::format("given twice (inputs {} and {}): each input is read once",
                                                  k + 1, i + 1));
}

int command_run(const RunCommandOptions& options) {
  PluginSet plugins = load_plugins(options.plugins);
  Catalogue catalogue = catalogue_of(plugins);
  auto suites = load_suites(options.select.paths, catalogue);
  RunGate gate(options.gate);
  std::vector<Case> cases = gate.select(selected_cases(suites, catalogue, options.select));
  check_writable(options.junit, "--junit");
  check_writable(options.json, "--json");
  check_writable(options.html, "--html");
  std::vector<std::string> inputs = options.select.paths;
  if (!options.gate.baseline.empty()) inputs.push_back(options.gate.baseline);
  refuse_overwriting(
      {{"--json", options.json}, {"--junit", options.junit}, {"--html", options.html}, {"--out", options.out_dir}},
      inputs);
  prepare_out_dir(options.out_dir);
  const int lock = lock_out_dir(options.out_dir);

  RunOptions run;
  run.out_dir = options.out_dir;
  run.jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  run.seed = options.seed;
  run.timeout_s = options.timeout_s;
  for (const auto& d : options.plugins.dirs) run.replay_args.insert(run.replay_args.end(), {"--plugin-dir", d});
  for (const auto& f : options.plugins.files) run.replay_args.insert(run.replay_args.end(), {"--plugin", f});

  ConsoleReporter console(stdout, isatty(STDERR_FILENO) ? stderr : nullptr, options.verbosity);
  std::vector<std::unique_ptr<Reporter>> files;
  if (!options.junit.empty()) files.push_back(std::make_unique<JunitReporter>(options.junit));
  JsonReporter* json = nullptr;
  if (!options.json.empty()) files.push_back(std::make_unique<JsonReporter>(options.json));
  if (!options.json.empty()) json = static_cast<JsonReporter*>(files.back().get());
  if (!options.html.empty()) files.push_back(std::make_unique<HtmlReporter>(options.html));
  InteropMatrixReporter interop(stdout);
  std::vector<Reporter*> reporters{&console, &interop};
  for (auto& f : files) reporters.push_back(f.get());
  gate.attach(reporters, json, run.replay_args);
  if (json)
    json->add_section("interop", [&interop] { return interop.to_json(); });

  RunTotals totals = run_cases(cases, plugins, CheckRegistry::builtin(), run, reporters);
  close(lock);
  return gate.exit_code(totals);
}

int command_list(const PluginOptions& plugin_options, const SelectOptions& select) {
  PluginSet plugins = load_plugins(plugin_options);
  Catalogue catalogue = catalogue_of(plugins);
  auto suites = load_suites(select.paths, catalogue);
  for (const auto& c : selected_cases(suites, catalogue, select)) {
    fmt::print("{}  plugin={} scenario={} rfc={}", c.id(), c.decl->plugin, c.decl->scenario,
               c.decl->rfc);
    if (c.decl->seeds > 1) fmt::print(" seeds={}", c.decl->seeds);
    if (!c.decl->mutants.empty()) fmt::print(" mutants={}", c.decl->mutants.size());
    if (!c.decl->unsupported.empty()) fmt::print(" unsupported: {}", c.decl->unsupported);
    fmt::print("\n");
  }
  return 0;
}

int command_plugins(const PluginOptions& plugin_options) {
  PluginSet plugins = load_plugins(plugin_options);
  if (plugins.all().empty()) fmt::print("no plugins found\n");
  for (const auto& p : plugins.all()) {
    const PluginInfo& info = p.info();
    fmt::print("{} {}\n  file: {}\n  abi: {}\n  time: {}\n  roles: {}\n", info.name, info.version,
               p.file(), p.abi_version(), to_string(info.time_model), fmt::join(info.roles, ", "));
    fmt::print("  scenarios:\n");
    for (const auto& s : info.scenarios) {
      fmt::print("    {}  {}\n", s.name, s.summary);
      for (const auto& param : s.params) fmt::print("      {}\n", describe(param));
    }
    fmt::print("  knobs:\n");
    for (const auto& k : info.knobs) fmt::print("    {}\n", describe(k));
    if (!info.problems.empty()) fmt::print("  problems (cases naming this plugin are refused):\n");
    for (const auto& q : info.problems)
      fmt::print("    {}: {}\n", SourcePos{q.file, q.line, q.column}.str(), q.message);
  }
  // Not a plugin's: the simulator and the relay read these for every case.
  fmt::print("network (a case's `network` table, for every plugin):\n");
  for (const auto& k : network_spec()) fmt::print("  {}\n", describe(k));
  return 0;
}

}  // namespace conform
