// Judging cases against captures made elsewhere.
#include "offline/offline_check.hpp"

#include "capture/pcapng_secrets.hpp"
#include "check/quic/support/quic_check.hpp"
#include "common/task_pool.hpp"
#include "common/input_error.hpp"
#include "run/aggregate.hpp"
#include "run/execute.hpp"
#include "run/isolate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace conform {

std::vector<Case> offline_cases(const std::vector<Case>& expanded) {
  std::vector<Case> out;
  std::set<const CaseDecl*> seen;
  for (const auto& c : expanded) {
    if (!seen.insert(c.decl).second) continue;
    Case one{c.suite, c.decl, {}};
    one.settings.id = c.decl->id;
    one.settings.scenario = c.decl->scenario;
    out.push_back(std::move(one));
  }
  return out;
}

std::vector<std::string> named_vantages(const std::vector<Case>& cases) {
  std::set<std::string> names;
  for (const auto& c : cases)
    for (const auto& e : c.decl->expects)
      if (auto it = e.params.find("vantage"); it != e.params.end())
        if (const auto* v = std::get_if<std::string>(&it->second)) names.insert(*v);
  names.erase("client");
  names.erase("server");
  return {names.begin(), names.end()};
}

dissect::KeyLog capture_keys(const std::string& capture, const std::vector<KeyLogFile>& keylogs,
                             CaptureKeyText& text, std::string& sources) {
  dissect::KeyLog keys;
  text = {};
  const auto blocks = read_pcapng_secrets(capture);
  sources = keylogs.empty() ? "no --keylog given" : "key logs:";
  for (const auto& k : keylogs) sources += " " + k.path;
  if (!blocks.empty()) sources += fmt::format(", {} Decryption Secrets Block{} in the capture", blocks.size(),
                                              blocks.size() == 1 ? "" : "s");
  for (const auto& block : blocks) {
    dissect::merge_key_log(keys, dissect::parse_key_log(block.key_log, block.source(capture)));
    text.embedded += block.key_log;
    if (!text.embedded.empty() && text.embedded.back() != '\n') text.embedded += '\n';
  }
  for (const auto& k : keylogs) {
    dissect::merge_key_log(keys, dissect::parse_key_log(k.text, k.path));
    text.files.push_back(k.text);
  }
  dissect::require_well_formed(keys);
  return keys;
}

namespace {

// `text` with every vantage file name of the unit ("server.pcap") spelled as
// the capture the user gave: one vantage point, one file. Names are matched
// whole, so "myclient.pcap" stays itself.
std::string name_original(const std::string& text, const std::string& original,
                          const std::vector<std::string>& unit_files) {
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (i == 0 || !name_char(text[i - 1]))
      for (const auto& f : unit_files)
        if (text.compare(i, f.size(), f) == 0 && (i + f.size() == text.size() || !name_char(text[i + f.size()]))) {
          out += original;
          i += f.size();
          replaced = true;
          break;
        }
    if (!replaced) out += text[i++];
  }
  return out;
}

// Evidence in the unit's files, pointed back at the original capture.
// `frames`: a TCP unit's records (its copy's frame k is frames[k - 1]);
// empty for a QUIC unit, whose frames are the capture's already.
void to_original(RunRecord& record, const SplitCapture& capture, const std::vector<std::uint64_t>& frames) {
  namespace fs = std::filesystem;
  const auto& unit_files = capture.unit_files;
  const std::string original = fs::path(capture.path).filename().string();
  for (auto& outcome : record.checks) {
    outcome.result.summary = name_original(outcome.result.summary, original, unit_files);
    for (auto& e : outcome.result.evidence) {
      e.text = name_original(e.text, original, unit_files);
      if (std::find(unit_files.begin(), unit_files.end(), e.capture) == unit_files.end()) continue;
      e.capture = capture.path;
      if (!frames.empty()) e.frame = e.frame >= 1 && e.frame <= frames.size() ? frames[e.frame - 1] : 0;
    }
  }
  record.reason = name_original(record.reason, original, unit_files);
  // What could not be read may be for want of keys: say which were given
  // (not for a capture that cannot tell for another reason, its vantage).
  const bool for_keys = record.reason.find("key log") != std::string::npos ||
                        record.reason.find("do not decrypt") != std::string::npos;
  if (record.status == Status::error || (record.status == Status::not_judged && for_keys))
    record.reason += " (" + capture.key_sources + ")";
}

// Whether `c` judges connections of `transport`: every check it holds
// reads them (a case of QUIC checks says nothing about a TCP connection,
// and a count of UDP datagrams nothing about TCP either).
bool applies(const Case& c, const std::string& transport, const CheckRegistry& checks) {
  return std::all_of(c.decl->expects.begin(), c.decl->expects.end(), [&](const ExpectDecl& e) {
    const Check* check = checks.find(e.check);
    return !check || reads(check->transport(), transport);
  });
}

// What a connection's checks are told of its capture: where its times
// count from, how far it shows (the whole capture, or as far as it is read
// when the connection ends), and where it was taken.
struct Sight {
  std::int64_t origin_ns = 0, end_ns = 0;
  Vantage vantage = Vantage::path;
};

Sight sight_of(const SplitCapture& capture) { return {capture.origin_ns, capture.end_ns, capture.vantage}; }

// A QUIC unit's connection `c` for its checks, under the names its folder
// would give it (client.pcap and server.pcap, one vantage point).
std::shared_ptr<const quic_checks::QuicCaptures> prepare(dissect::Connection c, const Sight& sight) {
  dissect::Timeline timeline;
  timeline.connections.push_back(unit_connection(std::move(c), sight.origin_ns));
  auto prepared = std::make_shared<quic_checks::QuicCaptures>();
  prepared->clients.push_back(quic_checks::make_capture_facts("client.pcap", std::move(timeline)));
  prepared->server = quic_checks::renamed(*prepared->clients.front(), "server.pcap");
  prepared->vantage = sight.vantage;
  prepared->observed_until_ns = sight.end_ns - sight.origin_ns;
  return prepared;
}

// A case judged on a unit: its record, timed.
RunRecord judge_case(const Case& c, const std::string& folder, const PreparedCaptures* prepared,
                     const CheckRegistry& checks) {
  const auto start = std::chrono::steady_clock::now();
  RunRecord record = judge_checks(c, folder, c.settings, checks, CaptureOrigin::elsewhere, prepared);
  record.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return record;
}

// What a signal left unjudged.
RunRecord interrupted_record(int signal) {
  RunRecord record;
  record.status = Status::interrupted;
  record.reason = "not judged: the check was interrupted by " + signal_name(signal);
  return record;
}

// The results of judged connections handed on in plan order, on the
// reader's thread (reporters are not for several threads). Results judged
// before (an EarlyJudge's) are taken from `stored` at their turn, not held.
// A judged connection is freed on the worker that judged it: with glibc's
// malloc that contended for the reader's arena lock (it cost -j 2 more CPU
// than judging there saved), which jemalloc's per-thread caches do not.
class InOrder {
 public:
  using Stored = std::function<std::optional<CaseResult>(std::size_t k)>;
  InOrder(const OfflineSink& sink, std::size_t total, Stored stored)
      : sink_(sink), total_(total), stored_(std::move(stored)) {}

  /// The k-th result, judged (any thread).
  void judged(std::size_t k, CaseResult&& result) {
    std::lock_guard lock(mutex_);
    ready_.emplace(k, std::move(result));
  }
  /// Hands on the results whose turn has come, on the calling (reader's)
  /// thread.
  void hand_on_ready() {
    // Only those in turn: the others wait for the connections before them.
    while (next_ < total_) {
      auto result = take_ready(next_);
      if (!result) result = stored_(next_);
      if (!result) break;
      hand_on(next_++, *result);
    }
  }
  /// After the last result: what never came (an interruption) as made by
  /// `missing`.
  void finish(const std::function<CaseResult(std::size_t)>& missing) {
    hand_on_ready();
    for (std::size_t k = next_; k < total_; ++k) {
      auto result = take_ready(k);
      if (!result) result = stored_(k);
      hand_on(k, result ? *result : missing(k));
    }
    next_ = total_;
  }
  const RunTotals& totals() const { return totals_; }

 private:
  std::optional<CaseResult> take_ready(std::size_t k) {
    std::lock_guard lock(mutex_);
    const auto it = ready_.find(k);
    if (it == ready_.end()) return std::nullopt;
    CaseResult result = std::move(it->second);
    ready_.erase(it);
    return result;
  }
  void hand_on(std::size_t k, const CaseResult& result) {
    totals_.add(result);
    sink_(result, k);
  }

  const OfflineSink& sink_;
  std::size_t total_;
  std::mutex mutex_;
  std::map<std::size_t, CaseResult> ready_;
  Stored stored_;
  std::size_t next_ = 0;  // the reader's only
  RunTotals totals_;
};

}  // namespace

OfflinePlan plan_offline(const std::vector<Case>& cases, const std::vector<SplitCapture>& captures,
                         const CheckRegistry& checks, bool may_be_empty) {
  OfflinePlan plan;
  std::set<std::string> transports;
  for (std::size_t k = 0; k < captures.size(); ++k)
    for (const auto& unit : captures[k].units)
      for (std::size_t i = 0; i < cases.size(); ++i) {
        transports.insert(unit.transport);
        if (!applies(cases[i], unit.transport, checks)) continue;
        Case judged = cases[i];
        judged.settings.id = cases[i].id() + " @ " + unit.label;
        plan.cases.push_back(std::move(judged));
        plan.places.push_back({i, k, unit.number});
      }
  if (plan.cases.empty() && !may_be_empty)
    throw InputError({captures.front().path},
                     fmt::format("no chosen case judges what the captures hold ({} connections only): name a suite "
                                 "of {} checks (suites/tcp judges TCP, suites/capture QUIC)",
                                 fmt::join(transports, " and "), fmt::join(transports, " or ")));
  return plan;
}

RunTotals judge_offline(const OfflinePlan& plan, const std::vector<SplitCapture>& captures,
                        const CheckRegistry& checks, Interruption& interruption, const OfflineSink& sink,
                        unsigned threads, CheckProgress* progress, RecordSpill* spill) {
  // Unit by unit, each with all its cases, as its capture is read again
  // and each of its QUIC connections ends; its cases are consecutive in
  // the plan.
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> jobs_of;  // (capture, unit number)
  for (std::size_t k = 0; k < plan.places.size(); ++k)
    jobs_of[{plan.places[k].capture, plan.places[k].connection}].push_back(k);
  std::map<std::pair<std::size_t, std::size_t>, const CaptureUnit*> unit_of;  // the same key
  for (std::size_t k = 0; k < captures.size(); ++k)
    for (const auto& unit : captures[k].units) unit_of[{k, unit.number}] = &unit;
  // The signal caught, if any: polled by the reader (Interruption reads a
  // pipe and is not for several threads), read by the workers.
  std::atomic<int> stopped{interruption.signal()};
  auto poll = [&] {
    if (const int signal = interruption.signal()) stopped = signal;
    return stopped.load();
  };
  // The QUIC units whose records the spill holds as judged under their
  // capture's final vantage and end: (capture, unit number).
  std::set<std::pair<std::size_t, std::size_t>> spilled;
  if (spill)
    for (std::size_t k = 0; k < captures.size(); ++k)
      for (const auto& unit : captures[k].units) {
        if (unit.transport != "QUIC") continue;
        const auto how = spill->how(k, unit.connection);
        const std::int64_t end = captures[k].end_ns - captures[k].origin_ns;
        if (how && how->vantage == captures[k].vantage && (!how->rested_on_end || how->observed_until_ns == end))
          spilled.insert({k, unit.number});
      }
  InOrder in_order(sink, plan.cases.size(), [&](std::size_t k) -> std::optional<CaseResult> {
    const auto& place = plan.places[k];
    if (!spilled.count({place.capture, place.connection})) return std::nullopt;
    const CaptureUnit& unit = *unit_of.at({place.capture, place.connection});
    auto record = spill->take({place.capture, unit.connection, place.case_index});
    if (!record) return std::nullopt;
    to_original(*record, captures[place.capture], {});
    record->artifact_dir = unit.folder;
    return aggregate(plan.cases[k], {std::move(*record)}, {});
  });
  auto judge_unit = [&](std::size_t capture_index, const CaptureUnit& unit, const PreparedCaptures* prepared,
                        const std::vector<std::uint64_t>& frames) {
    const auto it = jobs_of.find({capture_index, unit.number});
    if (it == jobs_of.end()) return;
    const SplitCapture& capture = captures[capture_index];
    for (const std::size_t k : it->second) {
      const Case& c = plan.cases[k];
      RunRecord record;
      if (const int signal = stopped.load()) {
        record = interrupted_record(signal);
      } else {
        record = judge_case(c, unit.folder, prepared, checks);
        to_original(record, capture, frames);
      }
      record.artifact_dir = unit.folder;
      in_order.judged(k, aggregate(c, {std::move(record)}, {}));
    }
  };
  // One connection's cases on a worker while the reader goes on; at most
  // two connections a worker wait in the queue.
  TaskPool workers(threads > 1 ? threads : 0, 2 * std::size_t{threads});
  struct Interrupted {};
  for (std::size_t capture_index = 0; capture_index < captures.size(); ++capture_index) {
    const SplitCapture& capture = captures[capture_index];
    std::map<std::size_t, const CaptureUnit*> quic;  // by connection index
    for (const auto& unit : capture.units)
      if (unit.transport == "QUIC" && jobs_of.count({capture_index, unit.number}) &&
          !spilled.count({capture_index, unit.number}))
        quic[unit.connection] = &unit;
    const std::uint64_t bytes = quic.empty() ? 0 : file_bytes(capture.path);
    if (progress && !quic.empty()) {
      // Read again: set_total() counted one reading of each capture.
      progress->add_total(bytes);
      progress->start((spill ? "judging again " : "judging ") + std::filesystem::path(capture.path).filename().string(),
                      bytes);
    }
    if (!quic.empty() && !poll()) try {
        stream_connections(capture.path, *capture.keys, [](const CapturedDatagram&) {},
                           [&](dissect::Connection&& c) {
                             const auto it = quic.find(c.index);
                             if (it == quic.end()) return;
                             const CaptureUnit& unit = *it->second;
                             in_order.hand_on_ready();
                             workers.submit([&, &unit = unit, c = std::make_shared<dissect::Connection>(std::move(c))] {
                               auto prepared = prepare(std::move(*c), sight_of(capture));
                               judge_unit(capture_index, unit, prepared.get(), {});
                               // Counted once: not again when judged again.
                               if (progress && !(spill && spill->how(capture_index, unit.connection)))
                                 progress->judged();
                             });
                             if (poll()) throw Interrupted{};
                           },
                           progress, nullptr, threads > 1);
      } catch (const Interrupted&) {
      }
    workers.wait();
    in_order.hand_on_ready();
    for (const auto& unit : capture.units)
      if (unit.transport != "QUIC") {
        poll();
        judge_unit(capture_index, unit, nullptr, unit.frames);
        in_order.hand_on_ready();
      }
    if (progress && !quic.empty()) progress->finish_capture();
  }
  // What an interruption left unjudged.
  in_order.finish([&](std::size_t k) {
    RunRecord record = interrupted_record(poll());
    record.artifact_dir = unit_of.at({plan.places[k].capture, plan.places[k].connection})->folder;
    return aggregate(plan.cases[k], {std::move(record)}, {});
  });
  return in_order.totals();
}

struct EarlyJudge::State {
  State(const std::vector<Case>& cases, const CheckRegistry& checks, RecordSpill& spill, Interruption& interruption,
        unsigned threads, CheckProgress* progress)
      : cases(cases), checks(checks), spill(spill), interruption(interruption), progress(progress),
        workers(threads > 1 ? threads : 0, 2 * std::size_t{threads}) {
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (applies(cases[i], "QUIC", checks)) quic_cases.push_back(i);
  }

  // Every case that judges QUIC on connection `c` of the `capture`-th
  // capture, seen as `at` shows it.
  void judge(std::size_t capture, dissect::Connection c, const Sight& at) {
    const std::size_t index = c.index;
    auto prepared = prepare(std::move(c), at);
    bool whole = true;
    for (const std::size_t i : quic_cases) {
      if (stopped.load()) {
        whole = false;  // not noted as judged: INTERRUPTED, unless it is judged again
        break;
      }
      spill.put({capture, index, i}, judge_case(cases[i], "", prepared.get(), checks));
    }
    if (whole) {
      spill.judged(capture, index, {at.vantage, prepared->rested_on_capture_end, at.end_ns - at.origin_ns});
      if (progress) progress->judged();
    }
  }

  const std::vector<Case>& cases;
  const CheckRegistry& checks;
  RecordSpill& spill;
  Interruption& interruption;  // polled by the reader only
  CheckProgress* progress;
  std::vector<std::size_t> quic_cases;
  std::atomic<int> stopped{0};
  TaskPool workers;  // last: its threads end first
};

EarlyJudge::EarlyJudge(const std::vector<Case>& cases, const CheckRegistry& checks, RecordSpill& spill,
                       Interruption& interruption, unsigned threads, CheckProgress* progress)
    : s_(std::make_unique<State>(cases, checks, spill, interruption, threads, progress)) {}

EarlyJudge::~EarlyJudge() = default;

EndedConnection EarlyJudge::judge(std::size_t capture, std::optional<Vantage> given) {
  return [&s = *s_, capture, given](dissect::Connection&& c, const ReadSoFar& so_far) {
    if (const int signal = s.interruption.signal()) s.stopped = signal;
    // A judging that threw (the temporary file's disk full) ends the reading now.
    if (s.workers.failed()) s.workers.wait();
    if (s.stopped.load() || s.quic_cases.empty()) {
      // Not judged, still surveyed, here, once the connections before it
      // are (wait() also rethrows what a judging threw).
      s.workers.wait();
      so_far.turn.take(c);
      return;
    }
    // The connection's signs are read on the worker, beside the reading.
    s.workers.submit([&s, capture, given, origin = so_far.origin_ns, latest = so_far.latest_ns, turn = so_far.turn,
                      c = std::make_shared<dissect::Connection>(std::move(c))] {
      // The capture as far as it is read.
      const Vantage seen = turn.take(*c);
      s.judge(capture, std::move(*c), Sight{origin, latest, given ? *given : seen});
    });
  };
}

void EarlyJudge::wait() {
  s_->workers.wait();
}

std::function<std::string(const CaseResult&)> check_replay(const std::string& inputs) {
  return [inputs](const CaseResult& r) {
    return "conform check" + inputs + " " + shell_quote(r.c->suite->path) + " --filter " +
           shell_quote(r.c->decl->id);
  };
}

nlohmann::json offline_json(const std::vector<SplitCapture>& captures, const std::vector<std::string>& keylogs,
                            const std::vector<Case>& cases) {
  using nlohmann::json;
  json list = json::array();
  for (const auto& capture : captures) {
    json units = json::array();
    for (const auto& u : capture.units)
      units.push_back({{"label", u.label},   {"connection", u.number}, {"transport", u.transport},   {"client", u.client},
                       {"server", u.server}, {"roles_from", u.roles_from}, {"folder", u.folder},
                       {"frames", u.records}});
    list.push_back(
        {{"file", capture.path}, {"vantage", to_string(capture.vantage)}, {"vantage_from", capture.vantage_from},
         {"vantage_ambiguous", capture.vantage_ambiguous},
         {"units", units}, {"notes", capture.notes}, {"warnings", capture.warnings},
         {"corrupt", capture.corrupt ? json(*capture.corrupt) : json()}});
  }
  json mutants = json::array();
  for (const auto& c : cases)
    if (!c.decl->mutants.empty()) mutants.push_back(c.id());
  return {{"captures", list},
          {"keylogs", keylogs},
          {"scenario_params",
           "not known offline: cases are judged without their scenario parameters, knobs and network "
           "settings; checks that derive a parameter from them use what each capture shows, as their "
           "summaries say, and an expect that sets a parameter of its scenario is NOT APPLICABLE"},
          {"mutants_not_applied", mutants}};
}

}  // namespace conform
