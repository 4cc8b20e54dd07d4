// `conform check`: the `expect` blocks of chosen cases judged against
// captures made elsewhere, with no plugin run. The pipeline, per capture,
// never holding it whole:
//
//   read     records in file order, one at a time (capture/pcap_reader.hpp
//            for_each_datagram; its progress: check_progress.hpp)
//   split    QUIC datagrams into connections by connection ID and address
//            (dissect::Dissector), each let go once it has ended
//            (Dissector::take_ended), keeping a sketch of each
//            (capture_units.hpp) and pooling where the capture was taken
//            (vantage_inference.hpp); TCP by address pair
//   judge    each QUIC connection, as it ends, on one of `-j` threads, every
//            case on it, under the vantage seen so far (EarlyJudge); the
//            records wait on disk (record_spill.hpp) until every capture is
//            read and the reports can begin; a connection the whole capture
//            shows under another vantage is judged again in a second
//            reading (judge_offline), as is every connection of a capture
//            a shard splits; TCP connections from their folders after
//   write    results in capture, connection and case order whatever the
//            threads;
//            each QUIC connection is a line of one file per capture that
//            refers to the capture by path and frame numbers
//            (capture/unit_source.hpp), and failing ones are copied out on
//            request (failing_pcaps.hpp)
//
// Each case is judged once per connection of each capture, as the case
// `ID @ capture#N`. A case is judged once per declaration (matrix points
// differ only in what a plugin would play), with no scenario parameters,
// knobs or network settings: checks whose parameters come from them fall
// back to what the capture shows and say so in their summaries. Mutants
// need a plugin run and are not applied.
#pragma once

#include "check/registry.hpp"
#include "dissect/key_log.hpp"
#include "offline/capture_units.hpp"
#include "offline/record_spill.hpp"
#include "report/reporter.hpp"
#include "run/interruption.hpp"
#include "run/result.hpp"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// One case per declaration among `expanded` (its first point), with its
/// declared id and empty params, knobs and network.
std::vector<Case> offline_cases(const std::vector<Case>& expanded);

/// The `vantage` values the cases' checks name, besides client and server.
std::vector<std::string> named_vantages(const std::vector<Case>& cases);

/// A key log given with --keylog: its path and its text, read once
/// (dissect::read_key_log_text) however many captures use it.
struct KeyLogFile {
  std::string path;
  std::string text;
};

/// The key material for `capture`: the secrets of its pcapng Decryption
/// Secrets Blocks, then those of `keylogs`. `text` receives their text
/// (views of `keylogs`' own, which must outlive it), `sources` says where it
/// came from ("key logs: a.keys", "no key log: ..."). Throws InputError
/// naming the file and line for a malformed key log line.
dissect::KeyLog capture_keys(const std::string& capture, const std::vector<KeyLogFile>& keylogs,
                             CaptureKeyText& text, std::string& sources);

/// Every (case, unit) to judge, by capture, then unit, then case: what a
/// report announces before the first result.
struct OfflinePlan {
  /// `cases[k]` is the case of the k-th result, its id `ID @ capture#N`.
  std::vector<Case> cases;
  /// Where `cases[k]` falls: its case's index in the cases as given, its
  /// capture's index in `captures`, its connection's number there.
  struct Place {
    std::size_t case_index = 0, capture = 0, connection = 0;
  };
  std::vector<Place> places;
};

/// The (case, unit) pairs of `cases` on the units of `captures` whose
/// transport every check of the case reads. Throws InputError when there is
/// none, unless `may_be_empty` (a job of a sharded check, whose share may
/// hold none).
OfflinePlan plan_offline(const std::vector<Case>& cases, const std::vector<SplitCapture>& captures,
                         const CheckRegistry& checks, bool may_be_empty = false);

/// Judges each QUIC connection of the captures as their first reading
/// (read_for_check) ends it, before the reports can begin, and keeps the
/// records in a RecordSpill: under the vantage given, else the one the
/// connections ended so far show, and with the capture taken to end at
/// its latest datagram so far. judge_offline takes from the spill the
/// connections judged under the capture's final vantage (and, where a
/// verdict rested on the capture's end, that end: almost all of them), and
/// reads a capture again only for the others. Connections are judged on
/// `threads` threads besides the reader when `threads` > 1; once
/// `interruption` has caught a signal, none more.
class EarlyJudge {
 public:
  EarlyJudge(const std::vector<Case>& cases, const CheckRegistry& checks, RecordSpill& spill,
             Interruption& interruption, unsigned threads, CheckProgress* progress = nullptr);
  ~EarlyJudge();
  EarlyJudge(const EarlyJudge&) = delete;
  EarlyJudge& operator=(const EarlyJudge&) = delete;

  /// read_for_check's `ended` for the `capture`-th capture read (its index
  /// among the SplitCaptures later given to judge_offline), whose vantage
  /// is `given` or inferred.
  EndedConnection judge(std::size_t capture, std::optional<Vantage> given);
  /// Waits until every connection handed over is judged; rethrows what a
  /// judging threw.
  void wait();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Receives the k-th result of an OfflinePlan (its case `plan.cases[k]`),
/// in order, on the thread that called judge_offline.
using OfflineSink = std::function<void(const CaseResult& result, std::size_t k)>;

/// Judges every (case, unit) of `plan` with `checks` and hands each result
/// to `sink` in plan order as soon as those before it are judged, keeping
/// none (a connection's results wait only for the connections before it).
/// Evidence that names a unit's capture file is rewritten to name the
/// original capture and its frame number there, and summaries and reasons
/// name the original capture instead of the unit's vantage files. A run
/// that could not be judged for want of keys says where the keys came from.
/// Each capture is read again, one datagram at a time, and each QUIC
/// connection judged once it ends, on `threads` threads besides the reader
/// when `threads` > 1 (the results are the same, in the same order, whatever
/// `threads`), and `progress` (when given) told how far it is. Once
/// `interruption` has caught a signal, the (case, unit) pairs not yet
/// judged are INTERRUPTED. With `spill` (filled by an EarlyJudge), a QUIC
/// connection it holds as judged under the capture's final vantage and end
/// is taken from it, not judged again, and a capture all of whose QUIC
/// connections it holds is not read again. Returns the totals.
RunTotals judge_offline(const OfflinePlan& plan, const std::vector<SplitCapture>& captures,
                        const CheckRegistry& checks, Interruption& interruption, const OfflineSink& sink,
                        unsigned threads = 1, CheckProgress* progress = nullptr, RecordSpill* spill = nullptr);

/// The command that replays a case of a check: `conform check` with
/// `inputs` (captures and options), the case's suite, and a filter on its
/// declared id.
std::function<std::string(const CaseResult&)> check_replay(const std::string& inputs);

/// The JSON report's `offline` member: captures, units, notes, key logs and
/// what offline checking leaves out.
nlohmann::json offline_json(const std::vector<SplitCapture>& captures, const std::vector<std::string>& keylogs,
                            const std::vector<Case>& cases);

}  // namespace conform
