// Checking that the jobs of a sharded check make one whole check, and joining them.
#include "gate/check_merge.hpp"

#include "common/input_error.hpp"
#include "offline/offline_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace conform {

namespace {

const CheckShardReport& job(const ReadReport& r) { return *r.check_shard; }

bool same(const CheckShardReport::Capture& a, const CheckShardReport::Capture& b) {
  return a.file == b.file && a.bytes == b.bytes && a.split == b.split;
}

// The job's captures and places are those its plan gives it.
void check_plan(const ReadReport& r) {
  const CheckShardReport& s = job(r);
  std::vector<std::uintmax_t> sizes;
  for (const auto& c : s.captures) sizes.push_back(c.bytes);
  const auto shares = plan_check_shard(sizes, s.spec, s.split_bytes);
  for (std::size_t k = 0; k < shares.size(); ++k)
    if (shares[k].read != s.captures[k].read || shares[k].split != s.captures[k].split)
      throw InputError({r.path}, fmt::format("capture {} is {} by job {}/{}, against the plan of the captures' "
                                             "sizes: the report was edited",
                                             s.captures[k].file, s.captures[k].read ? "read" : "not read",
                                             s.spec.index, s.spec.count));
  for (const auto& p : s.judged)
    if (s.captures[p.capture].split && !judges_connection(p.capture, p.connection, s.spec))
      throw InputError({r.path}, fmt::format("judges connection {} of {}, which is another job's: the report was "
                                             "edited",
                                             p.connection, s.captures[p.capture].file));
}

// The rules every job keeps alone, and against the first.
void check_jobs(const std::vector<ReadReport>& reports) {
  const auto with_member = std::find_if(reports.begin(), reports.end(), [](auto& r) { return r.check_shard; });
  for (const auto& r : reports)
    if (!r.check_shard)
      throw InputError({r.path}, fmt::format("not a job of a sharded check (no \"check_shard\" member), unlike {}: "
                                             "write each with `conform check --shard K/N --json FILE`",
                                             with_member->path));
  const ReadReport& first = reports.front();
  std::map<std::size_t, const ReadReport*> by_index;
  for (const auto& r : reports) {
    const CheckShardReport& s = job(r);
    const CheckShardReport& f = job(first);
    if (r.conform_version != first.conform_version)
      throw InputError({r.path}, fmt::format("written by conform {}, but {} by conform {}: rerun the jobs with "
                                             "one conform",
                                             r.conform_version, first.path, first.conform_version));
    if (s.spec.count != f.spec.count)
      throw InputError({r.path}, fmt::format("a job of {} shards, but {} of {}", s.spec.count, first.path,
                                             f.spec.count));
    if (s.cases_digest != f.cases_digest)
      throw InputError({r.path}, fmt::format("judged other cases than {} (other suites, filters or sections)",
                                             first.path));
    if (s.inputs_digest != f.inputs_digest || s.split_bytes != f.split_bytes)
      throw InputError({r.path}, fmt::format("judged other captures than {} (other files or sizes, key logs, "
                                             "vantages, plugins or --split-bytes)",
                                             first.path));
    if (auto [it, fresh] = by_index.emplace(s.spec.index, &r); !fresh)
      throw InputError({r.path}, fmt::format("shard {}/{} again (also {})", s.spec.index, s.spec.count,
                                             it->second->path));
    if (s.judged.size() != r.cases.size())
      throw InputError({r.path}, "the job's places do not match its cases: the report was edited");
    if (s.captures.size() != f.captures.size() ||
        !std::equal(s.captures.begin(), s.captures.end(), f.captures.begin(), same) ||
        s.cases_total != f.cases_total || s.replay_inputs != f.replay_inputs)
      throw InputError({r.path}, fmt::format("its captures or cases differ from those of {} under the same "
                                             "digests: a report was edited",
                                             first.path));
    check_plan(r);
  }
  std::vector<std::string> missing;
  for (std::size_t k = 1; k <= job(first).spec.count; ++k)
    if (!by_index.count(k)) missing.push_back(fmt::format("{}/{}", k, job(first).spec.count));
  if (!missing.empty())
    throw InputError({first.path}, fmt::format("shard{} {} missing: the merge would not be the whole check",
                                               missing.size() == 1 ? "" : "s", fmt::join(missing, ", ")));
}

// The `offline` member's captures of job `r`, by their index in the list.
std::map<std::size_t, const nlohmann::json*> captures_read(const ReadReport& r) {
  std::map<std::size_t, const nlohmann::json*> out;
  const auto* list = r.offline ? &(*r.offline)["captures"] : nullptr;
  std::size_t next = 0;
  for (std::size_t k = 0; k < job(r).captures.size(); ++k) {
    if (!job(r).captures[k].read) continue;
    if (!list || !list->is_array() || next >= list->size())
      throw InputError({r.path}, "its \"offline\" member lists fewer captures than it read: the report was edited");
    out[k] = &(*list)[next++];
  }
  return out;
}

// The labels of the connections a job judged, by (capture, connection):
// looked up once per case, so read once per job.
std::map<std::pair<std::size_t, std::size_t>, std::string> unit_labels(
    const std::map<std::size_t, const nlohmann::json*>& read) {
  std::map<std::pair<std::size_t, std::size_t>, std::string> out;
  for (const auto& [k, capture] : read)
    for (const auto& u : capture->at("units"))
      out[{k, u.at("connection").get<std::size_t>()}] = u.at("label").get<std::string>();
  return out;
}

// One capture's `offline` entry for the whole check: a split capture's
// connections gathered from every job, each once.
nlohmann::json whole_capture(std::size_t k, const std::vector<ReadReport*>& jobs,
                             const std::vector<std::map<std::size_t, const nlohmann::json*>>& read) {
  std::vector<std::size_t> readers;
  for (std::size_t s = 0; s < jobs.size(); ++s)
    if (read[s].count(k)) readers.push_back(s);
  const auto& c = job(*jobs.front()).captures[k];
  const std::string name = c.file;
  if (!c.split && readers.size() != 1)
    throw InputError({jobs.front()->path}, fmt::format("capture {} was judged whole by {} jobs, not one: the "
                                                       "reports were edited",
                                                       name, readers.size()));
  if (c.split && readers.size() != jobs.size())
    throw InputError({jobs.front()->path}, fmt::format("capture {} is split by connection, but only {} of {} "
                                                       "jobs read it: the reports were edited",
                                                       name, readers.size(), jobs.size()));
  nlohmann::json entry = *read[readers.front()].at(k);
  std::map<std::uint64_t, nlohmann::json> units;
  for (std::size_t s : readers) {
    const auto& own = job(*jobs[s]).captures[k];
    if (own.connections != job(*jobs[readers.front()]).captures[k].connections)
      throw InputError({jobs[s]->path}, fmt::format("counts {} connections in {}, {} {}: the reports were edited",
                                                    own.connections, name, jobs[readers.front()]->path,
                                                    job(*jobs[readers.front()]).captures[k].connections));
    for (const auto& u : read[s].at(k)->at("units")) {
      const auto n = u.at("connection").get<std::uint64_t>();
      if (!units.emplace(n, u).second)
        throw InputError({jobs[s]->path}, fmt::format("connection {} of {} is also judged by another job: "
                                                      "shards must not overlap",
                                                      n, name));
    }
  }
  const std::size_t total = job(*jobs[readers.front()]).captures[k].connections;
  if (units.size() != total)
    throw InputError({jobs.front()->path}, fmt::format("the jobs hold {} of the {} connections of {}: the reports "
                                                       "were edited",
                                                       units.size(), total, name));
  entry["units"] = nlohmann::json::array();
  for (auto& [n, u] : units) entry["units"].push_back(std::move(u));
  return entry;
}

// The jobs' cases in the whole check's order, and its `offline` member.
MergedCheck merge_jobs(std::vector<ReadReport>& reports) {
  std::vector<ReadReport*> jobs(job(reports.front()).spec.count);
  for (auto& r : reports) jobs[job(r).spec.index - 1] = &r;
  std::vector<std::map<std::size_t, const nlohmann::json*>> read;
  for (const ReadReport* r : jobs) read.push_back(captures_read(*r));

  MergedCheck merged;
  merged.offline = jobs.front()->offline.value_or(nlohmann::json::object());
  merged.offline["captures"] = nlohmann::json::array();
  for (std::size_t k = 0; k < job(*jobs.front()).captures.size(); ++k)
    merged.offline["captures"].push_back(whole_capture(k, jobs, read));

  // Each case at its place in the whole check, its id that of its case
  // (the same in every job) on its connection.
  std::map<CheckShardReport::Place, ReportedCase*> places;
  std::map<std::size_t, std::string> declared;
  for (std::size_t s = 0; s < jobs.size(); ++s) {
    ReadReport& r = *jobs[s];
    const auto labels = unit_labels(read[s]);
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
      const auto& place = job(r).judged[i];
      ReportedCase& rc = r.cases[i];
      const auto found = labels.find({place.capture, place.connection});
      const std::string label = found == labels.end() ? "" : found->second;
      const std::string suffix = " @ " + label;
      const std::string& id = rc.decl.id;
      if (label.empty() || id.size() <= suffix.size() || id.compare(id.size() - suffix.size(), suffix.size(), suffix))
        throw InputError({r.path}, fmt::format("case '{}' is placed on connection {} of {}, not its own: the "
                                               "report was edited",
                                               id, place.connection, job(r).captures[place.capture].file));
      const std::string own = id.substr(0, id.size() - suffix.size());
      if (auto [it, fresh] = declared.emplace(place.case_index, own); !fresh && it->second != own)
        throw InputError({r.path}, fmt::format("case {} is '{}' here and '{}' in another job: the report was "
                                               "edited",
                                               place.case_index, own, it->second));
      if (!places.emplace(place, &rc).second)
        throw InputError({r.path}, fmt::format("case '{}' is also judged by another job: shards must not overlap",
                                               id));
    }
  }
  if (declared.size() == job(*jobs.front()).cases_total) {
    std::vector<std::string> ids;
    for (const auto& [index, id] : declared) ids.push_back(id);
    if (cases_digest(ids) != job(*jobs.front()).cases_digest)
      throw InputError({jobs.front()->path}, "the jobs' case ids are not those their digest was made of: a report "
                                             "was edited");
  }
  // As one job would have said it, exit 2.
  if (places.empty())
    throw InputError({jobs.front()->path}, "no chosen case judges what the captures hold, in any job: name a suite "
                                           "of the checks of their connections (suites/tcp judges TCP, "
                                           "suites/capture QUIC)");
  std::vector<ReportedCase*> order;
  for (auto& [place, rc] : places) {
    // The case's declared id, for its replay command's --filter.
    rc->decl.id = declared.at(place.case_index);
    order.push_back(rc);
  }
  merged.run = std::make_unique<MergedRun>();
  MergedRun& run = *merged.run;
  take_cases(run, order);
  const ReadReport& first = *jobs.front();
  run.plan = {&run.cases, first.seed, first.seed_pinned, first.out_dir, {}, check_replay(job(first).replay_inputs)};
  run.plan.seeded = false;
  for (const ReadReport* r : jobs) run.shards.emplace_back(r->path, r->out_dir);
  return merged;
}

}  // namespace

MergedCheck merge_check_shards(std::vector<ReadReport> reports) {
  check_jobs(reports);
  try {
    return merge_jobs(reports);
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's message without its "[json.exception.type_error.302] " tag.
    const std::string what = e.what();
    const auto tag = what.find("] ");
    throw InputError({reports.front().path}, "a job's \"offline\" member is not as conform writes it: " +
                                                 (tag == std::string::npos ? what : what.substr(tag + 2)));
  }
}

}  // namespace conform