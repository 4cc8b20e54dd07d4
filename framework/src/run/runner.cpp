// Scheduling the runs of a case list and reporting them in order.
#include "run/runner.hpp"

#include "common/input_error.hpp"
#include "run/aggregate.hpp"
#include "run/earlier_results.hpp"
#include "run/execute.hpp"
#include "run/isolate.hpp"
#include "run/record_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace conform {
namespace fs = std::filesystem;

std::string case_folder(const std::string& id) {
  // Percent-encoding keeps distinct ids in distinct folders: "a b" is
  // a%20b, "a_b" stays, ".." is %2E%2E, and '@' (which marks the folders
  // of seeds and mutants) is %40.
  constexpr std::size_t kMaxComponent = 200;
  std::string out, part;
  auto flush = [&] {
    // A bare '%' never comes out of the encoding, so it can stand for an
    // empty component ("a//b"); "." and ".." would climb the tree.
    if (part.empty()) part = "%";
    if (part == "." || part == "..") part = part == "." ? "%2E" : "%2E%2E";
    if (part.size() > kMaxComponent)
      part = part.substr(0, kMaxComponent - 17) + fmt::format("~{:016x}", std::hash<std::string>{}(part));
    out += (out.empty() ? "" : "/") + part;
    part.clear();
  };
  for (char ch : id) {
    if (ch == '/') {
      flush();
      continue;
    }
    bool safe = std::isalnum(static_cast<unsigned char>(ch)) ||
                std::string_view("._=,+[]-").find(ch) != std::string_view::npos;
    part += safe ? std::string(1, ch) : fmt::format("%{:02X}", static_cast<unsigned char>(ch));
  }
  flush();
  return out;
}

namespace {

// One child run and where its record goes.
struct Slot {
  std::size_t case_index;
  /// Index into the case's mutants, or -1 for the case itself.
  int mutant;
  std::size_t seed_index;
  RunJob job;
  double timeout_s;
};

struct CaseProgress {
  std::vector<std::optional<RunRecord>> runs;
  /// By mutant, then seed.
  std::vector<std::vector<std::optional<RunRecord>>> mutants;
  std::size_t pending = 0;
};

RunRecord record_of(const Slot& slot, const ChildResult& child) {
  RunRecord record;
  if (child.end == ChildResult::End::exited && child.code == 0 && !child.output.empty()) {
    try {
      record = record_from_json(nlohmann::json::parse(child.output));
    } catch (const std::exception& e) {
      record.status = Status::error;
      record.reason = std::string("unreadable result from the child run: ") + e.what();
    }
  } else if (child.end == ChildResult::End::timed_out) {
    record.status = Status::timeout;
    record.reason = fmt::format("no end after {:g} s (timeout)", slot.timeout_s);
  } else if (child.end == ChildResult::End::signaled) {
    record.status = Status::error;
    record.reason = "the run crashed: " + describe_signal(child.code);
  } else if (child.end == ChildResult::End::interrupted) {
    record.status = Status::interrupted;
    record.reason = fmt::format("stopped after {:.2f} s: the run was interrupted by {}", child.duration_s,
                                signal_name(child.code));
  } else {
    record.status = Status::error;
    record.reason = fmt::format("the run exited with status {} before reporting", child.code);
  }
  record.seed = slot.job.seed;
  record.mutant = slot.job.mutant ? slot.job.mutant->label : "";
  record.artifact_dir = slot.job.artifact_dir;
  record.duration_s = child.duration_s;
  return record;
}

void write_verdict(const RunRecord& record) {
  std::error_code ec;
  fs::create_directories(record.artifact_dir, ec);
  std::ofstream(fs::path(record.artifact_dir) / "verdict.json")
      << to_json(record).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// How many seeds each run of `c` takes: the case's, or the one of --seed.
std::size_t seeds_of(const Case& c, const RunOptions& options) {
  return options.seed ? 1 : static_cast<std::size_t>(c.decl->seeds);
}

std::vector<Slot> plan_slots(const std::vector<Case>& cases, const RunOptions& options,
                             const fs::path& out) {
  std::vector<Slot> slots;
  const std::uint64_t base = options.seed.value_or(1);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    if (!c.decl->unsupported.empty()) continue;
    const std::size_t seeds = seeds_of(c, options);
    const fs::path dir = out / case_folder(c.id());
    const double timeout = c.decl->timeout_s.value_or(options.timeout_s);
    const auto seed_dir = [&](const fs::path& d, std::size_t s) {
      return (seeds > 1 ? d / fmt::format("@seed-{}", base + s) : d).string();
    };
    for (std::size_t s = 0; s < seeds; ++s)
      slots.push_back({i, -1, s, {&c, nullptr, base + s, seed_dir(dir, s)}, timeout});
    // A mutant runs on every seed of its case: a check that catches the
    // fault on lucky seeds only is not proven.
    for (std::size_t m = 0; m < c.decl->mutants.size(); ++m)
      for (std::size_t s = 0; s < seeds; ++s)
        slots.push_back({i, static_cast<int>(m), s,
                         {&c, &c.decl->mutants[m], base + s, seed_dir(dir / fmt::format("@mutant-{}", m + 1), s)},
                         timeout});
  }
  return slots;
}

// A run that never started because the run was interrupted.
RunRecord not_started(const Slot& slot, int signal) {
  RunRecord record;
  record.status = Status::interrupted;
  record.reason = "not started: the run was interrupted by " + signal_name(signal);
  record.seed = slot.job.seed;
  record.mutant = slot.job.mutant ? slot.job.mutant->label : "";
  return record;
}

}  // namespace

RunTotals run_cases(const std::vector<Case>& cases, const PluginSet& plugins,
                    const CheckRegistry& checks, const RunOptions& options,
                    const std::vector<Reporter*>& reporters, Interruption& interruption) {
  const fs::path out = fs::absolute(options.out_dir);
  RunPlan plan{&cases, options.seed.value_or(1), options.seed.has_value(), out.string(),
               options.replay_args, {}};
  plan.jobs = options.jobs;
  for (auto* r : reporters) r->begin(plan);

  std::vector<Slot> slots = plan_slots(cases, options, out);
  std::vector<CaseProgress> progress(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::size_t seeds = seeds_of(cases[i], options);
    progress[i].runs.resize(seeds);
    progress[i].mutants.assign(cases[i].decl->mutants.size(), std::vector<std::optional<RunRecord>>(seeds));
  }
  std::vector<ChildTask> tasks;
  for (const auto& slot : slots) {
    ++progress[slot.case_index].pending;
    std::error_code ec;
    fs::create_directories(slot.job.artifact_dir, ec);
    if (ec)
      throw InputError({slot.job.artifact_dir},
                       "cannot create the artifact folder of case '" + slot.job.c->id() + "': " + ec.message());
    Plugin& plugin = plugins.find(slot.job.c->decl->plugin)->plugin();
    tasks.push_back({[&slot, &plugin, &checks] {
                       // Paths and ids need not be UTF-8; JSON must be.
                       return to_json(execute_run(slot.job, plugin, checks))
                           .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
                     },
                     slot.timeout_s, (fs::path(slot.job.artifact_dir) / "log.txt").string(),
                     plugin.info().stop_grace_ms / 1000.0});
  }

  RunTotals totals;
  std::size_t next_report = 0, done = 0;
  auto report_ready = [&] {
    while (next_report < cases.size() && progress[next_report].pending == 0) {
      const Case& c = cases[next_report];
      CaseProgress& p = progress[next_report];
      CaseResult result;
      if (!c.decl->unsupported.empty()) {
        result.c = &c;
        result.status = Status::unsupported;
        result.headline = c.decl->unsupported;
      } else {
        std::vector<RunRecord> runs;
        for (auto& r : p.runs) runs.push_back(std::move(*r));
        std::vector<MutantOutcome> mutants;
        for (std::size_t m = 0; m < p.mutants.size(); ++m) {
          std::vector<RunRecord> seeds;
          for (auto& r : p.mutants[m]) seeds.push_back(std::move(*r));
          mutants.push_back(judge_mutant(c.decl->mutants[m], std::move(seeds)));
        }
        result = aggregate(c, std::move(runs), std::move(mutants));
      }
      totals.add(result);
      for (auto* r : reporters) r->case_done(result);
      ++next_report;
    }
  };
  report_ready();
  auto record_run = [&](const Slot& slot, RunRecord record) {
    CaseProgress& p = progress[slot.case_index];
    std::optional<RunRecord>& place =
        slot.mutant < 0 ? p.runs[slot.seed_index] : p.mutants[slot.mutant][slot.seed_index];
    if (place) return;
    place = std::move(record);
    --p.pending;
  };
  run_isolated(tasks, options.jobs, interruption, [&](std::size_t index, ChildResult child) {
    const Slot& slot = slots[index];
    RunRecord record = record_of(slot, child);
    write_verdict(record);
    record_results(out.string(), record.artifact_dir);
    record_run(slot, std::move(record));
    ++done;
    for (auto* r : reporters) r->progress(done, tasks.size(), slot.job.c->id());
    report_ready();
  });
  if (const int signal = interruption.signal()) {
    for (const auto& slot : slots) {
      const std::size_t before = progress[slot.case_index].pending;
      record_run(slot, not_started(slot, signal));
      // The folder made for a run that never started.
      if (progress[slot.case_index].pending < before) remove_empty_folders(slot.job.artifact_dir, out.string());
    }
    report_ready();
  }
  for (auto* r : reporters) r->end(totals);
  return totals;
}

}  // namespace conform
