// Joining the JSON reports of the jobs of a sharded `conform check`
// (`--shard K/N --json`, gate/check_shard.hpp) into the results of the
// whole check: every case on every connection, in the order one job would
// have judged them (case, then capture, then connection), with the
// `offline` member that job would have written, so the reporters write
// the same JSON, JUnit and HTML as an unsharded check.
#pragma once

#include "gate/merge.hpp"

#include <nlohmann/json.hpp>

#include <memory>

namespace conform {

struct MergedCheck {
  std::unique_ptr<MergedRun> run;
  /// The whole check's `offline` member.
  nlohmann::json offline;
};

/// Merges `reports`, which must be every job (1..N, each once) of one
/// check: the same conform version, cases, captures, options and split
/// size, every capture judged whole by one job or split over all, each
/// connection judged by one job. Throws InputError naming the report that
/// breaks a rule (exit 2).
MergedCheck merge_check_shards(std::vector<ReadReport> reports);

}  // namespace conform
