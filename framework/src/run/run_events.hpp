// The event stream of a run that every report reads: the plan, each case's
// result in case order, and the totals (STYLE.md habit 9). The runner
// emits it; reporters (report/, gate/) implement Reporter.
#pragma once

#include "run/result.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conform {

/// What a run is about to do.
struct RunPlan {
  const std::vector<Case>* cases = nullptr;
  /// The seed of the first run of each case (`--seed`, else 1).
  std::uint64_t seed = 1;
  /// Whether `--seed` pinned every case to that one seed.
  bool seed_pinned = false;
  std::string out_dir;
  /// The arguments a replay command needs besides --seed and --filter
  /// (e.g. `--plugin-dir DIR`).
  std::vector<std::string> replay_args;
  /// When set, the command that replays a failed case (`conform check`
  /// replays from captures, not with a seed); else `conform run ...`.
  std::function<std::string(const CaseResult&)> replay;
  /// False when nothing was simulated (`conform check` judges captures
  /// made elsewhere): reports then name no seed.
  bool seeded = true;
  /// How many run at once (the console says it); 0: not said.
  unsigned jobs = 0;
};

/// The count a case of status `s` goes to, as reports name it: "passed"
/// (PASS, XFAIL), "not_judged", "not_exercised", "not_applicable",
/// "skipped" (UNSUPPORTED), "interrupted", else "failed" (FAIL, XPASS,
/// ERROR, TIMEOUT).
const char* total_bucket(Status s);

/// Counts for the closing line, each state apart, by total_bucket().
struct RunTotals {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
  std::size_t interrupted = 0;
  double duration_s = 0;
  /// Failed and interrupted cases by failure_level(), indexed by
  /// RequirementLevel; NOT JUDGED ones are counted in `not_judged` only.
  std::array<std::size_t, 3> failed_at{};
  std::size_t not_judged = 0;
  std::size_t not_exercised = 0;
  std::size_t not_applicable = 0;
  /// Every case counted but the interrupted ones.
  std::size_t finished() const;
  /// Counts `result` in its bucket and adds its duration.
  void add(const CaseResult& result);
  /// How many failed, interrupted or NOT JUDGED cases `fail_on` counts
  /// (exit code 1 when any, for commands that judge results at hand).
  std::size_t failures(FailOn fail_on) const;
};

/// One count of RunTotals as every report names it: the bucket of
/// total_bucket() (the JSON key) and the words of the closing line.
struct TotalsCount {
  std::size_t RunTotals::*count;
  const char* key;
  const char* words;
};
/// Every count, in the order the closing line gives them: `passed` and
/// `failed` first (CI parsers read them there), then each other state.
inline constexpr std::array<TotalsCount, 7> kTotalsCounts{{
    {&RunTotals::passed, "passed", "passed"},
    {&RunTotals::failed, "failed", "failed"},
    {&RunTotals::not_judged, "not_judged", "not judged"},
    {&RunTotals::not_exercised, "not_exercised", "not exercised"},
    {&RunTotals::not_applicable, "not_applicable", "not applicable"},
    {&RunTotals::skipped, "skipped", "skipped"},
    {&RunTotals::interrupted, "interrupted", "interrupted"},
}};

/// Whether a report's totals hold `c` even at 0: passed, failed, skipped.
inline bool always_in_totals(const TotalsCount& c) {
  return c.count == &RunTotals::passed || c.count == &RunTotals::failed || c.count == &RunTotals::skipped;
}

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin(const RunPlan&) {}
  /// A run of a case has ended; `done` of `total` runs are over.
  virtual void progress(std::size_t /*done*/, std::size_t /*total*/, const std::string& /*id*/) {}
  /// Called once per case, in the order of the plan's cases.
  virtual void case_done(const CaseResult& result) = 0;
  /// Called once after the last case.
  virtual void end(const RunTotals&) {}
};

}  // namespace conform
