// run, list, plugins.
#include "cli/commands.hpp"

#include "check/registry.hpp"
#include "check/scenario_need.hpp"
#include "cli/select.hpp"
#include "cli/settings_markdown.hpp"
#include "common/input_error.hpp"
#include "common/output_files.hpp"
#include "common/value_range.hpp"
#include "net/net_config.hpp"
#include "plugin/search_path.hpp"
#include "report/file_reporter.hpp"
#include "report/interop_matrix.hpp"
#include "run/earlier_results.hpp"
#include "run/isolate.hpp"
#include "run/runner.hpp"
#include "suite/matrix.hpp"
#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

std::vector<std::unique_ptr<SuiteFile>> read_suites(const std::vector<std::string>& paths,
                                                    const Catalogue& catalogue) {
  std::vector<Diagnostic> warnings;
  const auto warn = [&warnings] {
    for (const auto& w : warnings) fmt::print(stderr, "warning: {}\n", w.str());
  };
  try {
    auto suites = load_suites(paths, catalogue, &warnings);
    warn();
    return suites;
  } catch (const InputError&) {
    warn();  // before the errors, which may name the profile a warning is about
    throw;
  }
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

namespace {

// `reporter`, kept in `files`.
template <typename R>
R& add(std::vector<std::unique_ptr<Reporter>>& files, std::unique_ptr<R> reporter) {
  R& kept = *reporter;
  files.push_back(std::move(reporter));
  return kept;
}

// Two runs writing into one artifact folder would corrupt each other's
// captures; the second is refused. The lock file goes when the run ends.
class OutDirLock {
 public:
  explicit OutDirLock(const std::string& dir) : path_((fs::path(dir) / ".conform.lock").string()) {
    fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError({dir}, "--out: cannot create " + path_ + ": " + std::strerror(errno));
    // A run ending unlinks the file it locked: a lock on a file no longer
    // at the path is no lock.
    struct stat held {}, named {};
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0 || fstat(fd_, &held) != 0 || stat(path_.c_str(), &named) != 0 ||
        held.st_ino != named.st_ino) {
      close(fd_);
      throw InputError({dir}, "--out: another conform run is writing into this folder");
    }
  }
  ~OutDirLock() {
    unlink(path_.c_str());
    close(fd_);
  }
  OutDirLock(const OutDirLock&) = delete;
  OutDirLock& operator=(const OutDirLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
};

// The artifact folder must be a folder we can create and write in.
void prepare_out_dir(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec || !fs::is_directory(path))
    throw InputError({path}, "--out: cannot create the artifact folder" +
                                 (ec ? ": " + ec.message() : std::string(": a file is in the way")));
  if (access(path.c_str(), W_OK) != 0) throw InputError({path}, "--out: the folder is not writable");
}

// A report inside a case folder this run writes would be overwritten by an
// artifact, or overwrite one: refused before anything runs.
void refuse_reports_in_case_folders(const std::vector<OutputFile>& reports, const std::string& out_dir,
                                    const std::vector<Case>& cases) {
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(fs::absolute(out_dir), ec);
  for (const auto& report : reports) {
    if (report.path.empty()) continue;
    const fs::path at = fs::weakly_canonical(fs::absolute(report.path), ec);
    for (const auto& c : cases) {
      const fs::path folder = out / case_folder(c.id());
      const auto rel = at.lexically_relative(folder);
      if (!rel.empty() && *rel.begin() != "..")
        throw InputError({report.path}, std::string(report.option) + ": lies in the folder of case '" + c.id() +
                                            "' (" + folder.string() + "), which this run writes");
    }
  }
}

// The folder's earlier results go, so it holds only this run's cases. The
// console names those of other cases (this run's own are replaced anyway).
void clear_earlier_results(const std::string& out_dir, const std::vector<Case>& cases) {
  const auto earlier = earlier_results(out_dir);
  std::set<std::string> ours;
  for (const auto& c : cases) ours.insert(case_folder(c.id()));
  std::size_t others = 0;
  for (const auto& run : earlier) {
    const std::string& folder = run.folder;
    const bool own = std::any_of(ours.begin(), ours.end(), [&](const std::string& f) {
      return folder == f || folder.rfind(f + "/", 0) == 0;
    });
    others += !own;
  }
  remove_earlier_results(out_dir, earlier);
  if (others)
    fmt::print("cleared {} run folder{} of other cases from {}: the files an earlier conform run wrote there, as "
               "its {} lists them; nothing else is touched\n",
               others, others == 1 ? "" : "s", out_dir, kResultsManifest);
}

// -j's default. One run per CPU keeps the CPUs busy with simulated runs;
// runs of real programs on the wall clock mostly wait on them (suites/interop
// on 2 CPUs: 277 CPU-seconds in 290 s with -j 2, 219 in 171 s with -j 4, 236
// in 168 s with -j 6), so when every case is one of those, three per CPU. A
// few timing-sensitive cells (docs/interop.md) follow the load either way.
unsigned default_jobs(const std::vector<Case>& cases, const Catalogue& catalogue) {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  const bool all_real = !cases.empty() && std::all_of(cases.begin(), cases.end(), [&](const Case& c) {
    return std::any_of(catalogue.plugins.begin(), catalogue.plugins.end(), [&](const PluginInfo* p) {
      return p->name == c.decl->plugin && p->time_model == TimeModel::real;
    });
  });
  return all_real ? 3 * cpus : cpus;
}

}  // namespace

int command_run(const RunCommandOptions& options) {
  PluginSet plugins = load_plugins(options.plugins);
  Catalogue catalogue = catalogue_of(plugins);
  auto suites = read_suites(options.select.paths, catalogue);
  RunGate gate(options.gate);
  std::vector<Case> cases = gate.select(selected_cases(suites, catalogue, options.select));
  refuse_reports_in_case_folders({{"--json", options.json}, {"--junit", options.junit}, {"--html", options.html}},
                                 options.out_dir, cases);
  check_writable(options.junit, "--junit");
  check_writable(options.json, "--json");
  check_writable(options.html, "--html");
  std::vector<std::string> inputs = options.select.paths;
  if (!options.gate.baseline.empty()) inputs.push_back(options.gate.baseline);
  refuse_overwriting(
      {{"--json", options.json}, {"--junit", options.junit}, {"--html", options.html}, {"--out", options.out_dir}},
      inputs);
  prepare_out_dir(options.out_dir);
  const OutDirLock lock(options.out_dir);
  clear_earlier_results(options.out_dir, cases);

  RunOptions run;
  run.out_dir = options.out_dir;
  run.jobs = options.jobs ? options.jobs : default_jobs(cases, catalogue);
  run.seed = options.seed;
  run.timeout_s = options.timeout_s;
  for (const auto& d : options.plugins.dirs) run.replay_args.insert(run.replay_args.end(), {"--plugin-dir", d});
  for (const auto& f : options.plugins.files) run.replay_args.insert(run.replay_args.end(), {"--plugin", f});

  ConsoleReporter console(stdout, isatty(STDERR_FILENO) ? stderr : nullptr, options.verbosity);
  std::vector<std::unique_ptr<Reporter>> files;
  if (!options.junit.empty()) files.push_back(std::make_unique<JunitReporter>(options.junit));
  // The JSON report and the HTML page hold the same document.
  std::vector<DocumentReporter*> documents;
  if (!options.json.empty()) documents.push_back(&add(files, std::make_unique<JsonReporter>(options.json)));
  if (!options.html.empty()) documents.push_back(&add(files, std::make_unique<HtmlReporter>(options.html)));
  InteropMatrixReporter interop(stdout, stack_versions(catalogue.plugins));
  std::vector<Reporter*> reporters{&console, &interop};
  for (auto& f : files) reporters.push_back(f.get());
  gate.attach(reporters, documents, run.replay_args);
  Interruption interruption;
  for (DocumentReporter* document : documents) {
    document->add_section("interop", [&interop] { return interop.to_json(); });
    document->add_section("interrupted", [&interruption] { return interrupted_json(interruption); });
  }
  RunTotals totals = run_cases(cases, plugins, CheckRegistry::builtin(), run, reporters, interruption);
  return interrupted_exit(interruption, totals, gate.exit_code(totals));
}

nlohmann::json interrupted_json(Interruption& interruption) {
  const int signal = interruption.signal();
  return signal ? nlohmann::json{{"signal", signal_name(signal)}} : nlohmann::json();
}

int interrupted_exit(Interruption& interruption, const RunTotals& totals, int code) {
  const int signal = interruption.signal();
  if (!signal) return code;
  fmt::print(stderr, "conform: interrupted by {}: the reports hold the {} finished cases and the {} interrupted\n",
             signal_name(signal), totals.finished(), totals.interrupted);
  return interruption.exit_code();
}

namespace {

// "by=client, dir=uni": the parameters `e` sets to other than its check's
// defaults, as a suite writes them.
std::string set_params(const ExpectDecl& e, const CheckRegistry& checks) {
  const Check* check = checks.find(e.check);
  const auto specs = check ? check->params() : std::vector<ValueSpec>{};
  std::vector<std::string> out;
  for (const auto& [name, value] : e.params)
    if (set_by_case(specs, e.params, name)) out.push_back(fmt::format("{}={}", name, format_toml(value)));
  return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace

int command_list(const PluginOptions& plugin_options, const SelectOptions& select, bool verbose) {
  PluginSet plugins = load_plugins(plugin_options);
  Catalogue catalogue = catalogue_of(plugins);
  auto suites = read_suites(select.paths, catalogue);
  for (const auto& c : selected_cases(suites, catalogue, select)) {
    fmt::print("{}  plugin={} scenario={} rfc={}", c.id(), c.decl->plugin, c.decl->scenario,
               c.decl->rfc);
    if (c.decl->seeds > 1) fmt::print(" seeds={}", c.decl->seeds);
    if (!c.decl->mutants.empty()) fmt::print(" mutants={}", c.decl->mutants.size());
    if (!c.decl->unsupported.empty()) fmt::print(" unsupported: {}", c.decl->unsupported);
    fmt::print("\n");
    if (!verbose) continue;
    for (const auto& e : c.decl->expects) {
      const std::string params = set_params(e, *catalogue.checks);
      fmt::print("    expect {} [{}]{}{}\n", e.check, to_string(e.level), params.empty() ? "" : "  " + params,
                 e.may_be_unexercised ? "  may_be_unexercised" : "");
    }
    for (const auto& m : c.decl->mutants)
      fmt::print("    mutant {}  fails {}\n", m.label, fmt::join(m.fails, ", "));
    if (c.decl->no_mutant) fmt::print("    no mutant: {}\n", *c.decl->no_mutant);
  }
  return 0;
}

int command_plugins(const PluginOptions& plugin_options, const std::string& markdown) {
  PluginSet plugins = load_plugins(plugin_options);
  if (!markdown.empty()) {
    fmt::print("{}", settings_markdown(markdown, catalogue_of(plugins).plugins));
    return 0;
  }
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
    for (const auto& k : info.knobs) {
      fmt::print("    {}\n", describe(k));
      for (const auto& [value, label] : k.value_labels) fmt::print("      {}: {}\n", value, label);
    }
    if (!info.problems.empty()) fmt::print("  problems:\n");
    for (const auto& q : info.problems)
      fmt::print("    {}: {}\n      refuses {}\n", SourcePos{q.file, q.line, q.column}.str(), q.message,
                 q.knob.empty()    ? "every case naming this plugin"
                 : q.value.empty() ? "no case (a case naming what it defines names nothing known)"
                                   : fmt::format("the cases where a role's {} is \"{}\" (set, by a matrix or a "
                                                 "mutant, or by default)",
                                                 q.knob, q.value));
  }
  // Not a plugin's: the simulator and the relay read these for every case.
  fmt::print("network (a case's `network` table, for every plugin):\n");
  for (const auto& s : net_settings())
    fmt::print("  {}\n", describe(s.spec, s.unit, s.base_key == "delay_ms" ? "= half of rtt_ms" : "= as " + s.base_key));
  return 0;
}

}  // namespace conform
