// Reports written to a file when the run ends: JUnit XML (as Jenkins and
// GitLab read it) and JSON (every case, check, verdict, evidence, timing).
// Each is written to a temporary file first and renamed into place, so a
// report is never left half written.
#pragma once

#include "report/reporter.hpp"

#include <nlohmann/json_fwd.hpp>

#include <functional>

#include <string>
#include <vector>

namespace conform {

/// Collects the case results for a report written at the end.
class CollectingReporter : public Reporter {
 public:
  explicit CollectingReporter(std::string path) : path_(std::move(path)) {}
  void begin(const RunPlan& plan) override { plan_ = plan; }
  void case_done(const CaseResult& result) override { results_.push_back(result); }
  void end(const RunTotals& totals) override;

 protected:
  /// The document for `totals`.
  virtual std::string render(const RunTotals& totals) const = 0;
  RunPlan plan_;
  std::vector<CaseResult> results_;

 private:
  std::string path_;
};

/// One <testsuite> per suite file, one <testcase> per case; FAIL and XPASS
/// are <failure>, ERROR and TIMEOUT <error>, UNSUPPORTED and INTERRUPTED
/// <skipped>.
class JunitReporter final : public CollectingReporter {
 public:
  using CollectingReporter::CollectingReporter;

 protected:
  std::string render(const RunTotals& totals) const override;
};

/// A report built from the JSON report's document (report_json.hpp) and
/// the members other parts of the run add to it.
class DocumentReporter : public CollectingReporter {
 public:
  using CollectingReporter::CollectingReporter;
  /// Adds a top-level member `key` whose value `render` gives when the
  /// report is written (after every other reporter's end() that came before
  /// this one): how sharding, baselines, offline checks and the interop
  /// matrix add their part. A null value leaves the member out.
  void add_section(std::string key, std::function<nlohmann::json()> render);

 protected:
  /// The document for `totals`, with every section that has something to say.
  nlohmann::json document(const RunTotals& totals) const;

 private:
  std::vector<std::pair<std::string, std::function<nlohmann::json()>>> sections_;
};

/// The JSON report; see docs/reports.md for its shape.
class JsonReporter final : public DocumentReporter {
 public:
  using DocumentReporter::DocumentReporter;

 protected:
  std::string render(const RunTotals& totals) const override;
};

/// The self-contained HTML page (report/html.hpp), built when the run ends
/// from the same document as the JSON report and every run's artifact folder.
class HtmlReporter final : public DocumentReporter {
 public:
  /// Reads Chart.js now, so a missing library stops the run before it
  /// starts (InputError).
  explicit HtmlReporter(std::string path);

 protected:
  std::string render(const RunTotals& totals) const override;

 private:
  std::string chart_js_;
};

/// Writes `text` to `path` through a temporary file in the same folder,
/// renamed into place; a path that exists and is not a regular file (a
/// device, a pipe) is written in place. Throws InputError naming the file
/// and the reason when it is a folder, when any byte cannot be written (a
/// full disk, /dev/full) or the rename fails; the file is then left as it was.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace conform
