// Reporting results at hand.
#include "gate/report_set.hpp"

#include "common/output_files.hpp"

#include <nlohmann/json.hpp>


namespace conform {

ReportSet::ReportSet(const ReportOptions& o, const std::vector<std::string>& inputs)
    : console_(stdout, nullptr, o.verbosity), junit_path_(o.junit), json_path_(o.json), junit_(o.junit),
      json_(o.json), fail_on_(o.fail_on) {
  if (!o.baseline.empty())
    baseline_ = std::make_unique<BaselineReporter>(read_baseline(o.baseline), stdout, o.fail_on);
  check_writable(o.json, "--json");
  check_writable(o.junit, "--junit");
  check_writable(o.html, "--html");
  std::vector<std::string> read = inputs;
  if (!o.baseline.empty()) read.push_back(o.baseline);
  refuse_overwriting({{"--json", o.json}, {"--junit", o.junit}, {"--html", o.html}}, read);
  if (!o.html.empty()) html_ = std::make_unique<HtmlReporter>(o.html);
  if (baseline_) add_section("baseline", [this] { return baseline_->to_json(); });
}

void ReportSet::add_section(const std::string& key, const std::function<nlohmann::json()>& render) {
  json_.add_section(key, render);
  if (html_) html_->add_section(key, render);
}

int ReportSet::report(const RunPlan& plan, const std::vector<CaseResult>& results, const RunTotals& totals) {
  begin(plan);
  for (const auto& result : results) case_done(result);
  return end(totals);
}

void ReportSet::begin(const RunPlan& plan) {
  reporters_ = {&console_};
  if (baseline_) reporters_.push_back(baseline_.get());
  if (!junit_path_.empty()) reporters_.push_back(&junit_);
  if (!json_path_.empty()) reporters_.push_back(&json_);
  if (html_) reporters_.push_back(html_.get());
  for (auto* r : reporters_) r->begin(plan);
}

void ReportSet::case_done(const CaseResult& result) {
  for (auto* r : reporters_) r->case_done(result);
}

int ReportSet::end(const RunTotals& totals) {
  for (auto* r : reporters_) r->end(totals);
  if (baseline_) return baseline_->comparison().failed() ? 1 : 0;
  return totals.failures(fail_on_) ? 1 : 0;
}

}  // namespace conform
