// The reports of a command that judges without running a plugin itself
// (`conform merge`, `conform check`): the console, the baseline comparison,
// JUnit, JSON and HTML, fed from results at hand, and the exit code they
// give.
#pragma once

#include "gate/baseline_reporter.hpp"
#include "report/console.hpp"
#include "report/file_reporter.hpp"

#include <functional>
#include <memory>
#include <string>

namespace conform {

/// The report options `conform merge` and `conform check` share.
struct ReportOptions {
  /// `--json`, `--junit`, `--html`, `--baseline`; empty for none.
  std::string json, junit, html, baseline;
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

  /// Adds a top-level member to the JSON report and the HTML page
  /// (DocumentReporter::add_section).
  void add_section(const std::string& key, const std::function<nlohmann::json()>& render);

  /// Hands `results` to every reporter and writes the files: begin(), each
  /// case_done(), end().
  int report(const RunPlan& plan, const std::vector<CaseResult>& results, const RunTotals& totals);

  /// The same one result at a time, for results not all at hand at once.
  void begin(const RunPlan& plan);
  void case_done(const CaseResult& result);
  /// Writes the files. Returns 1 when a case failed at a level `--fail-on`
  /// counts (with a baseline: when the gate failed), else 0.
  int end(const RunTotals& totals);

 private:
  std::vector<Reporter*> reporters_;
  ConsoleReporter console_;
  std::unique_ptr<BaselineReporter> baseline_;
  std::string junit_path_, json_path_;
  JunitReporter junit_;
  JsonReporter json_;
  std::unique_ptr<HtmlReporter> html_;  // with --html only: it reads Chart.js
  FailOn fail_on_;
};

}  // namespace conform
