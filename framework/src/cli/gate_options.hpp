// The command-line options of CI gating (`--baseline`, `--shard`) and the
// sub-commands that come with it (`merge`, `check`), declared here so the
// main file only calls them.
#pragma once

#include "gate/report_set.hpp"
#include "gate/run_gate.hpp"

#include <CLI/CLI.hpp>

namespace conform {

/// Refuses an empty path (exit 2, naming the option): `--out ''` or
/// `--json ''` names nothing to write, and would otherwise mean the current
/// folder or no report at all.
const CLI::Validator& names_a_path();

/// A whole number in decimal from `min` to `max`, named with its option when
/// it is not one. CLI11 reads integers with strtoull in base 0: it would
/// clamp a value above 2^64-1 to 2^64-1, wrap "-1" to it, and read "010" as 8.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);

/// Adds `--baseline FILE` and `--shard K/N` to `cmd` (`conform run`).
void add_gate_options(CLI::App& cmd, GateOptions& options);

/// `--shard K/N` into `shard`, refused (exit 2) unless parse_shard takes it.
CLI::Option* add_shard_option(CLI::App& cmd, std::string& shard, const std::string& help);

/// Adds `--json`, `--junit`, `--baseline`, `--quiet` and `--verbose`
/// (`conform merge`, `conform check`).
void add_report_options(CLI::App& cmd, ReportOptions& options);

}  // namespace conform
