// `conform check CAPTURE... [--keylog F] SUITE_OR_DIR... [--filter GLOB]`:
// the `expect` blocks of the chosen cases judged against captures someone
// else made (offline/offline_check.hpp), with the reports of `conform run`.
#pragma once

#include "cli/commands.hpp"
#include "gate/check_shard.hpp"
#include "gate/report_set.hpp"

#include <CLI/CLI.hpp>

namespace conform {

struct CheckCommandOptions {
  /// Captures and suites, told apart by kind (cli/check_inputs.hpp).
  std::vector<std::string> inputs;
  std::vector<std::string> keylogs;
  std::vector<std::string> filters;
  std::vector<std::string> sections;
  /// "client" for every capture, or "FILE=server" for one (docs/offline.md, "Vantage").
  std::vector<std::string> vantages;
  PluginOptions plugins;
  std::string out_dir = "conform-out";
  /// "K/N": judge only job K's share of the captures (gate/check_shard.hpp).
  std::string shard;
  std::uintmax_t split_bytes = kDefaultSplitBytes;
  /// Threads judging connections; 0: one per CPU.
  unsigned jobs = 0;
  /// Copy each failing QUIC connection's records into its folder (offline/failing_pcaps.hpp).
  bool write_failing_pcaps = false;
  ReportOptions report;
};

/// Declares the sub-command on `app`, plugin options aside.
CLI::App* add_check_command(CLI::App& app, CheckCommandOptions& options);

/// 0 when every case passed on every connection, 1 when one failed (or,
/// with a baseline, when the gate failed); InputError (exit 2) for no
/// capture or suite, a --vantage that names no vantage or capture, an unreadable capture or key log, a capture without a
/// connection, an invalid suite or a selection that matches nothing.
int command_check(const CheckCommandOptions& options);

}  // namespace conform
