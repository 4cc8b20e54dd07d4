// What every QUIC check shares: the captures of one run by vantage point
// (server.pcap; client.pcap, client-2.pcap, ... one per simulated client),
// loaded lazily through the capture cache; a base class that turns an
// unreadable capture into a failed verdict naming it; and the helpers that
// word summaries and evidence alike across checks.
#pragma once

#include "capture/vantage.hpp"
#include "check/check.hpp"
#include "check/quic/support/capture_facts.hpp"
#include "check/quic/support/key_visibility.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "dissect/range_set.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conform::quic_checks {

/// A run's QUIC captures handed to the checks already dissected (see
/// PreparedCaptures): `conform check` builds them from its one dissection
/// of a capture.
struct QuicCaptures : PreparedCaptures {
  std::shared_ptr<const CaptureFacts> server;
  std::vector<std::shared_ptr<const CaptureFacts>> clients;
  Vantage vantage = Vantage::path;
  /// How long the captures show, in the timelines' time: the last record
  /// of a capture made elsewhere, which does not record when recording
  /// stopped. Unset for a run's own captures, recorded to the run's end.
  std::optional<std::int64_t> observed_until_ns;
  /// Set by a check whose verdict rests on where the captures end, one it
  /// could have judged otherwise had they gone on (QuicRun::
  /// rests_on_capture_end): `conform check`, which judges a connection
  /// once it has ended, before the capture's last record is read, judges
  /// such a connection again once it knows where the capture ends. Written
  /// by the one thread judging the connection's cases.
  mutable bool rested_on_capture_end = false;
};

/// The captures of one run. Either read from an artifact folder (each
/// capture dissected on first use, through cached_capture, with
/// `<folder>/keys.log`) or given whole (prepared by `conform check`, or
/// hand-made timelines in tests).
class QuicRun {
 public:
  explicit QuicRun(std::string artifact_dir);
  explicit QuicRun(const QuicCaptures& prepared);
  /// From the input's prepared captures when it has QuicCaptures, else
  /// from its artifact folder.
  static QuicRun of(const CheckInput& input);
  QuicRun(std::shared_ptr<const CaptureFacts> server, std::vector<std::shared_ptr<const CaptureFacts>> clients);

  /// server.pcap, or nullptr when the folder has none. Throws InputError
  /// when it exists but cannot be read.
  const CaptureFacts* server() const;
  /// client.pcap, client-2.pcap, ... in client order (numbering stops at
  /// the first missing file).
  std::vector<const CaptureFacts*> clients() const;
  /// The captures taken at `side`'s endpoints.
  std::vector<const CaptureFacts*> at(Side side) const;
  /// Where the captures at(side) were taken: the folder's `vantage` file
  /// when it has one (`conform check` writes it), else `side`'s host, as
  /// conform's runs take them.
  Vantage vantage(Side side) const;
  /// A run whose captures were all taken at `v` (tests).
  void set_vantage(Vantage v) { given_ = v; }
  /// QuicCaptures::observed_until_ns; unset for a run's own captures.
  std::optional<std::int64_t> observed_until_ns() const { return observed_until_; }
  void set_observed_until_ns(std::int64_t t) { observed_until_ = t; }
  /// A check's verdict rests on observed_until_ns(): a later end could
  /// change it (QuicCaptures::rested_on_capture_end).
  void rests_on_capture_end() const {
    if (prepared_) prepared_->rested_on_capture_end = true;
  }

 private:
  std::string dir_;
  mutable std::optional<std::optional<Vantage>> given_;
  std::optional<std::int64_t> observed_until_;
  const QuicCaptures* prepared_ = nullptr;
  mutable bool server_loaded_ = false, clients_loaded_ = false;
  mutable std::shared_ptr<const CaptureFacts> server_;
  mutable std::vector<std::shared_ptr<const CaptureFacts>> clients_;
};

/// A QUIC check: evaluate() reads the run's captures and calls judge(),
/// unless a connection in them sent packets at a level up to keys_needed()
/// of which none decrypted: then the verdict is NOT JUDGED, with the reason
/// undecryptable() gives.
class QuicCheck : public Check {
 public:
  CheckResult evaluate(const CheckInput& input) const final;
  std::string transport() const final { return "QUIC"; }
  /// The deepest level whose frames judge() reads; 1-RTT unless overridden.
  virtual KeysNeeded keys_needed() const { return KeysNeeded::one_rtt; }
  /// The verdict on `run`; tests call it with hand-made timelines.
  virtual CheckResult judge(const QuicRun& run, const CheckInput& input) const = 0;
};

/// One connection of one capture, the unit most checks judge, and the other
/// connections judged with it (those of the same captures: one vantage
/// point of the run).
struct Judged {
  const CaptureFacts* capture = nullptr;
  const ConnectionFacts* connection = nullptr;
  std::vector<const ConnectionFacts*> beside;
  /// Where `capture` was taken.
  Vantage vantage = Vantage::path;
};

/// Every connection of every capture in `captures` (taken at `vantage`),
/// in order, each with the others beside it.
std::vector<Judged> connections_of(const std::vector<const CaptureFacts*>& captures, Vantage vantage);

/// 0 when `j`'s capture was taken at `endpoint`'s host, else the
/// handshake's round trip (handshake_round_trip()): at most what a capture
/// elsewhere cannot see of the way to `endpoint` and back.
std::int64_t unseen_round_trip(const Judged& j, Side endpoint);

/// NOT JUDGED because `j`'s capture was not taken at `endpoint`'s host:
/// "needs the server's receive side; the capture was taken on the path
/// between the endpoints: <why>".
CheckResult needs_vantage(const Judged& j, Side endpoint, const std::string& what, const std::string& why);

/// From a capture not at `sender`'s host, why its Initial or Handshake
/// packets may not all show there (RFC 9000 §12.3: Initial packets not from
/// 0, or a gap after the first packet of either space the capture shows): a
/// probe check that found no probe then says NOT JUDGED, not NOT EXERCISED.
/// nullopt at its host, or with no gap.
std::optional<UnseenGap> handshake_packets_unseen(const Judged& j, Side sender);
/// The same, and a gap in its 1-RTT packet numbers after the first.
std::optional<UnseenGap> packets_unseen(const Judged& j, Side sender);

/// The same connection (same original Destination Connection ID, else same
/// client address) in another capture, or nullptr.
const ConnectionFacts* same_connection(const CaptureFacts* other, const dissect::Connection& c);

/// "client-2.pcap" when the capture holds one connection, else
/// "server.pcap 127.0.0.1:40001" (the connection's client address).
std::string label(const Judged& j);

Evidence evidence(const CaptureFacts& capture, const At& at, std::string text);

/// Verdicts of several units folded into one: FAIL when one failed, else
/// PASS when one passed, else NOT JUDGED when one was, else NOT EXERCISED
/// (FAIL for none).
Verdict fold(const std::vector<Verdict>& verdicts);

/// A verdict per judged unit folded into one (fold()); the
/// summary is the unit's own when there is one, else "label: summary" parts
/// joined by "; "; evidence in order.
CheckResult combine(const std::vector<std::pair<std::string, CheckResult>>& parts);

/// Judges every connection of `side`'s captures with `one` and folds the
/// verdicts with combine(); fails, saying so, when `side` has no capture or
/// its captures hold no connection.
CheckResult judge_each_connection(const QuicRun& run, Side side, const std::function<CheckResult(const Judged&)>& one);

/// judge_each_connection() for `by` "client" or "server"; for "any", each
/// side's captures judged for that side, each unit labelled "client.pcap
/// (client)".
CheckResult judge_by(const QuicRun& run, const std::string& by,
                     const std::function<CheckResult(const Judged&, Side)>& one);

/// NOT EXERCISED: `looked_for` says what the check looked for and did not
/// see ("no PTO probe of the client").
CheckResult not_exercised(std::string looked_for, std::vector<Evidence> evidence = {});

/// The verdict for connection `j` that lacks `declared_by`'s transport
/// parameters: its handshake never got as far as carrying them (RFC 9000
/// §7.4). NOT EXERCISED when the capture holds no 0-RTT or 1-RTT packet
/// either (nothing was sent that a limit governs: the client's Initials
/// only, say); NOT JUDGED when it does (0-RTT under remembered limits, a
/// capture begun mid-connection), since no limit can be followed.
CheckResult no_transport_parameters(Side declared_by, const Judged& j);

/// NOT EXERCISED for connection `j` when its capture holds no 0-RTT or
/// 1-RTT packet: the transport parameters were sent, but nothing a stream
/// or flow limit governs ever was (every datagram lost, say); else nothing.
std::optional<CheckResult> nothing_under_limits(const Judged& j);

/// The failed verdict for a run without the captures a check reads, e.g.
/// "no client*.pcap in the case folder".
CheckResult missing_captures(Side side);

/// Parameter specs every QUIC check words the same way.
ValueSpec side_param(const std::string& name, const std::string& doc, std::optional<std::string> fallback = {},
                     bool allow_any = false);
ValueSpec dir_param();

/// "12.345 ms".
std::string ms(std::int64_t ns);

using dissect::RangeSet;

/// "[0-1124, 1178-1200]": inclusive ranges, as the `missing=[99-199]` of
/// streams_delivered reads; at most `shown` ranges, then "+N more".
std::string format_ranges(const RangeSet& set, std::size_t shown = 8);

}  // namespace conform::quic_checks
