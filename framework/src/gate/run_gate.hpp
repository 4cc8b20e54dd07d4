// What `conform run` adds for CI: `--shard K/N` (this job's part of the case
// list) and `--baseline FILE` (gating on an earlier report). Kept apart from
// the run command so it stays a few calls there.
#pragma once

#include "gate/baseline_reporter.hpp"
#include "gate/shard.hpp"
#include "report/file_reporter.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conform {

struct GateOptions {
  /// `--baseline FILE`; empty for none.
  std::string baseline;
  /// `--shard K/N`; empty for the whole run.
  std::string shard;
  /// `--fail-on`: which failed cases give exit code 1.
  FailOn fail_on;
};

class RunGate {
 public:
  /// Parses the shard and reads the baseline before anything runs. Throws
  /// InputError (exit 2) for a bad `--shard` value or a malformed baseline.
  explicit RunGate(const GateOptions& options);

  /// This job's cases of the whole selection `all`.
  std::vector<Case> select(const std::vector<Case>& all);

  /// Adds the baseline reporter right after the console (`reporters[0]`),
  /// and the `shard` and `baseline` members to each of `documents` (the
  /// JSON report and the HTML page, those the run writes). `replay_args`
  /// are the run's plugin options, which `conform merge` needs for the
  /// replay commands.
  void attach(std::vector<Reporter*>& reporters, const std::vector<DocumentReporter*>& documents,
              std::vector<std::string> replay_args);

  /// 1 when a case failed at a level `--fail-on` counts, or with a baseline
  /// when the gate failed; else 0.
  int exit_code(const RunTotals& totals) const;

 private:
  std::optional<ShardSpec> shard_;
  std::vector<std::size_t> positions_;
  std::size_t total_ = 0;
  std::string digest_;
  std::unique_ptr<BaselineReporter> baseline_;
  FailOn fail_on_;
};

}  // namespace conform
