// The console report: one line per case as it ends, in case order; a live
// progress line on a TTY only; the sections covered; and a closing line
// `N passed, N failed`, then each other state there is, counted apart
// (RunTotals).
// Cases NOT APPLICABLE to captures made elsewhere are listed once before the
// closing line, not once per connection: what they need is the case's, the
// same on every capture.
#pragma once

#include "report/reporter.hpp"

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace conform {

/// Orders RFC sections by their numbers: 9000§4.6 before 9000§13.2.
struct SectionOrder {
  bool operator()(const std::string& a, const std::string& b) const;
};

enum class Verbosity { quiet, normal, verbose };

class ConsoleReporter final : public Reporter {
 public:
  /// Writes results to `out` and the progress line to `tty` when it is a
  /// terminal (pass nullptr for none).
  ConsoleReporter(std::FILE* out, std::FILE* tty, Verbosity verbosity);
  void begin(const RunPlan& plan) override;
  void progress(std::size_t done, std::size_t total, const std::string& id) override;
  void case_done(const CaseResult& result) override;
  void end(const RunTotals& totals) override;

 private:
  void clear_progress();
  void print_details(const CaseResult& result);

  std::FILE* out_;
  std::FILE* tty_;
  Verbosity verbosity_;
  RunPlan plan_;
  bool progress_shown_ = false;
  /// Per section, in section order: cases passed and cases in all.
  std::map<std::string, std::pair<std::size_t, std::size_t>, SectionOrder> sections_;
  /// Declared case id → what it needs, of the cases NOT APPLICABLE, in
  /// the order they first ended.
  std::vector<std::pair<std::string, std::string>> not_applicable_;
};

}  // namespace conform
