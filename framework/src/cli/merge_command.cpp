// `conform merge`.
#include "cli/merge_command.hpp"

#include "cli/commands.hpp"
#include "cli/gate_options.hpp"
#include "gate/check_merge.hpp"
#include "gate/report_set.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace conform {

CLI::App* add_merge_command(CLI::App& app, MergeCommandOptions& options) {
  auto* cmd = app.add_subcommand(
      "merge", "join the JSON reports of a run's shards (run --shard K/N --json) or of a check's jobs (check "
      "--shard K/N --json) into one report and verdict");
  cmd->add_option("reports", options.reports, "the JSON report of every shard or job")->required()->type_name("REPORT");
  add_report_options(*cmd, options.report);
  return cmd;
}

int command_merge(const MergeCommandOptions& options) {
  std::vector<ReadReport> reports;
  for (const auto& path : options.reports) reports.push_back(read_report(path));
  ReportSet set(options.report, options.reports);

  // The jobs of a sharded check, or the shards of a run.
  const bool check = std::any_of(reports.begin(), reports.end(), [](const ReadReport& r) { return r.check_shard; });
  MergedCheck merged;
  if (check) {
    merged = merge_check_shards(std::move(reports));
    set.add_section("offline", [&merged] { return merged.offline; });
    // What the whole check would have warned of (a capture cut short).
    for (const auto& capture : merged.offline["captures"])
      for (const auto& w : capture.value("warnings", nlohmann::json::array()))
        fmt::print(stderr, "warning: {}\n", w.get<std::string>());
  } else {
    merged.run = merge_shards(std::move(reports));
  }
  const std::unique_ptr<MergedRun>& run = merged.run;
  if (options.report.verbosity != Verbosity::quiet) {
    std::vector<std::string> names;
    for (std::size_t k = 0; k < run->shards.size(); ++k)
      names.push_back(fmt::format("{} ({}/{})", run->shards[k].first, k + 1, run->shards.size()));
    fmt::print("merged {} shard{}: {}\n", names.size(), names.size() == 1 ? "" : "s", fmt::join(names, ", "));
  }

  set.add_section("merged_from", [&] {
    nlohmann::json shards = nlohmann::json::array();
    for (std::size_t k = 0; k < run->shards.size(); ++k)
      shards.push_back({{"shard", k + 1}, {"report", run->shards[k].first}, {"out_dir", run->shards[k].second}});
    return shards;
  });
  return set.report(run->plan, run->results, run->totals);
}

}  // namespace conform
