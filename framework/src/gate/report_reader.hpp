// A JSON report read back (docs/reports.md): its cases with their results,
// for `conform merge` to join shards into the reports of one whole run, and
// for `conform report` to refuse a report of the wrong shape.
#pragma once

#include "gate/check_shard.hpp"
#include "report/reporter.hpp"
#include "run/result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// One case of a report: what the reporters print of its declaration and
/// settings, and its result (whose `c` is left null: the merged list owns
/// the cases).
struct ReportedCase {
  std::string suite;
  CaseDecl decl;
  CaseSettings settings;
  CaseResult result;
};

/// The `shard` member a `conform run --shard K/N --json` report carries.
struct ShardInfo {
  std::size_t index = 0;
  std::size_t count = 0;
  /// Cases of the whole run, over all shards.
  std::size_t cases_total = 0;
  std::string cases_digest;
  /// Each of this shard's cases' index in the whole run, in report order.
  std::vector<std::size_t> positions;
  /// The plugin options of the run, for replay commands.
  std::vector<std::string> replay_args;
};

struct ReadReport {
  std::string path;
  std::string conform_version;
  std::uint64_t seed = 1;
  bool seed_pinned = false;
  std::string out_dir;
  std::optional<ShardInfo> shard;
  /// The `check_shard` member of a job of a sharded `conform check`.
  std::optional<CheckShardReport> check_shard;
  /// The `offline` member of a `conform check` report, as written.
  std::optional<nlohmann::json> offline;
  std::vector<ReportedCase> cases;
  /// The report's own `totals`, as written.
  RunTotals totals;
};

/// A report's `totals` member (docs/reports.md): passed, failed and skipped
/// always, each other state when there, and duration_s. Throws
/// std::invalid_argument (or nlohmann's type_error) with `where` left at the
/// JSON pointer of the member at fault.
RunTotals totals_from_json(const nlohmann::json& totals, std::string& where);

/// Reads the JSON report at `path`: every member that `conform merge` and
/// the HTML page read (docs/reports.md). Throws InputError naming the file
/// and the line and column (malformed JSON) or the JSON pointer of the first
/// member that is missing, of the wrong type, or out of range (an unknown
/// status, a negative duration_s, a seed or count that is not an integer at
/// least 0, a failure without its seed), e.g. `r.json: at /cases/1/runs:
/// expected an array`, or of the first verdict that contradicts its runs
/// (gate/report_consistency.hpp).
ReadReport read_report(const std::string& path);

/// As read_report, from a document already parsed from `path`.
ReadReport report_from_json(const std::string& path, const nlohmann::json& doc);

}  // namespace conform
