// Sharding and baseline for `conform run`.
#include "gate/run_gate.hpp"

#include <nlohmann/json.hpp>

namespace conform {

RunGate::RunGate(const GateOptions& options) : fail_on_(options.fail_on) {
  if (!options.shard.empty()) {
    ShardSpec spec;
    if (std::string problem = parse_shard(options.shard, spec); !problem.empty())
      throw InputError({options.shard}, problem);
    shard_ = spec;
  }
  if (!options.baseline.empty())
    baseline_ = std::make_unique<BaselineReporter>(read_baseline(options.baseline), stdout, options.fail_on);
}

std::vector<Case> RunGate::select(const std::vector<Case>& all) {
  std::vector<std::string> ids;
  for (const auto& c : all) ids.push_back(c.id());
  total_ = all.size();
  digest_ = cases_digest(ids);
  if (!shard_) return all;
  return take_shard(all, *shard_, positions_);
}

void RunGate::attach(std::vector<Reporter*>& reporters, const std::vector<DocumentReporter*>& documents,
                     std::vector<std::string> replay_args) {
  if (baseline_) reporters.insert(reporters.begin() + 1, baseline_.get());
  for (DocumentReporter* document : documents) {
    if (shard_)
      document->add_section("shard", [this, replay_args] {
        return nlohmann::json{{"index", shard_->index},   {"count", shard_->count},
                              {"cases_total", total_},    {"cases_digest", digest_},
                              {"positions", positions_}, {"replay_args", replay_args}};
      });
    if (baseline_) document->add_section("baseline", [this] { return baseline_->to_json(); });
  }
}

int RunGate::exit_code(const RunTotals& totals) const {
  if (baseline_) return baseline_->comparison().failed() ? 1 : 0;
  return totals.failures(fail_on_) ? 1 : 0;
}

}  // namespace conform
