// The baseline as a reporter: it collects each case's verdict, and when the
// run ends compares them with the baseline, prints the comparison after the
// console's closing line and gives the JSON report its `baseline` member.
#pragma once

#include "gate/baseline.hpp"
#include "report/reporter.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdio>

namespace conform {

class BaselineReporter final : public Reporter {
 public:
  /// Prints to `out`.
  /// A case counts as failing as fails_gate() says for `fail_on`.
  BaselineReporter(Baseline baseline, std::FILE* out, const FailOn& fail_on = {});
  void case_done(const CaseResult& result) override;
  /// Compares and prints; must come after the console's end() and before
  /// the JSON report's.
  void end(const RunTotals& totals) override;

  /// The comparison; valid after end().
  const BaselineComparison& comparison() const { return comparison_; }
  /// The JSON report's `baseline` member; valid after end().
  nlohmann::json to_json() const;

 private:
  Baseline baseline_;
  std::FILE* out_;
  FailOn fail_on_;
  std::vector<CaseVerdict> verdicts_;
  BaselineComparison comparison_;
};

}  // namespace conform
