// The reports of a command that judges without running a plugin itself
// (`conform merge`, `conform check`): the console, the baseline comparison,
// JUnit and JSON, fed from results at hand, and the exit code they give.
#pragma once

#include "gate/baseline_reporter.hpp"
#include "report/console.hpp"
#include "report/file_reporter.hpp"

#include <memory>
#include <string>

namespace conform {

/// The report options `conform merge` and `conform check` share.
struct ReportOptions {
  /// `--json`, `--junit`, `--baseline`; empty for none.
  std::string json, junit, baseline;
  Verbosity verbosity = Verbosity::normal;
  /// `--fail-on`: which failed cases give exit code 1.
  FailOn fail_on;
};

class ReportSet {
 public:
  /// Reads the baseline (when one is given) and makes sure the report files
  /// can be written and overwrite neither each other nor the baseline or one
  /// of `inputs` (the command's input files), before any work: InputError
  /// otherwise.
  ReportSet(const ReportOptions& options, const std::vector<std::string>& inputs);

  /// The JSON report, to add members to.
  JsonReporter& json() { return json_; }

  /// Hands `results` to every reporter and writes the files. Returns 1 when
  /// a case failed at a level `--fail-on` counts (with a baseline: when the
  /// gate failed), else 0.
  int report(const RunPlan& plan, const std::vector<CaseResult>& results, const RunTotals& totals);

 private:
  ConsoleReporter console_;
  std::unique_ptr<BaselineReporter> baseline_;
  std::string junit_path_, json_path_;
  JunitReporter junit_;
  JsonReporter json_;
  FailOn fail_on_;
};

}  // namespace conform
