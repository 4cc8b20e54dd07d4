// The knobs of one endpoint: every transport parameter it declares (RFC 9000
// §18.2) and the behaviours a suite can switch off or distort to prove its
// checks fail (ARCHITECTURE.md principle 4). A plain struct: the plugin maps
// the case's TOML knobs onto it.
#pragma once

#include "connection/violation.hpp"
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codec/frame.hpp"
#include "connection/stream_limits.hpp"
#include "recovery/recovery.hpp"
#include "tls/tls_session.hpp"

namespace conform::quic {

enum class OpenWhenBlocked : uint8_t {
  wait,  ///< Opening at the limit returns StreamError::blocked; retry on StreamsAvailable.
  fail,  ///< Returns StreamError::limit_reached, as a stack that gives up would.
};

/// The stream limits the zero_initial_stream_limits script advertises as 0.
enum class ZeroLimits : uint8_t { none, bidi, uni, both };

/// Where a traced frame went (the `frame_trace` hook).
enum class TraceDir : uint8_t { sent, received };

struct Config {
  bool is_server = false;

  // Transport parameters we declare (RFC 9000 §18.2), in their units.
  uint64_t max_idle_timeout_ms = 30'000;
  uint64_t max_udp_payload_size = 1472;  ///< bytes, >= 1200
  uint64_t initial_max_data = 1 << 20;   ///< bytes
  uint64_t initial_max_stream_data_bidi_local = 256 << 10;
  uint64_t initial_max_stream_data_bidi_remote = 256 << 10;
  uint64_t initial_max_stream_data_uni = 256 << 10;
  uint64_t initial_max_streams_bidi = 100;  ///< streams
  uint64_t initial_max_streams_uni = 100;   ///< streams
  uint64_t ack_delay_exponent = 3;
  uint64_t max_ack_delay_ms = 25;
  bool disable_active_migration = true;
  uint64_t active_connection_id_limit = 2;

  // Behaviours under test.
  bool emit_max_streams = true;  ///< false: never raise the peer's stream limit (the investigation's bug)
  /// false: never raise the peer's connection credit with MAX_DATA (§4.2), so a
  /// sender stalls at initial_max_data: the flow-control twin of the stream cliff.
  bool emit_max_data = true;
  MaxStreamsPolicy max_streams_policy = MaxStreamsPolicy::half_window;
  bool emit_streams_blocked = true;  ///< STREAMS_BLOCKED when an open is refused (§19.14)
  bool emit_data_blocked = true;     ///< DATA_BLOCKED and STREAM_DATA_BLOCKED (§19.12-13)
  OpenWhenBlocked open_stream_when_blocked = OpenWhenBlocked::wait;

  // Stream credit and flow control faults (suites/rfc9000/stream_credit.toml,
  // credit_updates.toml): each true or false here reproduces a fault real
  // stacks have shipped; the defaults are the RFC's behaviour.
  /// false: a peer stream that ends by RESET_STREAM (reset by the peer, or
  /// after our STOP_SENDING) does not return its credit to MAX_STREAMS; only
  /// finished streams count (§4.6 expects credit as streams close, however).
  bool credit_reset_streams = true;
  /// false: STREAMS_BLOCKED only at the first limit an open is refused at,
  /// not again at each new limit while still blocked (§4.6, §19.14).
  bool repeat_streams_blocked = true;
  /// true: every MAX_STREAMS carries 2^60 + 1, a count §19.11 forbids (the
  /// peer MUST close with FRAME_ENCODING_ERROR).
  bool max_streams_beyond_2_60 = false;
  /// true: the fault (quic-go#2709), the MAX_STREAMS value is computed as
  /// streams closed plus the window with no 2^60 ceiling, so a window near
  /// 2^60 soon advertises more than §19.11 allows.
  bool max_streams_uncapped = false;
  /// true: MAX_DATA and MAX_STREAM_DATA go out only in a packet that may
  /// carry stream data, so a full congestion window (or the pacer) holds
  /// the peer's credit back; false sends them with the next packet, ACKs
  /// included.
  bool credit_waits_for_cwnd = false;
  /// true: the fault (quicly#551), MAX_STREAMS goes only in a packet the
  /// congestion window lets carry more than an ACK and that is sent for
  /// another reason; nothing is sent for it alone when the window opens.
  bool max_streams_held_behind_cwnd = false;
  /// What this endpoint sends that RFC 9000 forbids (connection/violation.hpp).
  Violation violation = Violation::none;
  /// How it answers the peer's violations; `ignored` is the fault.
  ViolationAnswer violations_answered = ViolationAnswer::rfc;
  /// false: the fault, a MAX_DATA or MAX_STREAMS whose packet is declared
  /// lost is not sent again (RFC 9000 §13.3 sends the current value again);
  /// the peer learns of more credit only when the next raise falls due.
  bool resend_lost_credit = true;
  /// The fault (erlang_quic#176): the connection limit granted with
  /// MAX_DATA stops at this absolute offset, bytes, as a window that
  /// saturates at its maximum instead of sliding with what was read
  /// (RFC 9000 §4.1-§4.2); 0: no such cap.
  uint64_t max_data_cap = 0;
  /// false: the fault, a RESET_STREAM whose packet is declared lost is not
  /// sent again (RFC 9000 §13.3 sends it until acknowledged), so the peer
  /// never closes the stream and its credit never comes back (the leak of
  /// quic-go#4803, whose reset went out again but was never counted done).
  bool resend_lost_reset = true;
  /// Script: send MAX_STREAMS only once the peer said STREAMS_BLOCKED at
  /// the limit in force (RFC 9000 §4.6 has a receiver not wait for it; this
  /// peer does, to show whether the opener says it is blocked at all).
  bool streams_credit_on_blocked = false;
  /// Script: send MAX_DATA only once the peer said DATA_BLOCKED at the
  /// limit in force, and MAX_STREAM_DATA only once it said
  /// STREAM_DATA_BLOCKED for that stream at its limit (RFC 9000 §4.1 has a
  /// receiver not wait for them; this peer does).
  bool data_credit_on_blocked = false;
  /// Script (server): send nothing, its ACKs and ServerHello included, until
  /// this many milliseconds after the first client Initial arrived: a
  /// slow server, whose client sees its probes go unanswered; 0: at once.
  uint64_t server_flight_delay_ms = 0;
  /// Script: refuse every stream the peer opens, as OpenSSL's
  /// SSL_INCOMING_STREAM_POLICY_REJECT does: STOP_SENDING and, on a
  /// bidirectional one, RESET_STREAM as it opens, its data discarded, the
  /// application never told.
  bool reject_peer_streams = false;
  /// Return MAX_STREAMS credit for streams reject_peer_streams refused once
  /// they end (RFC 9000 §4.6); false: the fault (openssl#32557, before its
  /// fix), a refused stream is never counted closed and its credit leaks.
  bool credit_rejected_streams = true;
  /// Script: reset the sending part of every stream that has more to send
  /// once this many of its bytes went out (RESET_STREAM, kStreamCancelled);
  /// 0: never.
  uint64_t reset_send_after_bytes = 0;
  /// A stream whose RESET_STREAM was lost completes once the one sent again
  /// is acknowledged (RFC 9000 §3.1, Reset Recvd); false: the fault
  /// (quic-go#4803), the loss is never accounted, the stream never completes
  /// and is never collected, so a peer-initiated one's credit leaks.
  bool complete_after_lost_reset = true;
  /// The fault (nginx#1616): CRYPTO, lost and re-queued or new, and the
  /// CRYPTO of PTO probes wait for room in the congestion window (RFC 9002
  /// §7.5: probes MUST NOT be blocked by it).
  bool crypto_waits_for_cwnd = false;
  /// The fault (picoquic#1777): a client drops datagrams under 1200 bytes
  /// that carry an Initial packet, the ACK-only ones a server need not pad
  /// (RFC 9000 §14.1) among them, and with them the ACK of its ClientHello.
  bool drop_small_initials = false;
  /// true: DATA_BLOCKED and STREAM_DATA_BLOCKED as soon as data waits, before
  /// the limit is used up (§19.12-13 carry the limit "at which blocking
  /// occurred").
  bool blocked_frames_early = false;
  /// A script for the in-house endpoint as the peer that provokes a
  /// fault: a MAX_DATA, MAX_STREAM_DATA or MAX_STREAMS that falls due is held
  /// this many milliseconds, then sent with whatever fell due meanwhile, so
  /// the peer waits at its limit (and SHOULD say so, §4.1, §4.6) and then
  /// goes on. 0: sent at once.
  uint64_t credit_delay_ms = 0;
  /// A script: the transport parameters say 0 streams of the directions
  /// chosen, and initial_max_streams_bidi / _uni are the windows the first
  /// MAX_STREAMS opens (at once, or credit_delay_ms late), so the peer
  /// starts held at 0 (§4.6, §18.2 allow it).
  ZeroLimits zero_initial_stream_limits = ZeroLimits::none;
  /// The same for connection credit: the transport parameters say
  /// initial_max_data 0, and initial_max_data is the window the first
  /// MAX_DATA opens.
  bool zero_initial_data_limit = false;
  /// The connection credit our transport parameters say.
  uint64_t advertised_max_data() const { return zero_initial_data_limit ? 0 : initial_max_data; }
  /// The stream limit of `bidi`'s direction our transport parameters say.
  uint64_t advertised_max_streams(bool bidi) const {
    const bool zero = zero_initial_stream_limits == ZeroLimits::both ||
                      zero_initial_stream_limits == (bidi ? ZeroLimits::bidi : ZeroLimits::uni);
    return zero ? 0 : bidi ? initial_max_streams_bidi : initial_max_streams_uni;
  }
  /// false: open streams beyond the peer's MAX_STREAMS, a violation that a
  /// correct peer answers with STREAM_LIMIT_ERROR (to test peers, §4.6).
  bool respect_peer_max_streams = true;
  /// false: send stream data beyond the peer's MAX_DATA / MAX_STREAM_DATA,
  /// which a correct peer answers with FLOW_CONTROL_ERROR (§4.1).
  bool respect_peer_flow_control = true;
  TlsGroups tls_groups = TlsGroups::x25519;
  /// Server: answer every new client with Retry first and require its token
  /// (address validation, RFC 9000 §8.1.2).
  bool retry = false;
  /// Start a key update (RFC 9001 §6) after this many 1-RTT packets sent in
  /// a key phase; 0 never starts one (peer-initiated updates are followed).
  uint64_t key_update_interval_packets = 0;
  /// Largest datagram we send before the peer's max_udp_payload_size is
  /// known, and the size ack-eliciting Initial datagrams are padded to
  /// (>= 1200, RFC 9000 §14.1), bytes. Larger than the path carries: the
  /// first flight is lost and recovery falls back to base_mtu.
  size_t initial_mtu = 1200;

  // Loss recovery (RFC 9002) and MTU policy; docs/pq-handshake.md.
  /// The datagram size we fall back to (bytes, >= 1200) once a datagram
  /// larger than it is declared lost: the path cannot carry initial_mtu.
  size_t base_mtu = 1200;
  /// kInitialRtt, the RTT assumed before the first sample (RFC 9002 §6.2.2), ms.
  uint64_t initial_rtt_ms = 333;
  /// Keep up to 16 Handshake and 1-RTT packets that arrive before their keys
  /// and process them when the keys arrive (RFC 9001 §5.7), instead of
  /// dropping them. A server does the same for 1-RTT packets that arrive
  /// before the client's Finished.
  bool client_packet_buffering = true;
  /// A PTO probe datagram carries an Initial and a Handshake packet together
  /// when both spaces have unacknowledged data and they fit (RFC 9000
  /// §12.2); false: one space per probe datagram.
  bool probe_coalescing = true;
  /// The fault: every PTO probe re-sends CRYPTO from the first
  /// unacknowledged byte instead of continuing after the range the
  /// previous probe carried (RFC 9002 §6.2.4 lets probes carry any
  /// unacknowledged data; this wastes them on the same prefix).
  bool probe_restart_crypto_at_zero = false;
  /// The fault: datagrams with an Initial packet that carries only an ACK
  /// are padded to initial_mtu too (RFC 9000 §14.1 asks padding only of a
  /// client's Initial datagrams, and only to 1200), so an endpoint cannot
  /// report progress over a path that drops initial_mtu; and still after a
  /// datagram that large was declared lost (s2n-quic#3299).
  bool pad_ack_only_to_initial_mtu = false;
  /// false, the fault: no datagram carrying an Initial packet is padded
  /// (RFC 9000 §14.1: a client MUST pad the datagrams of its ack-eliciting
  /// Initials to at least 1200 bytes, a server those of its ack-eliciting
  /// Initials).
  bool pad_initial_datagrams = true;
  /// false, the fault (neqo#3101): a datagram coalescing an Initial packet
  /// with a Handshake packet is not padded (RFC 9000 §14.1 MUST).
  bool pad_coalesced_initial = true;
  /// false, the fault: a server never sends HANDSHAKE_DONE (RFC 9001 §4.1.2
  /// MUST), so its client never confirms the handshake.
  bool send_handshake_done = true;
  /// Handshake recovery faults, each false by default as RFC 9002 asks
  /// (suites/rfc9000/handshake_loss.toml). A PTO probe carries only a PING,
  /// no CRYPTO (§6.2.4 asks probes to carry data that may be lost).
  bool probe_ping_only = false;
  /// false, the fault: the PTO period is not doubled on expiry (§6.2.1 MUST).
  bool pto_backoff = true;
  /// false, the fault: a client with nothing in flight arms no PTO before
  /// the server validated its address (§6.2.2.1 MUST), so a lost server
  /// flight or an amplification-limited server deadlocks the handshake.
  bool anti_deadlock_probe = true;
  /// true, the fault: an ACK frame that newly acknowledges nothing (a late,
  /// reordered or duplicated one) resets the PTO backoff, so probes after
  /// it come one PTO apart instead of doubling (§6.2.1, Appendix A.7).
  bool pto_reset_on_any_ack = false;
  /// false, a script: a packet that brings nothing new (only PING, PADDING
  /// and ACK frames, or CRYPTO bytes all received before: what a PTO probe
  /// re-sends) is answered by an ACK that leaves it out, so the peer's
  /// probes are never acknowledged while ACKs keep arriving.
  bool ack_probes = true;
  bool pto_reset_on_initial_ack = false;
  /// false, the fault (quiche#2690): discarding Initial or Handshake keys
  /// leaves the PTO backoff as it was (RFC 9002 §6.2.2 MUST reset the PTO).
  bool pto_reset_on_key_discard = true;
  /// false, the fault: a server sends beyond 3x the bytes received before
  /// validating the client's address (RFC 9000 §8.1 MUST NOT).
  bool respect_amplification_limit = true;
  /// false, the fault: Initial keys are kept after the first Handshake
  /// packet sent (client) or processed (server) (RFC 9001 §4.9.1 MUST).
  bool discard_initial_keys = true;
  /// After this many datagrams in a row that elicit no ACK, add a PING so
  /// the peer acknowledges them (RFC 9000 §13.2.4); 0 never.
  uint64_t ack_only_ping_interval = 4;
  /// The congestion controller: NewReno (RFC 9002 §7, the default) or the
  /// BBR-style model-based one (recovery/bbr.hpp, docs/congestion.md).
  CongestionControl congestion_controller = CongestionControl::newreno;
  /// kInitialWindow (both controllers; capped in bytes by initial_window(),
  /// RFC 9002 §7.2) and NewReno's kMinimumWindow in datagrams (§7.2,
  /// Appendix B), kLossReductionFactor in (0, 1].
  uint64_t cc_initial_window_packets = 10;
  uint64_t cc_minimum_window_packets = 2;
  double cc_loss_reduction_factor = 0.5;
  /// DPLPMTUD-lite (RFC 8899, RFC 9000 §14.3; connection/path_mtu.hpp):
  /// once the handshake is confirmed, probe upward from base_mtu with
  /// PING + PADDING packets up to the smaller of the peer's and our
  /// max_udp_payload_size, raising the datagram size on each acknowledged
  /// probe. Lost probes are not congestion.
  bool pmtud = false;
  /// Pace 1-RTT stream data (RFC 9002 §7.7): NewReno at 1.25 * cwnd /
  /// smoothed_rtt, BBR at its pacing gain times the bandwidth estimate.
  bool pacing = true;

  // TLS.
  std::vector<std::string> alpn = {"conform"};
  std::string server_name = "localhost";
  std::shared_ptr<const TestCertificate> certificate;  ///< Server only.
  /// Server, simulated runs: bytes of an opaque extension the generated
  /// test certificate carries, to make the Handshake flight larger than
  /// the anti-amplification limit lets the server send (RFC 9000 §8.1).
  uint64_t certificate_padding_bytes = 0;

  /// Seeds connection IDs, so a run is a function of its seed.
  uint64_t seed = 1;
  /// NSS key log lines for the capture's keys.log.
  std::function<void(std::string_view)> keylog;
  /// Sees each packet's plaintext frames just before protection and may
  /// append or rewrite bytes, to send what a broken peer would (tests and
  /// mutants). Empty in normal runs.
  std::function<void(Space, Bytes& payload)> tamper_payload;
  /// Every frame sent or received, for tests; may be empty.
  std::function<void(TraceDir, Space, const Frame&)> frame_trace;
  /// The connection's qlog events as JSON-SEQ records (connection/qlog_trace.hpp),
  /// without the file's header; empty: no qlog.
  std::function<void(std::string_view record)> qlog;
};

}  // namespace conform::quic
