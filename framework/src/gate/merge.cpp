// Checking that shard reports make one whole run, and joining them.
#include "gate/merge.hpp"

#include "common/input_error.hpp"

#include <fmt/format.h>

#include <map>

namespace conform {

namespace {

// Every rule a set of shard reports must keep; throws naming the culprit.
void check_shards(const std::vector<ReadReport>& reports) {
  const ReadReport& first = reports.front();
  for (const auto& r : reports)
    if (!r.shard)
      throw InputError({r.path}, "not a shard report (no \"shard\" member): write it with "
                                 "`conform run --shard K/N --json FILE` (or a check's with `conform check --shard "
                                 "K/N --json FILE`)");
  std::map<std::size_t, const ReadReport*> by_index;
  std::map<std::string, const ReadReport*> by_case;
  for (const auto& r : reports) {
    const ShardInfo& s = *r.shard;
    if (r.conform_version != first.conform_version)
      throw InputError({r.path}, fmt::format("written by conform {}, but {} by conform {}: rerun the "
                                             "shards with one conform", r.conform_version, first.path,
                                             first.conform_version));
    if (s.count != first.shard->count || s.cases_digest != first.shard->cases_digest)
      throw InputError({r.path}, fmt::format("a shard of another run than {} (other suites, filters, "
                                             "plugins or shard count: {} case{} in {} shards there, {} in {} here)",
                                             first.path, first.shard->cases_total,
                                             first.shard->cases_total == 1 ? "" : "s",
                                             first.shard->count, s.cases_total, s.count));
    if (r.seed != first.seed || r.seed_pinned != first.seed_pinned)
      throw InputError({r.path}, fmt::format("run with seed {}{}, but {} with seed {}{}", r.seed,
                                             r.seed_pinned ? " (pinned)" : "", first.path, first.seed,
                                             first.seed_pinned ? " (pinned)" : ""));
    if (auto [it, fresh] = by_index.emplace(s.index, &r); !fresh)
      throw InputError({r.path}, fmt::format("shard {}/{} again (also {})", s.index, s.count, it->second->path));
    if (s.positions.size() != r.cases.size())
      throw InputError({r.path}, "the shard's positions do not match its cases: the report was edited");
    for (const auto& c : r.cases)
      if (auto [it, fresh] = by_case.emplace(c.decl.id, &r); !fresh)
        throw InputError({r.path}, fmt::format("case '{}' is also in {}: shards must not overlap",
                                               c.decl.id, it->second->path));
  }
  std::vector<std::string> missing;
  for (std::size_t k = 1; k <= first.shard->count; ++k)
    if (!by_index.count(k)) missing.push_back(fmt::format("{}/{}", k, first.shard->count));
  if (!missing.empty())
    throw InputError({first.path}, fmt::format("shard{} {} missing: the merge would not be the whole run",
                                               missing.size() == 1 ? "" : "s", fmt::join(missing, ", ")));
  if (by_case.size() != first.shard->cases_total)
    throw InputError({first.path}, fmt::format("the shards hold {} cases, the run had {}: a report was edited",
                                               by_case.size(), first.shard->cases_total));
}

}  // namespace

void take_cases(MergedRun& run, const std::vector<ReportedCase*>& order) {
  std::map<std::string, const SuiteFile*> suites;
  for (ReportedCase* rc : order) {
    auto& suite = suites[rc->suite];
    if (!suite) suite = &run.suites.emplace_back(SuiteFile{rc->suite, "", "", {}});
    const CaseDecl& decl = run.decls.emplace_back(std::move(rc->decl));
    run.cases.push_back({suite, &decl, std::move(rc->settings)});
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    CaseResult& r = run.results.emplace_back(std::move(order[i]->result));
    r.c = &run.cases[i];
    run.totals.add(r);
  }
}

std::unique_ptr<MergedRun> merge_shards(std::vector<ReadReport> reports) {
  check_shards(reports);
  // check_shards made sure each shard is there once.
  std::vector<ReadReport*> shards(reports.front().shard->count);
  for (auto& r : reports) shards[r.shard->index - 1] = &r;
  // Each case at its position in the whole run.
  const std::size_t total = reports.front().shard->cases_total;
  std::vector<ReportedCase*> order(total, nullptr);
  for (ReadReport* r : shards)
    for (std::size_t i = 0; i < r->cases.size(); ++i) {
      const std::size_t at = r->shard->positions[i];
      if (at >= total || order[at])
        throw InputError({r->path}, fmt::format("case '{}' has position {}, taken or past the run's {} cases: "
                                                "the report was edited", r->cases[i].decl.id, at, total));
      order[at] = &r->cases[i];
    }

  auto run = std::make_unique<MergedRun>();
  take_cases(*run, order);
  const ReadReport& first = *shards.front();
  run->plan = {&run->cases, first.seed, first.seed_pinned, first.out_dir, first.shard->replay_args, {}};
  for (const ReadReport* r : shards) run->shards.emplace_back(r->path, r->out_dir);
  return run;
}

}  // namespace conform
