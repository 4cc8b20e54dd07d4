// A case's verdict from its runs and mutants.
#include "run/aggregate.hpp"

#include "suite/check_selector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace conform {
namespace {

std::string first_failure(const RunRecord& run) {
  if (run.status != Status::fail) return run.reason;
  for (const auto& c : run.checks) {
    if (c.result.verdict != Verdict::fail) continue;
    std::string line = fmt::format("{} [{}]: {}", c.check, to_string(c.level), c.result.summary);
    for (const auto& e : c.result.evidence) {
      if (e.capture.empty()) continue;
      line += " [" + e.capture;
      if (e.frame) line += fmt::format(" frame {}", e.frame);
      if (e.time_ns >= 0) line += fmt::format(" at {:.6f} s", e.time_ns / 1e9);
      line += ": " + e.text + "]";
      break;
    }
    return line;
  }
  return run.reason.empty() ? "a check failed" : run.reason;
}

// Lower is worse; the case takes its status from its worst run.
int rank(Status s) {
  switch (s) {
    case Status::error: return 0;
    case Status::timeout: return 1;
    case Status::fail: return 2;
    case Status::interrupted: return 3;
    case Status::not_judged: return 4;
    case Status::not_exercised: return 5;
    case Status::not_applicable: return 6;
    case Status::pass: return 7;
    default: return 8;
  }
}

}  // namespace

MutantOutcome judge_mutant(const MutantDecl& mutant, RunRecord run) {
  MutantOutcome m{mutant.label, mutant.fails, std::move(run), {}, false, {}, {}};
  // A run that timed out (a deadlock, the commonest symptom of the faults
  // mutants model) was judged on the captures it left.
  const std::array judged{Status::pass, Status::fail, Status::not_exercised, Status::timeout};
  // No checks: killed before it could be judged (the wall-clock limit).
  if (std::find(judged.begin(), judged.end(), m.run.status) == judged.end() || m.run.checks.empty()) return m;
  for (const auto& entry : mutant.fails) {
    std::string problem;
    const auto selector = parse_check_selector(entry, problem);
    for (const auto& c : m.run.checks)
      if (selector && selects(*selector, c.check, c.params) && c.result.verdict != Verdict::fail) {
        m.survived.push_back(entry);
        break;
      }
  }
  m.killed = m.survived.empty();
  return m;
}

MutantOutcome judge_mutant(const MutantDecl& mutant, std::vector<RunRecord> runs) {
  std::vector<std::uint64_t> seeds, survived_seeds;
  // The outcome shown: the first seed's, replaced by the first survivor's.
  std::optional<MutantOutcome> shown;
  for (auto& run : runs) {
    seeds.push_back(run.seed);
    MutantOutcome m = judge_mutant(mutant, std::move(run));
    if (!m.killed) survived_seeds.push_back(m.run.seed);
    if (!shown || (!m.killed && survived_seeds.size() == 1)) shown = std::move(m);
  }
  MutantOutcome out = shown ? std::move(*shown) : MutantOutcome{};
  out.seeds = std::move(seeds);
  out.survived_seeds = std::move(survived_seeds);
  return out;
}

CaseResult aggregate(const Case& c, std::vector<RunRecord> runs, std::vector<MutantOutcome> mutants) {
  CaseResult result;
  result.c = &c;
  result.runs = std::move(runs);
  result.mutants = std::move(mutants);
  for (const auto& r : result.runs) result.duration_s += r.duration_s;
  for (const auto& m : result.mutants) result.duration_s += m.run.duration_s;
  result.runs_passed = std::count_if(result.runs.begin(), result.runs.end(),
                                     [](const RunRecord& r) { return r.status == Status::pass; });

  bool all_unsupported = !result.runs.empty() &&
      std::all_of(result.runs.begin(), result.runs.end(),
                  [](const RunRecord& r) { return r.status == Status::unsupported; });
  if (all_unsupported) {
    result.status = Status::unsupported;
    result.headline = result.runs.front().reason;
    return result;
  }
  const RunRecord* worst = nullptr;
  for (const auto& r : result.runs)
    if (!worst || rank(r.status) < rank(worst->status)) worst = &r;
  result.status = worst ? worst->status : Status::pass;
  if (result.status == Status::unsupported) result.status = Status::pass;
  if (worst && worst->status != Status::pass) {
    result.headline = first_failure(*worst);
    result.headline_seed = worst->seed;
  }
  // The case's own runs may be expected to fail; a surviving mutant never
  // is, so xfail is settled first and a mutant can still fail the case,
  // whether its runs passed (XPASS) or failed as expected (XFAIL).
  if (c.decl->xfail) {
    if (result.status == Status::fail) {
      result.status = Status::xfail;
      result.headline = *c.decl->xfail + " (" + result.headline + ")";
    } else if (result.status == Status::pass) {
      result.status = Status::xpass;
      result.headline = "passed, but the case says it fails: " + *c.decl->xfail;
      // Every run passed: replaying the first shows the unexpected pass.
      if (!result.runs.empty()) result.headline_seed = result.runs.front().seed;
    }
  }
  if (result.status == Status::pass || result.status == Status::xpass || result.status == Status::xfail) {
    for (const auto& m : result.mutants) {
      if (m.killed) continue;
      result.status = m.run.status == Status::interrupted ? Status::interrupted : Status::fail;
      result.headline_seed = m.run.seed;
      if (result.status == Status::interrupted)
        result.headline = fmt::format("mutant {}: {}", m.label, m.run.reason);
      else if (!m.survived.empty())
        result.headline = fmt::format("mutant survived: check {} passed with {}",
                                      fmt::join(m.survived, ", "), m.label);
      else
        result.headline = fmt::format("mutant {} could not be judged: {} {}", m.label,
                                      to_string(m.run.status), m.run.reason);
      break;
    }
  }
  return result;
}

}  // namespace conform
