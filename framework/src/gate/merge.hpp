// Joining the JSON reports of the shards of one run (`conform run --shard
// K/N --json`) into the results of the whole run, in its case order, so the
// reporters write one JSON, one JUnit file and one verdict as if it had run
// in one job.
#pragma once

#include "gate/report_reader.hpp"
#include "report/reporter.hpp"

#include <deque>
#include <memory>

namespace conform {

/// The whole run: its cases (owned here: results and the plan point into
/// them, so a MergedRun never moves), results in case order, and totals.
struct MergedRun {
  std::deque<SuiteFile> suites;
  std::deque<CaseDecl> decls;
  std::vector<Case> cases;
  std::vector<CaseResult> results;
  RunPlan plan;
  RunTotals totals;
  /// Per shard, in shard order: its report file and artifact folder.
  std::vector<std::pair<std::string, std::string>> shards;
};

/// Moves the cases and results of `order` into `run`, in that order, and
/// counts them.
void take_cases(MergedRun& run, const std::vector<ReportedCase*>& order);

/// Merges `reports`, which must be every shard (1..N, each once) of one
/// run: the same conform version, seed, shard count and case list (same
/// digest), no case twice. Throws InputError naming the report that breaks
/// a rule (exit 2): the union of the shards must be exactly the whole run.
std::unique_ptr<MergedRun> merge_shards(std::vector<ReadReport> reports);

}  // namespace conform
