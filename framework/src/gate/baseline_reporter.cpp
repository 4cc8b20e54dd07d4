// Printing and serialising a comparison with a baseline.
#include "gate/baseline_reporter.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace conform {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string was_text(const BaselineEntry& e) {
  return e.in_baseline ? std::string(to_string(e.was)) : "not in the baseline";
}

nlohmann::json entries_json(const std::vector<BaselineEntry>& entries) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : entries)
    list.push_back({{"id", e.id},
                    {"baseline", e.in_baseline ? nlohmann::json(to_string(e.was)) : nlohmann::json(nullptr)},
                    {"status", to_string(e.now)}});
  return list;
}

}  // namespace

BaselineReporter::BaselineReporter(Baseline baseline, std::FILE* out, const FailOn& fail_on)
    : baseline_(std::move(baseline)), out_(out), fail_on_(fail_on) {}

void BaselineReporter::case_done(const CaseResult& result) {
  verdicts_.push_back({result.c->id(), result.status});
}

void BaselineReporter::end(const RunTotals&) {
  comparison_ = compare_with_baseline(baseline_, verdicts_, fail_on_);
  const auto& c = comparison_;
  fmt::print(out_, "baseline {}: {}, {}, {}, {}\n", baseline_.path,
             plural(c.regressions.size(), "regression", "regressions"),
             plural(c.new_failures.size(), "new failure", "new failures"),
             plural(c.known.size(), "known failure", "known failures"), plural(c.fixed.size(), "fixed", "fixed"));
  auto print = [&](const char* label, const std::vector<BaselineEntry>& entries) {
    for (const auto& e : entries)
      fmt::print(out_, "  {:<11} {}  {} → {}\n", label, e.id, was_text(e), to_string(e.now));
  };
  print("REGRESSION", c.regressions);
  print("NEW", c.new_failures);
  print("KNOWN", c.known);
  print("FIXED", c.fixed);
  if (c.not_run)
    fmt::print(out_, "  {} of the baseline not in this run\n", plural(c.not_run, "case", "cases"));
  if (c.failed())
    fmt::print(out_, "gate: FAILED ({}, {})\n", plural(c.regressions.size(), "regression", "regressions"),
               plural(c.new_failures.size(), "new failure", "new failures"));
  else if (!c.known.empty())
    fmt::print(out_, "gate: passed (only known failures)\n");
  else
    fmt::print(out_, "gate: passed\n");
  std::fflush(out_);
}

nlohmann::json BaselineReporter::to_json() const {
  const auto& c = comparison_;
  return {{"file", baseline_.path},
          {"passed", !c.failed()},
          {"regressions", entries_json(c.regressions)},
          {"new_failures", entries_json(c.new_failures)},
          {"known", entries_json(c.known)},
          {"fixed", entries_json(c.fixed)},
          {"not_run", c.not_run}};
}

}  // namespace conform
