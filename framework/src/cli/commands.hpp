// The sub-commands of `conform`. Each returns the process exit code:
// 0 all passed, 1 a case failed (or a mutant survived), 2 bad input, 130
// interrupted by SIGINT (128 + the signal for SIGTERM, SIGHUP, SIGQUIT).
// Input errors are thrown as InputError and turned into exit 2 by main.
#pragma once

#include "common/output_files.hpp"
#include "gate/run_gate.hpp"
#include "run/interruption.hpp"
#include "plugin/loader.hpp"
#include "report/console.hpp"
#include "suite/loader.hpp"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace conform {

/// Where plugins come from: `--plugin-dir` folders and `--plugin` files.
struct PluginOptions {
  std::vector<std::string> dirs;
  std::vector<std::string> files;
};

/// Which cases: suite paths, `--filter` globs, `--section` prefixes.
struct SelectOptions {
  std::vector<std::string> paths;
  std::vector<std::string> filters;
  std::vector<std::string> sections;
};

struct RunCommandOptions {
  PluginOptions plugins;
  SelectOptions select;
  std::string out_dir = "conform-out";
  unsigned jobs = 0;
  std::optional<std::uint64_t> seed;
  double timeout_s = 60;
  std::string junit;
  std::string json;
  std::string html;
  Verbosity verbosity = Verbosity::normal;
  /// `--shard` and `--baseline`.
  GateOptions gate;
};

/// `conform dissect CAPTURE [--keylog FILE] [--json | --qlog FILE [--vantage V]]`.
struct DissectCommandOptions {
  std::string capture;
  std::vector<std::string> keylogs;
  bool json = false;
  /// Write qlog here instead of printing the timeline ("-": standard output).
  std::string qlog;
  /// Where the capture was taken, for qlog: `conform check`'s words
  /// (client, server, path, both) or qlog's "network"; empty: inferred.
  std::string vantage;
};

/// `conform report REPORT.json --html FILE`.
struct ReportCommandOptions {
  std::string report;
  std::string html;
  /// The stacks × behaviours matrix as Markdown; "-" for standard output.
  std::string markdown;
};

int command_run(const RunCommandOptions& options);
/// Writes the HTML report of a JSON report, reading each run's artifacts
/// where the report names them (relative paths: from the current folder,
/// else from the report's). Returns 0; bad input throws InputError (exit 2).
int command_report(const ReportCommandOptions& options);
/// The plugins of `--plugin-dir` folders (else the default search path) and
/// `--plugin` files. Throws InputError for one that cannot be loaded.
PluginSet load_plugins(const PluginOptions& options);
/// What suites are validated against: those plugins, the check catalogue
/// and the network keys.
Catalogue catalogue_of(const PluginSet& plugins);
/// The suites of `paths` (load_suites), with a warning on stderr for each
/// plugin problem that refuses none of their cases.
std::vector<std::unique_ptr<SuiteFile>> read_suites(const std::vector<std::string>& paths,
                                                    const Catalogue& catalogue);
/// The expanded cases `select` chooses, in order; InputError when none does.
std::vector<Case> selected_cases(const std::vector<std::unique_ptr<SuiteFile>>& suites,
                                 const Catalogue& catalogue, const SelectOptions& select);
/// Prints the decrypted timeline of a capture. Returns 0 whenever the files
/// could be read and hold a QUIC connection, whatever could be decrypted.
/// Throws InputError (exit 2), printing nothing, for an unreadable capture
/// or key log, a malformed key log line, a corrupt record or damaged
/// Decryption Secrets Block (file, frame or block, byte offset), and a
/// capture with no QUIC connection. A capture cut inside its last record is
/// shown up to it, with a warning on stderr.
int command_dissect(const DissectCommandOptions& options);
/// Prints the cases after matrix expansion, one a line; with `verbose`,
/// each case's expects (check, level, the parameters it sets) and mutants
/// (overrides and the checks they must fail) below it.
int command_list(const PluginOptions& plugins, const SelectOptions& select, bool verbose = false);
/// The JSON report's `interrupted` member: {"signal": "SIGINT"} once
/// `interruption` caught one, else null (left out).
nlohmann::json interrupted_json(Interruption& interruption);
/// `code` for a command that ran to its end; 128 + the signal (130 for
/// SIGINT) once `interruption` caught one, saying so on stderr with the
/// counts of `totals`.
int interrupted_exit(Interruption& interruption, const RunTotals& totals, int code);
/// Describes the plugins and the network settings; with `markdown` (a
/// section of settings_markdown.hpp) prints only that table.
int command_plugins(const PluginOptions& plugins, const std::string& markdown = "");

}  // namespace conform
