// Console lines.
#include "report/console.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <string_view>

namespace conform {
namespace {

// "9000§4.6" → {9000, 4, 6}; text that is not a number sorts after numbers.
std::vector<long> section_numbers(const std::string& s) {
  std::vector<long> out;
  long n = -1;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') {
      n = (n < 0 ? 0 : n * 10) + (ch - '0');
    } else if (n >= 0) {
      out.push_back(n);
      n = -1;
    }
  }
  if (n >= 0) out.push_back(n);
  return out;
}

}  // namespace

bool SectionOrder::operator()(const std::string& a, const std::string& b) const {
  auto na = section_numbers(a), nb = section_numbers(b);
  return na != nb ? na < nb : a < b;
}

ConsoleReporter::ConsoleReporter(std::FILE* out, std::FILE* tty, Verbosity verbosity)
    : out_(out), tty_(tty), verbosity_(verbosity) {}

void ConsoleReporter::begin(const RunPlan& plan) {
  plan_ = plan;
  if (verbosity_ == Verbosity::quiet) return;
  const std::string seed = plan.seeded ? fmt::format("seed {}{}", plan.seed, plan.seed_pinned ? " (pinned)" : "")
                                       : std::string("captures, no seed");
  const std::string jobs = plan.jobs ? fmt::format(" · {} job{}", plan.jobs, plan.jobs == 1 ? "" : "s") : "";
  fmt::print(out_, "conform {} · {} case{}{} · {} · artifacts in {}\n", CONFORM_VERSION, plan.cases->size(),
             plan.cases->size() == 1 ? "" : "s", jobs, seed, plan.out_dir);
  std::fflush(out_);
}

void ConsoleReporter::clear_progress() {
  if (!progress_shown_) return;
  fmt::print(tty_, "\r\033[K");
  std::fflush(tty_);
  progress_shown_ = false;
}

void ConsoleReporter::progress(std::size_t done, std::size_t total, const std::string& id) {
  if (!tty_ || verbosity_ == Verbosity::quiet) return;
  fmt::print(tty_, "\r\033[K[{}/{}] {}", done, total, id.substr(0, 60));
  std::fflush(tty_);
  progress_shown_ = true;
}

void ConsoleReporter::print_details(const CaseResult& result) {
  for (const auto& run : result.runs) {
    fmt::print(out_, "    {}{} {}  ({})\n", plan_.seeded ? fmt::format("seed {}: ", run.seed) : "",
               to_string(run.status), run.reason, run.artifact_dir);
    for (const auto& c : run.checks) {
      fmt::print(out_, "      {} {}: {}\n", verdict_label(c), c.check, c.result.summary);
      for (const auto& e : c.result.evidence)
        fmt::print(out_, "        {}{}{}: {}\n", e.capture, e.frame ? fmt::format(" frame {}", e.frame) : "",
                   e.time_ns >= 0 ? fmt::format(" at {:.6f} s", e.time_ns / 1e9) : "", e.text);
    }
  }
  for (const auto& m : result.mutants) fmt::print(out_, "    mutant {}: {}\n", m.label, mutant_verdict(m));
}

void ConsoleReporter::case_done(const CaseResult& result) {
  auto& section = sections_[result.c->decl->rfc];
  ++section.second;
  if (std::string_view(total_bucket(result.status)) == "passed") ++section.first;
  // Quiet prints what failed; what a signal left unjudged is counted in the
  // closing line and the reports (a stopped check of 10 000 connections
  // would print 60 000 lines).
  if (verbosity_ == Verbosity::quiet && (!is_failure(result.status) || result.status == Status::interrupted)) return;
  if (result.status == Status::not_applicable && verbosity_ != Verbosity::verbose) {
    const std::string& id = result.c->decl->id;
    if (std::none_of(not_applicable_.begin(), not_applicable_.end(), [&](const auto& e) { return e.first == id; }))
      not_applicable_.emplace_back(id, result.headline);
    return;
  }
  clear_progress();
  std::string line = fmt::format("{:<11} {}  {:.2f} s", to_string(result.status), result.c->id(),
                                 result.duration_s);
  if (result.runs.size() > 1)
    line += fmt::format("  {}/{} seeds passed", result.runs_passed, result.runs.size());
  if (!result.mutants.empty() && result.status == Status::pass)
    line += fmt::format("  {} mutant{} killed", result.mutants.size(),
                        result.mutants.size() == 1 ? "" : "s");
  if (!result.headline.empty()) line += "  " + result.headline;
  if (is_failure(result.status) && plan_.replay)
    line += fmt::format("  (replay: {})", replay_command(plan_, result));
  else if (is_failure(result.status))
    line += fmt::format("  (seed {}; replay: {})", result.headline_seed,
                        replay_command(plan_, result));
  fmt::print(out_, "{}\n", line);
  if (verbosity_ == Verbosity::verbose) print_details(result);
  std::fflush(out_);
}

void ConsoleReporter::end(const RunTotals& totals) {
  clear_progress();
  if (verbosity_ != Verbosity::quiet && !sections_.empty()) {
    std::string covered;
    for (const auto& [section, counts] : sections_)
      covered += fmt::format("{}{} ({}/{})", covered.empty() ? "" : ", ", section, counts.first,
                             counts.second);
    fmt::print(out_, "sections covered: {}\n", covered);
  }
  if (!not_applicable_.empty()) {
    fmt::print(out_,
               "NOT APPLICABLE to captures made elsewhere, on every connection ({} case{}; an expect whose bounds "
               "are your own, for any capture, says applies_offline = true):\n",
               not_applicable_.size(), not_applicable_.size() == 1 ? "" : "s");
    for (const auto& [id, need] : not_applicable_) fmt::print(out_, "  {}  {}\n", id, need);
  }
  // `N passed, N failed` first, as CI parsers read it; each other state apart.
  fmt::print(out_, "{} passed, {} failed", totals.passed, totals.failed);
  for (const auto& c : std::span(kTotalsCounts).subspan(2))
    if (totals.*c.count) fmt::print(out_, ", {} {}", totals.*c.count, c.words);
  fmt::print(out_, "\n");
  std::fflush(out_);
}

}  // namespace conform
