// The knob table: one entry per knob, each naming the Config field it sets,
// so adding a knob is one line. Defaults are read from a default Config, so
// config.hpp stays the one place they are written.
#include "scenarios/knobs.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

namespace conform::quic {
namespace {

struct Knob {
  ValueSpec spec;
  /// Sets the field from a value of the declared type; returns "" or why not.
  std::function<std::string(const Value&, Config&)> apply;
};

template <class M>
struct FieldOf;
template <class T>
struct FieldOf<T Config::*> {
  using type = T;
};
template <auto Member>
using FieldType = typename FieldOf<decltype(Member)>::type;

/// The defaults every knob declares.
const Config& defaults() {
  static const Config config;
  return config;
}

constexpr int64_t kVarintMax = (int64_t{1} << 62) - 1;  // RFC 9000 §16

/// An unsigned integer field, in [min, max]; the bounds are in its spec, so
/// a suite setting it outside them is refused where it says so.
template <auto Member>
Knob integer(std::string name, std::string doc, int64_t min = 0, int64_t max = kVarintMax) {
  const int64_t fallback = static_cast<int64_t>(defaults().*Member);
  ValueSpec spec{name, ValueType::integer, Value{fallback}, std::move(doc), {}, min, max};
  return {std::move(spec), [name, min, max](const Value& v, Config& c) -> std::string {
            const int64_t x = std::get<int64_t>(v);
            if (x < min || x > max)
              return name + " = " + std::to_string(x) + ": must be from " + std::to_string(min) +
                     " to " + std::to_string(max);
            c.*Member = static_cast<FieldType<Member>>(x);
            return {};
          }};
}

template <auto Member>
Knob flag(std::string name, std::string doc) {
  ValueSpec spec{std::move(name), ValueType::boolean, Value{bool(defaults().*Member)}, std::move(doc)};
  return {std::move(spec), [](const Value& v, Config& c) -> std::string {
            c.*Member = std::get<bool>(v);
            return {};
          }};
}

/// A floating-point field, in (min, max]: the loader refuses values outside
/// the spec's range before any run, so the setter need not.
template <auto Member>
Knob real(std::string name, std::string doc, double min, double max) {
  ValueSpec spec{std::move(name), ValueType::floating, Value{double(defaults().*Member)}, std::move(doc),
                 {}, {}, {}, FloatRange{min, max, true}};
  return {std::move(spec), [](const Value& v, Config& c) -> std::string {
            c.*Member = std::get<double>(v);
            return {};
          }};
}

/// A list of strings (ALPN protocols); refused empty.
template <auto Member>
Knob strings(std::string name, std::string doc) {
  ValueSpec spec{name, ValueType::string_list, Value{defaults().*Member}, std::move(doc)};
  return {std::move(spec), [name](const Value& v, Config& c) -> std::string {
            const auto& list = std::get<std::vector<std::string>>(v);
            if (list.empty()) return name + ": must name at least one";
            c.*Member = list;
            return {};
          }};
}

/// An enum field spelled as one of `names` (the validator refuses others).
template <auto Member>
Knob choice(std::string name, std::string doc,
            std::vector<std::pair<std::string, FieldType<Member>>> names) {
  std::string fallback;
  std::vector<std::string> allowed;
  for (const auto& [text, value] : names) {
    allowed.push_back(text);
    if (value == defaults().*Member) fallback = text;
  }
  ValueSpec spec{std::move(name), ValueType::string, Value{fallback}, std::move(doc), allowed};
  return {std::move(spec), [names](const Value& v, Config& c) -> std::string {
            for (const auto& [text, value] : names)
              if (text == std::get<std::string>(v)) c.*Member = value;
            return {};
          }};
}

// The `violation` knob's values and documentation, from the one table of
// violations (connection/violation.hpp).
std::vector<std::pair<std::string, Violation>> violation_names() {
  std::vector<std::pair<std::string, Violation>> names;
  for (const auto& v : kViolations) names.emplace_back(v.name, v.value);
  return names;
}

// With `http3` false, the violations of the simulator's scenarios, which
// speak no HTTP/3, saying so in the first sentence (which a refused value's
// message quotes).
std::string violation_doc(bool http3) {
  std::string doc =
      "script: send, once, what an RFC forbids, a frame in the first 1-RTT packet after the handshake is confirmed "
      "unless said otherwise";
  if (!http3)
    doc += " (HTTP/3's violations, h3_*, only through the external plugin's conform profile, conform-quic's HTTP/3: "
           "these scenarios speak no HTTP/3)";
  doc += ".";
  const char* sep = " ";
  for (const auto& v : kViolations)
    if (http3 || !of_http3(v.value)) {
      doc += std::string(sep) + v.name + ": " + v.what;
      sep = "; ";
    }
  return doc;
}

const std::vector<Knob>& table() {
  using MSP = MaxStreamsPolicy;
  static const std::vector<Knob> knobs = {
      integer<&Config::max_idle_timeout_ms>("max_idle_timeout_ms", "transport parameter max_idle_timeout (§18.2), milliseconds; 0: none. The timeout in force is the smaller of the two sides' non-zero values, at least 3 PTOs, restarted by a packet received and by the first ack-eliciting one sent after it (§10.1)"),
      integer<&Config::max_udp_payload_size>("max_udp_payload_size", "transport parameter max_udp_payload_size, bytes", 1200, 65527),
      integer<&Config::initial_max_data>("initial_max_data", "transport parameter initial_max_data: connection receive window (§4.1), bytes"),
      integer<&Config::initial_max_stream_data_bidi_local>("initial_max_stream_data_bidi_local", "receive window of bidirectional streams we open, bytes"),
      integer<&Config::initial_max_stream_data_bidi_remote>("initial_max_stream_data_bidi_remote", "receive window of bidirectional streams the peer opens, bytes"),
      integer<&Config::initial_max_stream_data_uni>("initial_max_stream_data_uni", "receive window of unidirectional streams the peer opens, bytes"),
      integer<&Config::initial_max_streams_bidi>("initial_max_streams_bidi", "bidirectional streams the peer may open before MAX_STREAMS (§4.6)", 0, int64_t{1} << 60),
      integer<&Config::initial_max_streams_uni>("initial_max_streams_uni", "unidirectional streams the peer may open before MAX_STREAMS (§4.6)", 0, int64_t{1} << 60),
      integer<&Config::ack_delay_exponent>("ack_delay_exponent", "transport parameter ack_delay_exponent (§18.2)", 0, 20),
      integer<&Config::max_ack_delay_ms>("max_ack_delay_ms", "transport parameter max_ack_delay, milliseconds", 0, (1 << 14) - 1),
      flag<&Config::disable_active_migration>("disable_active_migration", "transport parameter disable_active_migration (§18.2)"),
      integer<&Config::active_connection_id_limit>("active_connection_id_limit", "transport parameter active_connection_id_limit", 2),
      flag<&Config::emit_max_streams>("emit_max_streams", "raise the peer's stream limit with MAX_STREAMS; false reproduces the stream-cliff bug"),
      flag<&Config::emit_max_data>("emit_max_data", "raise the peer's connection credit with MAX_DATA as data is consumed (§4.2); false stalls the sender at initial_max_data"),
      choice<&Config::max_streams_policy>("max_streams_policy", "when MAX_STREAMS is sent: half_window (half the window's streams closed), every_stream (each closed stream), half_window_opened (half the window opened), full_window (a whole window closed: late)",
                                          {{"half_window", MSP::half_window}, {"every_stream", MSP::every_stream}, {"half_window_opened", MSP::half_window_opened}, {"full_window", MSP::full_window}}),
      flag<&Config::emit_streams_blocked>("emit_streams_blocked", "send STREAMS_BLOCKED when an open is refused at the peer's limit (§19.14)"),
      flag<&Config::emit_data_blocked>("emit_data_blocked", "send DATA_BLOCKED and STREAM_DATA_BLOCKED when flow control blocks sending (§19.12-13)"),
      choice<&Config::open_stream_when_blocked>("open_stream_when_blocked", "opening at the peer's stream limit waits for MAX_STREAMS (wait) or gives the stream up (fail)",
                                                {{"wait", OpenWhenBlocked::wait}, {"fail", OpenWhenBlocked::fail}}),
      flag<&Config::respect_peer_max_streams>("respect_peer_max_streams", "false: open streams beyond the peer's MAX_STREAMS (a violation, to test peers)"),
      flag<&Config::respect_peer_flow_control>("respect_peer_flow_control", "false: send beyond the peer's MAX_DATA / MAX_STREAM_DATA (a violation, to test peers)"),
      choice<&Config::tls_groups>("tls_groups", "TLS key exchange: x25519, p256, or cecpq2 (post-quantum, a ~1.4 KB ClientHello)",
                                  {{"x25519", TlsGroups::x25519}, {"p256", TlsGroups::p256}, {"cecpq2", TlsGroups::cecpq2}}),
      flag<&Config::retry>("retry", "server: answer each new client with Retry and require its token (§8.1.2)"),
      integer<&Config::key_update_interval_packets>("key_update_interval_packets", "start a key update (RFC 9001 §6) after this many 1-RTT packets of a key phase; 0: never"),
      integer<&Config::certificate_padding_bytes>("certificate_padding_bytes", "server: bytes of an opaque non-critical extension in its test certificate, to make the Handshake flight larger (e.g. beyond 3x the ClientHello, RFC 9000 §8.1)", 0, 16384),
      strings<&Config::alpn>("alpn", "ALPN protocols offered (client) or accepted (server), in order of preference"),
      integer<&Config::initial_mtu>("initial_mtu", "largest datagram before the peer's max_udp_payload_size is known and the Initial datagram size, bytes", 1200, 65527),
      integer<&Config::base_mtu>("base_mtu", "datagram size to fall back to once a larger datagram is declared lost (the path cannot carry initial_mtu), bytes", 1200, 65527),
      integer<&Config::initial_rtt_ms>("initial_rtt_ms", "RTT assumed before the first sample (RFC 9002 §6.2.2 kInitialRtt), milliseconds", 1, 60'000),
      flag<&Config::client_packet_buffering>("client_packet_buffering", "keep Handshake and 1-RTT packets that arrive before their keys and process them later (RFC 9001 §5.7); false drops them"),
      flag<&Config::probe_coalescing>("probe_coalescing", "a PTO probe datagram carries Initial and Handshake packets together when both have unacknowledged CRYPTO (RFC 9002 §6.2.4)"),
      flag<&Config::probe_restart_crypto_at_zero>("probe_restart_crypto_at_zero", "the fault: every PTO probe re-sends CRYPTO from the first unacknowledged byte instead of advancing"),
      flag<&Config::pad_ack_only_to_initial_mtu>("pad_ack_only_to_initial_mtu", "the fault: Initial datagrams carrying only an ACK are padded to initial_mtu too, even after a datagram that large was declared lost (s2n-quic#3299)"),
      flag<&Config::pad_initial_datagrams>("pad_initial_datagrams", "pad datagrams carrying ack-eliciting Initial packets (RFC 9000 §14.1: to at least 1200 bytes); false: the fault, none is padded"),
      flag<&Config::pad_coalesced_initial>("pad_coalesced_initial", "pad a datagram whose Initial packet is coalesced with a Handshake packet, as any other carrying an Initial (RFC 9000 §14.1); false: the fault (neqo#3101), such a datagram, a PTO probe's among them, goes out as small as its packets"),
      flag<&Config::send_handshake_done>("send_handshake_done", "server: send HANDSHAKE_DONE once the handshake completes (RFC 9001 §4.1.2); false: the fault, the client never confirms the handshake"),
      integer<&Config::ack_only_ping_interval>("ack_only_ping_interval", "add a PING after this many non-ack-eliciting datagrams in a row (RFC 9000 §13.2.4); 0: never"),
      choice<&Config::congestion_controller>("congestion_controller", "newreno (RFC 9002 §7) or bbr (a BBR-style model-based controller, draft-ietf-ccwg-bbr; docs/congestion.md)",
                                             {{"newreno", CongestionControl::newreno}, {"bbr", CongestionControl::bbr}}),
      integer<&Config::cc_initial_window_packets>("cc_initial_window_packets", "kInitialWindow (RFC 9002 §7.2) of either controller, datagrams; the window is capped at the larger of this many 1472-byte datagrams and two of max_datagram_size", 1, 1000),
      integer<&Config::cc_minimum_window_packets>("cc_minimum_window_packets", "NewReno kMinimumWindow (RFC 9002 §7.2), datagrams", 1, 1000),
      real<&Config::cc_loss_reduction_factor>("cc_loss_reduction_factor", "NewReno kLossReductionFactor (RFC 9002 §7.3.2), in (0, 1]", 0.0, 1.0),
      flag<&Config::pmtud>("pmtud", "DPLPMTUD-lite (RFC 8899, RFC 9000 §14.3): after the handshake, probe upward from base_mtu with PING + PADDING packets, raising the datagram size on each acknowledged probe"),
      flag<&Config::pacing>("pacing", "pace 1-RTT stream data (RFC 9002 §7.7): newreno at 1.25 * cwnd / smoothed_rtt, bbr at its pacing gain times its bandwidth estimate"),
      // Stream credit and flow control faults (suites/rfc9000/stream_credit.toml, credit_updates.toml).
      flag<&Config::credit_reset_streams>("credit_reset_streams", "return MAX_STREAMS credit for peer streams that end by RESET_STREAM (reset, or stopped by us) as for finished ones (§4.6); false: only finished streams count"),
      flag<&Config::repeat_streams_blocked>("repeat_streams_blocked", "send STREAMS_BLOCKED again at each new limit while still blocked (§4.6, §19.14); false: only at the first limit"),
      flag<&Config::max_streams_beyond_2_60>("max_streams_beyond_2_60", "the fault: every MAX_STREAMS carries 2^60 + 1, beyond what §19.11 allows"),
      flag<&Config::max_streams_uncapped>("max_streams_uncapped", "the fault (quic-go#2709): MAX_STREAMS is computed as streams closed plus the window with no 2^60 ceiling, so a window near 2^60 soon advertises more than RFC 9000 §19.11 allows"),
      flag<&Config::credit_waits_for_cwnd>("credit_waits_for_cwnd", "the fault: MAX_DATA / MAX_STREAM_DATA go out only in packets the congestion window (and pacer) lets carry stream data"),
      flag<&Config::max_streams_held_behind_cwnd>("max_streams_held_behind_cwnd", "the fault (quicly#551, fixed by that PR): MAX_STREAMS goes only in a packet the congestion window lets carry more than an ACK (RFC 9002 §7 may hold it) and that leaves for another reason (stream data, a due ACK, another frame); when the window opens nothing is sent for the raise alone, as quicly had scheduled it by the ACK timer the ACK-only packet sent while the window was full had used up; a peer at its limit with nothing in flight gets it only once it sends something ack-eliciting, STREAMS_BLOCKED, or never (RFC 9000 §4.6)"),
      flag<&Config::resend_lost_credit>("resend_lost_credit", "send MAX_DATA and MAX_STREAMS again when the packet carrying the latest was declared lost (RFC 9000 §13.3); false: the fault, the peer learns of more credit only when the next raise falls due"),
      flag<&Config::resend_lost_reset>("resend_lost_reset", "send RESET_STREAM again when its packet was declared lost (RFC 9000 §13.3: until acknowledged); false: the fault, the peer never learns the stream ended and its stream credit leaks (kin to quic-go#4803, whose lost reset went out again but was never counted done, leaking the same credit: complete_after_lost_reset = false)"),
      integer<&Config::max_data_cap>("max_data_cap", "the fault (erlang_quic#176): MAX_DATA never raises the connection limit past this absolute offset, a window that saturates instead of sliding as data is read (RFC 9000 §4.1-§4.2), bytes; 0: no cap", 0, int64_t{1} << 62),
      flag<&Config::crypto_waits_for_cwnd>("crypto_waits_for_cwnd", "the fault (nginx#1616): CRYPTO, lost and re-queued or new, waits for room in the congestion window, so a probe sent while the window is full carries a PING alone (RFC 9002 §7.5: probe packets MUST NOT be blocked by the congestion controller; §6.2.4)"),
      flag<&Config::drop_small_initials>("drop_small_initials", "the fault (picoquic#1777): a client drops datagrams under 1200 bytes carrying an Initial packet, although a server need pad only its ack-eliciting Initials (RFC 9000 §14.1), so it misses the ACK of its ClientHello and sends the acknowledged bytes again (RFC 9000 §13.3)"),
      flag<&Config::credit_rejected_streams>("credit_rejected_streams", "return MAX_STREAMS credit for streams reject_peer_streams refused once they end (RFC 9000 §4.6); false: the fault (openssl#32557, fixed by its PR of that number), a refused stream is never counted closed, so a peer that keeps opening streams meets a limit that never moves"),
      flag<&Config::complete_after_lost_reset>("complete_after_lost_reset", "a stream whose RESET_STREAM was lost completes once the one sent again is acknowledged (RFC 9000 §3.1, Reset Recvd); false: the fault (quic-go#4803, fixed by quic-go PR #4804), the loss is never accounted, so the stream never completes, is never collected, and a peer-initiated stream's credit never comes back (RFC 9000 §4.6)"),
      flag<&Config::blocked_frames_early>("blocked_frames_early", "the fault: DATA_BLOCKED / STREAM_DATA_BLOCKED as soon as data waits, before the limit is used up"),
      // Violations (suites/violations): what the endpoint sends that RFC 9000 forbids, and the fault of not answering.
      choice<&Config::violation>("violation", violation_doc(true), violation_names()),
      choice<&Config::violations_answered>("violations_answered", "rfc: a violation of the peer's closes the connection with the code RFC 9000 names; ignored: the fault, the offending frame is dropped (a decoding error drops the rest of its packet), reserved header bits are not looked at, an invalid transport parameter is taken as read (a server-only one from a client, a missing or mismatched connection ID parameter, passed over), TLS's alert is not sent, an HTTP/3 error does not close, and the connection goes on where it can (else it stalls without a word)",
                                           {{"rfc", ViolationAnswer::rfc}, {"ignored", ViolationAnswer::ignored}}),
      // Scripts: the in-house endpoint as the peer that provokes what a case judges in the other.
      flag<&Config::streams_credit_on_blocked>("streams_credit_on_blocked", "script: raise MAX_STREAMS only after the peer sent STREAMS_BLOCKED at the limit in force (RFC 9000 §4.6 says a receiver MUST NOT wait for it: this peer does, so an opener that never says it is blocked waits for good)"),
      flag<&Config::data_credit_on_blocked>("data_credit_on_blocked", "script: raise MAX_DATA only after the peer sent DATA_BLOCKED at the limit in force, and MAX_STREAM_DATA only after STREAM_DATA_BLOCKED for that stream at its limit (RFC 9000 §4.1 says a receiver MUST NOT wait for them: this peer does, so a sender that never says it is blocked waits for good)"),
      integer<&Config::server_flight_delay_ms>("server_flight_delay_ms", "script (server): send nothing, its ACKs and the whole first flight from the ServerHello on included, until this many milliseconds after the first client Initial arrived, so the client's PTO probes go unanswered that long (RFC 9002 §6.2.4, §6.2.1); a client ignores it; 0: at once", 0, 600'000),
      flag<&Config::reject_peer_streams>("reject_peer_streams", "script: refuse every stream the peer opens, as OpenSSL's SSL_INCOMING_STREAM_POLICY_REJECT does (the stimulus openssl#32557 and lsquic#435 need): STOP_SENDING and, on a bidirectional one, RESET_STREAM as it opens, code 0x10b (H3_REQUEST_REJECTED), its data discarded, the application never told; its credit comes back as the stream ends (RFC 9000 §4.6)"),
      integer<&Config::reset_send_after_bytes>("reset_send_after_bytes", "script: reset the sending part of every stream that has more to send once this many of its bytes went out (RESET_STREAM, code 0x10c, H3_REQUEST_CANCELLED), as a server that gives up on its answers; 0: never"),
      choice<&Config::zero_initial_stream_limits>("zero_initial_stream_limits", "script: the transport parameters allow the peer 0 streams of the direction named (bidi, uni or both; RFC 9000 §18.2), and initial_max_streams_bidi / initial_max_streams_uni is the window the first MAX_STREAMS then opens, once the handshake completes (at once, or credit_delay_ms late): the peer starts held at 0 and SHOULD say STREAMS_BLOCKED 0 (§4.6) when it wants a stream. An HTTP/3 peer MUST be allowed 3 unidirectional streams (RFC 9114 §6.2): bidi only, for those, a departure from §6.1's SHOULD (a server permits 100 request streams) made on purpose; none: off",
                                                  {{"none", ZeroLimits::none}, {"bidi", ZeroLimits::bidi}, {"uni", ZeroLimits::uni}, {"both", ZeroLimits::both}}),
      flag<&Config::zero_initial_data_limit>("zero_initial_data_limit", "script: the transport parameters allow the peer 0 bytes of connection credit (initial_max_data 0, RFC 9000 §18.2), and initial_max_data is the window the first MAX_DATA then opens, once the handshake completes (at once, or credit_delay_ms late): the peer starts held at 0 and SHOULD say DATA_BLOCKED 0 (§4.1) when it has data to send. An HTTP/3 peer's unidirectional streams then wait too, against RFC 9114 §6.2's SHOULD (1024 bytes of credit each), on purpose; initial_max_data 0 holds it for good"),
      integer<&Config::credit_delay_ms>("credit_delay_ms", "script: hold each MAX_DATA, MAX_STREAM_DATA and MAX_STREAMS that falls due this many milliseconds, so the peer waits at its limit (and SHOULD say so, §4.1, §4.6), then goes on; 0: at once", 0, 600'000),
      // Handshake recovery faults (suites/rfc9000/handshake_loss.toml).
      flag<&Config::probe_ping_only>("probe_ping_only", "the fault: PTO probes carry a PING and no CRYPTO (RFC 9002 §6.2.4)"),
      flag<&Config::pto_backoff>("pto_backoff", "double the PTO period on each expiry (RFC 9002 §6.2.1); false: the fault, a constant period"),
      flag<&Config::ack_probes>("ack_probes", "script: false: a packet that brings nothing new (only PING, PADDING and ACK frames, or CRYPTO bytes all received before, as a handshake PTO probe re-sends; re-sent STREAM data counts as new) is answered by an ACK that leaves it out, so the peer's probes go unacknowledged while its ACKs keep coming; a correct peer's PTO keeps doubling (RFC 9002 §6.2.1, Appendix A.7: only newly acknowledged packets reset it)"),
      flag<&Config::pto_reset_on_any_ack>("pto_reset_on_any_ack", "the fault: an ACK frame that newly acknowledges nothing (late, reordered, duplicated) resets the PTO backoff (RFC 9002 §6.2.1, Appendix A.7 reset it only on newly acknowledged packets)"),
      flag<&Config::pto_reset_on_initial_ack>("pto_reset_on_initial_ack", "the fault (quiche#2683): a client resets its PTO backoff on ACKs received in Initial packets, before it is certain the server has validated its address (RFC 9002 §6.2.1: it does not)"),
      flag<&Config::pto_reset_on_key_discard>("pto_reset_on_key_discard", "reset the PTO backoff when Initial or Handshake keys are discarded (RFC 9002 §6.2.2: the PTO timer MUST be reset; Appendix A.11); false: the fault (quiche#2690), the backoff carries on into the next space"),
      flag<&Config::anti_deadlock_probe>("anti_deadlock_probe", "a client with nothing in flight keeps its PTO armed until its address is validated (RFC 9002 §6.2.2.1); false: the fault"),
      flag<&Config::respect_amplification_limit>("respect_amplification_limit", "a server sends at most 3x the bytes received before validating the address (RFC 9000 §8.1); false: the fault"),
      flag<&Config::discard_initial_keys>("discard_initial_keys", "drop Initial keys at the first Handshake packet sent (client) or processed (server) (RFC 9001 §4.9.1); false: the fault"),
  };
  return knobs;
}

}  // namespace

const std::vector<ValueSpec>& knob_specs() {
  static const std::vector<ValueSpec> specs = [] {
    std::vector<ValueSpec> out;
    for (const Knob& k : table()) out.push_back(k.spec);
    return out;
  }();
  return specs;
}

const std::vector<ValueSpec>& simulator_knob_specs() {
  static const std::vector<ValueSpec> specs = [] {
    std::vector<ValueSpec> out = knob_specs();
    for (ValueSpec& spec : out)
      if (spec.name == "violation") {
        spec.one_of.clear();
        for (const auto& v : kViolations)
          if (!of_http3(v.value)) spec.one_of.push_back(v.name);
        spec.doc = violation_doc(false);
      }
    return out;
  }();
  return specs;
}

std::string knob_option(const std::string& knob) {
  std::string option = "--" + knob;
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

std::string knob_text(const Value& value) {
  struct Text {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t x) const { return std::to_string(x); }
    std::string operator()(double x) const {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.17g", x);
      return buffer;
    }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<std::string>& list) const {
      std::string out;
      for (const auto& s : list) out += (out.empty() ? "" : ",") + s;
      return out;
    }
  };
  return std::visit(Text{}, value);
}

std::string apply_knobs(const ValueMap& values, Config& config) {
  for (const Knob& k : table()) {
    auto it = values.find(k.spec.name);
    if (it == values.end()) continue;
    if (conform::type_of(it->second) != k.spec.type)
      return k.spec.name + ": expected " + to_string(k.spec.type);
    if (std::string problem = k.apply(it->second, config); !problem.empty()) return problem;
  }
  return {};
}

}  // namespace conform::quic
