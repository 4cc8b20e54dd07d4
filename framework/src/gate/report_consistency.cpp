// A report's verdicts checked against what they are made from, by the same
// code that made them (run/aggregate.hpp).
#include "gate/report_consistency.hpp"

#include "common/json_file.hpp"
#include "run/aggregate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace conform {

namespace {

bool any_says(const RunRecord& run, Verdict v) {
  return std::any_of(run.checks.begin(), run.checks.end(), [v](const CheckOutcome& c) { return c.result.verdict == v; });
}

// Why `run` cannot have its status, or "" when it can. Only checks make a
// FAIL (run/execute.cpp); a run that never reached its checks may be
// UNSUPPORTED, ERROR or TIMEOUT with none.
std::string run_contradiction(const RunRecord& run) {
  switch (run.status) {
    case Status::xfail:
    case Status::xpass:
      return fmt::format("{} is a case's status, never a run's", to_string(run.status));
    case Status::pass:
      for (const auto& c : run.checks)
        if (c.result.verdict == Verdict::fail)
          return fmt::format("PASS, but its check {} says {}", c.check, to_string(c.result.verdict));
      if (!run.checks.empty() && !any_says(run, Verdict::pass)) return "PASS, but none of its checks passed";
      return "";
    case Status::fail:
      if (!any_says(run, Verdict::fail) && !any_says(run, Verdict::not_exercised))
        return "FAIL, but none of its checks failed or went unexercised";
      return "";
    default:
      return "";
  }
}

void check_run(const std::string& path, const RunRecord& run, const std::string& pointer) {
  if (std::string why = run_contradiction(run); !why.empty()) throw json_shape_error(path, pointer + "/status", why);
}

void check_mutant(const std::string& path, const MutantOutcome& m, const std::string& pointer) {
  check_run(path, m.run, pointer + "/run");
  MutantDecl decl;
  decl.label = m.label;
  decl.fails = m.fails;
  const MutantOutcome judged = judge_mutant(decl, m.run);
  if (judged.killed != m.killed)
    throw json_shape_error(path, pointer + "/killed",
                           fmt::format("{}, but its run's checks say the mutant {}", m.killed,
                                       judged.killed ? "was killed" : "survived"));
  if (judged.survived != m.survived)
    throw json_shape_error(path, pointer + "/survived",
                           fmt::format("[{}], but its run says [{}]", fmt::join(m.survived, ", "),
                                       fmt::join(judged.survived, ", ")));
  // The seeds: its run's among them; killed on every seed, or not killed on
  // the run's, the first of survived_seeds.
  if (std::find(m.seeds.begin(), m.seeds.end(), m.run.seed) == m.seeds.end())
    throw json_shape_error(path, pointer + "/seeds",
                           fmt::format("[{}] leaves out the seed of its run, {}", fmt::join(m.seeds, ", "), m.run.seed));
  for (const auto seed : m.survived_seeds)
    if (std::find(m.seeds.begin(), m.seeds.end(), seed) == m.seeds.end())
      throw json_shape_error(path, pointer + "/survived_seeds",
                             fmt::format("{} is not one of its seeds [{}]", seed, fmt::join(m.seeds, ", ")));
  if (m.killed != m.survived_seeds.empty() || (!m.killed && m.survived_seeds.front() != m.run.seed))
    throw json_shape_error(path, pointer + "/survived_seeds",
                           fmt::format("[{}], but the mutant {} on its run's seed {}", fmt::join(m.survived_seeds, ", "),
                                       m.killed ? "was killed" : "was not killed", m.run.seed));
}

void check_case(const std::string& path, const CaseResult& r, const std::string& pointer) {
  for (std::size_t k = 0; k < r.runs.size(); ++k) check_run(path, r.runs[k], pointer + "/runs/" + std::to_string(k));
  for (std::size_t k = 0; k < r.mutants.size(); ++k)
    check_mutant(path, r.mutants[k], pointer + "/mutants/" + std::to_string(k));
  // A case its plugin cannot run has no runs (CaseDecl::unsupported).
  if (r.status == Status::unsupported && r.runs.empty() && r.mutants.empty()) return;
  // The report does not carry the case's `xfail`: a case that says XFAIL or
  // XPASS had one.
  CaseDecl decl;
  if (r.status == Status::xfail || r.status == Status::xpass) decl.xfail = "";
  const Case c{nullptr, &decl, {}};
  const CaseResult derived = aggregate(c, r.runs, r.mutants);
  if (r.status != derived.status)
    throw json_shape_error(path, pointer + "/status",
                           fmt::format("{}, but its runs and mutants make it {}", to_string(r.status),
                                       to_string(derived.status)));
  if (r.runs_passed != derived.runs_passed)
    throw json_shape_error(path, pointer + "/runs_passed",
                           fmt::format("{}, but {} of its runs passed", r.runs_passed, derived.runs_passed));
  if (is_failure(r.status) && r.headline_seed != derived.headline_seed)
    throw json_shape_error(path, pointer + "/seed",
                           fmt::format("{}, but the run its verdict comes from has seed {}", r.headline_seed,
                                       derived.headline_seed));
}

// A report written before the states were counted apart held NOT JUDGED
// cases in `failed` and NOT EXERCISED ones in `skipped`: read it as written.
RunTotals as_written(const RunTotals& said, RunTotals counted) {
  const bool apart = said.not_judged || said.not_exercised || said.not_applicable;
  if (apart || counted.not_applicable || said.failed != counted.failed + counted.not_judged ||
      said.skipped != counted.skipped + counted.not_exercised)
    return counted;
  counted.failed += std::exchange(counted.not_judged, 0);
  counted.skipped += std::exchange(counted.not_exercised, 0);
  return counted;
}

void check_totals(const ReadReport& report) {
  RunTotals counted;
  for (const auto& c : report.cases) counted.add(c.result);
  counted = as_written(report.totals, counted);
  for (const auto& c : kTotalsCounts) {
    const std::size_t said = report.totals.*c.count, found = counted.*c.count;
    // "passed", "failed", "were skipped", "were not judged", ...
    const bool plain = c.count == &RunTotals::passed || c.count == &RunTotals::failed;
    const std::string verb = std::string(plain ? "" : "were ") + c.words;
    if (said != found)
      throw json_shape_error(report.path, std::string("/totals/") + c.key,
                             fmt::format("{}, but {} of the cases {}", said, found, verb));
  }
}

}  // namespace

void check_consistent(const ReadReport& report) {
  for (std::size_t i = 0; i < report.cases.size(); ++i)
    check_case(report.path, report.cases[i].result, "/cases/" + std::to_string(i));
  check_totals(report);
}

}  // namespace conform
