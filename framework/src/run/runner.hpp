// The runner: every run of every case (seeds, mutants) in isolated children,
// results aggregated per case and handed to the reporters in case order.
#pragma once

#include "check/registry.hpp"
#include "plugin/loader.hpp"
#include "run/interruption.hpp"
#include "run/run_events.hpp"

namespace conform {

struct RunOptions {
  /// Artifacts go to `<out_dir>/<case_folder(id)>/` (@seed-S/ and
  /// @mutant-K/ below it when a case has several runs).
  std::string out_dir = "conform-out";
  unsigned jobs = 1;
  /// Pins every case to this one seed; otherwise seeds 1..N.
  std::optional<std::uint64_t> seed;
  /// Per-run limit in seconds when the case sets none.
  double timeout_s = 60;
  std::vector<std::string> replay_args;
};

/// Runs `cases` and returns the totals. Unsupported cases are reported
/// without running. Once `interruption` catches a signal no run starts, the
/// running ones are killed, and every run that did not end is INTERRUPTED;
/// the folders made for runs that never started are removed, and the
/// reporters still get every case and the end. Throws std::system_error if
/// children cannot be started.
RunTotals run_cases(const std::vector<Case>& cases, const PluginSet& plugins,
                    const CheckRegistry& checks, const RunOptions& options,
                    const std::vector<Reporter*>& reporters, Interruption& interruption);

/// The folder of a case id below the output folder: one folder per `/`-part,
/// other characters outside [A-Za-z0-9._=,+[]-] percent-encoded, "." and
/// ".." encoded, parts over 200 bytes shortened with a hash. Distinct ids
/// give distinct folders, and none escapes the output folder.
std::string case_folder(const std::string& id);

}  // namespace conform
