// `conform merge REPORT.json... [--json OUT] [--junit OUT] [--baseline FILE]`:
// the JSON reports of a run's shards joined into one JSON report, one JUnit
// file and one verdict (exit code as `conform run`'s).
#pragma once

#include "gate/report_set.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace conform {

struct MergeCommandOptions {
  std::vector<std::string> reports;
  ReportOptions report;
};

/// Declares the sub-command on `app`.
CLI::App* add_merge_command(CLI::App& app, MergeCommandOptions& options);

/// Returns 0 when every case of the whole run passed (or, with a baseline,
/// when every failure is known), 1 otherwise; throws InputError (exit 2) for
/// an unreadable report, reports that are not all the shards of one run,
/// or an output path that cannot be written.
int command_merge(const MergeCommandOptions& options);

}  // namespace conform
