// The send path: which frames go into which packet, packets of several
// spaces coalesced into one datagram (RFC 9000 §12.2), Initial datagrams
// padded to 1200 bytes (§14.1), the server's anti-amplification limit
// (§8.1), then protection (RFC 9001 §5).
#include "connection/connection.hpp"

#include "codec/packet_number.hpp"
#include "tls/protect_packet.hpp"

#include <limits>

namespace conform::quic {

namespace {

constexpr size_t kMinInitialDatagram = 1200;

PacketType packet_type(Space s) {
  return s == Space::initial ? PacketType::initial
         : s == Space::handshake ? PacketType::handshake
                                 : PacketType::one_rtt;
}

}  // namespace

size_t Connection::header_overhead(Space s, size_t pn_len) const {
  if (s == Space::application) return 1 + peer_cid_.len + pn_len + PacketKeys::kTagLen;
  // type, version, two CID lengths and CIDs, token length (Initial), Length.
  // Initial packets carry a token length (and a client's Retry token).
  const size_t token_len = config_.is_server ? 0 : retry_token_.size();
  const size_t token = s == Space::initial ? varint_size(token_len) + token_len : 0;
  return 1 + 4 + 1 + peer_cid_.len + 1 + local_cid_.len + token + 2 + pn_len + PacketKeys::kTagLen;
}

class Connection::PacketSink final : public FrameSink {
 public:
  PacketSink(Connection& c, PendingPacket& out, size_t budget) : c_(c), out_(out), budget_(budget) {}
  size_t room() const override { return budget_ > out_.payload.size() ? budget_ - out_.payload.size() : 0; }
  void emit(const Frame& f, std::optional<SentFrame> record) override { c_.emit(out_, f, std::move(record)); }

 private:
  Connection& c_;
  PendingPacket& out_;
  size_t budget_;
};

void Connection::emit(PendingPacket& out, const Frame& f, std::optional<SentFrame> record) {
  Writer w(out.payload);
  encode_frame(w, f);
  out.ack_eliciting = out.ack_eliciting || is_ack_eliciting(f);
  if (record) out.records.push_back(std::move(*record));
  qlog_.add_frame(out.qlog_frames, f);
  if (config_.frame_trace) config_.frame_trace(TraceDir::sent, out.space, f);
}

std::optional<Bytes> Connection::poll_transmit(Instant now) {
  if (state_ == ConnectionState::closed || state_ == ConnectionState::draining) return std::nullopt;
  if (version_negotiation_) {
    Bytes vn = std::move(*version_negotiation_);
    version_negotiation_.reset();
    state_ = ConnectionState::closed;  // this "connection" only answered VN
    return vn;
  }
  if (state_ == ConnectionState::closing) return build_close_datagram(now);
  if (retry_packet_) {
    Bytes retry = std::move(*retry_packet_);
    retry_packet_.reset();
    stats_.bytes_sent += retry.size();
    return retry;
  }
  if (!tls_) return std::nullopt;  // a server before the first Initial
  if (!flight_hold_until_.is_never() && now < flight_hold_until_) return std::nullopt;
  if (auto probe = mtu_probe_datagram(now)) return probe;
  if (auto frameless = frameless_packet_datagram(now)) return frameless;

  size_t limit = max_datagram_;
  size_t budget = std::numeric_limits<size_t>::max();  // what the amplification limit leaves
  if (config_.is_server && !address_validated_ && config_.respect_amplification_limit) {
    // §8.1: at most three times the bytes received before validation.
    const uint64_t allowed = 3 * stats_.bytes_received;
    if (allowed <= stats_.bytes_sent) return std::nullopt;
    budget = allowed - stats_.bytes_sent;
    limit = std::min(limit, budget);
  }
  // RFC 9002 §6.2.4: PTO probes ignore the congestion window; the MTU
  // policy clamps them to 1200 bytes, a size every path carries.
  const bool probe = probe_datagrams_ > 0;
  if (probe) limit = std::min(limit, kMinInitialDatagram);
  stream_data_ok_ = probe || stream_data_allowed(now, limit);
  std::vector<PendingPacket> packets;
  size_t used = 0;
  for (Space s : {Space::initial, Space::handshake, Space::application}) {
    PacketSpace& sp = space(s);
    if (sp.discarded || !sp.tx || (probe && !probe_carries(s))) continue;
    PendingPacket p;
    p.space = s;
    p.pn = sp.next_pn;
    p.pn_len = packet_number_length(p.pn, recovery_.largest_acked(s));
    const size_t overhead = header_overhead(s, p.pn_len);
    if (used + overhead + 8 > limit) break;
    if (!build_payload(now, s, limit - used - overhead, p, probe)) continue;
    used += overhead + p.payload.size();
    packets.push_back(std::move(p));
  }
  // §7.8: stream data was allowed but did not fill the datagram: the
  // application, not the window, limits the sender.
  if (!probe && handshake_complete_ && stream_data_ok_)
    recovery_.set_app_limited(used + kMaxStreamOverhead < limit);
  if (probe) {
    ++probe_index_;
    --probe_datagrams_;
    if (packets.empty()) {
      probe_datagrams_ = 0;  // nothing left to probe with: send normally
      return poll_transmit(now);
    }
    ++stats_.probe_datagrams;
  }
  if (packets.empty()) return std::nullopt;
  maybe_elicit_ack(packets, used, limit);
  // The padding goes in the last packet.
  if (const size_t target = padding_target(packets, limit, probe, budget); used < target) {
    packets.back().payload.resize(packets.back().payload.size() + (target - used));
    packets.back().padded = true;
  }
  return seal_datagram(now, packets);
}

Bytes Connection::seal_datagram(Instant now, std::vector<PendingPacket>& packets) {
  Bytes dgram;
  bool sent_handshake = false, eliciting = false, in_flight = false;
  std::vector<std::pair<Space, SentPacket>> sent_packets;
  for (PendingPacket& p : packets) {
    if (config_.tamper_payload) config_.tamper_payload(p.space, p.payload);
    // A key update starts with the packet that carries it, never idle (§6.1).
    if (p.space == Space::application) maybe_initiate_key_update();
    // RFC 9001 §5.4.2: the header-protection sample needs pn + payload >= 4
    // bytes (PADDING frames are zeros).
    if (p.pn_len + p.payload.size() < 4) p.payload.resize(4 - p.pn_len);
    PacketSpace& sp = space(p.space);
    HeaderSpec spec;
    spec.type = packet_type(p.space);
    spec.dcid = peer_cid_;
    spec.scid = local_cid_;
    spec.pn = p.pn;
    spec.pn_len = p.pn_len;
    spec.key_phase = key_phase_;
    if (p.space == Space::initial && !config_.is_server) spec.token = retry_token_;
    const size_t start = dgram.size();
    const size_t pn_offset = write_packet_header(dgram, spec);
    // §17.2, §17.3.1: MUST be zero; the violation script.
    if (p.reserved_bits) dgram[start] |= spec.type == PacketType::one_rtt ? 0x18 : 0x0c;
    if (spec.type != PacketType::one_rtt)
      set_long_length(dgram, pn_offset, p.pn_len + p.payload.size() + PacketKeys::kTagLen);
    dgram.insert(dgram.end(), p.payload.begin(), p.payload.end());
    if (!protect_packet(dgram, start, pn_offset, p.pn_len, p.pn, *sp.tx)) {
      dgram.resize(start);  // BoringSSL failed: drop this packet, keep the others
      continue;
    }
    sp.next_pn = p.pn + 1;
    if (p.space == Space::application) ++packets_in_phase_;
    SentPacket sent;
    sent.pn = p.pn;
    sent.time_sent = now;
    sent.bytes = dgram.size() - start;
    sent.ack_eliciting = p.ack_eliciting;
    sent.in_flight = p.ack_eliciting || p.padded;
    sent.mtu_probe = p.mtu_probe;
    sent.frames = std::move(p.records);
    in_flight = in_flight || sent.in_flight;
    qlog_.packet_sent(now, spec.type, p.pn, sent.bytes, p.qlog_frames);
    sent_packets.emplace_back(p.space, std::move(sent));
    ++stats_.packets_sent;
    sent_handshake = sent_handshake || p.space == Space::handshake;
    eliciting = eliciting || p.ack_eliciting;
  }
  for (auto& [s, sent] : sent_packets) {
    sent.datagram_bytes = dgram.size();
    recovery_.on_packet_sent(s, std::move(sent));
  }
  if (in_flight && config_.pacing) recovery_.on_paced_send(now, dgram.size());
  // RFC 9001 §4.9.1: a client drops Initial keys once it sends a Handshake packet.
  if (!config_.is_server && sent_handshake && config_.discard_initial_keys) discard_space(Space::initial);
  // §10.1: sending restarts the idle timer only for the first ack-eliciting
  // packet since a packet was last received and processed, so probes into
  // a dead path do not keep the connection open.
  if (eliciting && !eliciting_sent_since_receipt_) {
    idle_deadline_ = now + idle_timeout();
    eliciting_sent_since_receipt_ = true;
  }
  rearm_recovery(now);
  qlog_.metrics(now, recovery_);
  stats_.bytes_sent += dgram.size();
  return dgram;
}

bool Connection::build_payload(Instant now, Space s, size_t budget, PendingPacket& out, bool probe) {
  PacketSpace& sp = space(s);
  const uint64_t exponent = config_.ack_delay_exponent;
  const std::optional<AckFrame> ack = sp.acks.has_new() ? sp.acks.build(now, exponent) : std::nullopt;
  const size_t ack_size = ack ? encoded_size(*ack) : 0;
  const size_t content_budget = budget > ack_size ? budget - ack_size : 0;
  // CRYPTO first: the handshake cannot progress without it. A probe
  // carries unacknowledged CRYPTO even if it is not yet declared lost. The
  // congestion window holds none of it back, unless the fault says so.
  const bool crypto_held = config_.crypto_waits_for_cwnd && !recovery_.congestion().can_send(budget);
  if (probe && !config_.probe_ping_only && !crypto_held) add_probe_crypto(s, content_budget, out);
  while (!probe && !crypto_held && content_budget > out.payload.size() + 16) {
    const size_t room = content_budget - out.payload.size() - 16;
    const auto chunk = sp.crypto_send.peek(room, kMaxVarint);
    if (!chunk || chunk->data.empty()) break;
    emit(out, CryptoFrame{chunk->offset, chunk->data}, SentCrypto{chunk->offset, chunk->data.size()});
    sp.crypto_send.on_sent(chunk->offset, chunk->data.size(), false);
  }
  if (s == Space::application && handshake_complete_) add_app_frames(now, content_budget, out);
  // The path_challenge_in_handshake and reserved_bits_set_long_header
  // violations ride the first Handshake packet that carries CRYPTO (a
  // client's Finished, a server's flight).
  if (s == Space::handshake && !violation_sent_ && !out.payload.empty()) {
    if (config_.violation == Violation::path_challenge_in_handshake) append_violation_frames(out, content_budget);
    if (config_.violation == Violation::reserved_bits_set_long_header) out.reserved_bits = violation_sent_ = true;
  }
  if (probe && !out.ack_eliciting && out.payload.size() + 1 <= content_budget)
    emit(out, PingFrame{}, std::nullopt);  // RFC 9002 §6.2.4: a probe must elicit an ACK
  if (ack && ack_size <= budget && (sp.acks.ack_due() || !out.payload.empty())) {
    emit(out, *ack, std::nullopt);
    sp.acks.on_ack_sent();
  }
  return !out.payload.empty();
}

bool Connection::credit_held(Instant now) {
  if (config_.credit_delay_ms == 0) return false;
  if (now >= credit_hold_until_) {
    credit_hold_until_ = Instant::never();
    credit_released_ = true;
  }
  if (credit_released_) return false;
  if (credit_hold_until_.is_never() && streams_.credit_due())
    credit_hold_until_ = now + Duration::millis(static_cast<int64_t>(config_.credit_delay_ms));
  return true;
}

// The violation script (connection/violation.hpp): once, at the end of the
// first 1-RTT packet after the handshake is confirmed that has room for it.
void Connection::add_violation(PendingPacket& out, size_t budget) {
  if (violation_sent_ || config_.violation == Violation::none || !handshake_confirmed_ ||
      config_.violation == Violation::path_challenge_in_handshake || in_transport_parameters(config_.violation))
    return;
  if (config_.violation == Violation::reserved_bits_set) {
    out.reserved_bits = true;
    violation_sent_ = true;
    return;
  }
  if (config_.violation == Violation::key_update) {  // CRYPTO: the next packet carries it
    space(Space::application).crypto_send.write(key_update_message());
    violation_sent_ = true;
    return;
  }
  append_violation_frames(out, budget);
}

// The packet_without_frames violation: a 1-RTT packet whose payload is
// empty, alone in its datagram since nothing may follow a short header.
// Its 4-byte packet number leaves the 16-byte header-protection sample
// (RFC 9001 §5.4.2) in the AEAD tag.
std::optional<Bytes> Connection::frameless_packet_datagram(Instant now) {
  PacketSpace& sp = space(Space::application);
  if (violation_sent_ || config_.violation != Violation::packet_without_frames || !handshake_confirmed_ ||
      sp.discarded || !sp.tx)
    return std::nullopt;
  violation_sent_ = true;
  std::vector<PendingPacket> packets(1);
  packets[0].space = Space::application;
  packets[0].pn = sp.next_pn;
  packets[0].pn_len = 4;
  return seal_datagram(now, packets);
}

// The violation's frames at the end of `out`, when it has them and room for
// them; a packet without room leaves them to the next.
void Connection::append_violation_frames(PendingPacket& out, size_t budget) {
  const auto frames = violation_frames(config_.violation, config_.is_server);
  if (!frames || out.payload.size() + frames->size() > budget) return;
  out.payload.insert(out.payload.end(), frames->begin(), frames->end());
  out.ack_eliciting = true;
  violation_sent_ = true;
}

void Connection::add_app_frames(Instant now, size_t budget, PendingPacket& out) {
  auto fits = [&](const Frame& f) { return out.payload.size() + encoded_size(f) <= budget; };
  if (handshake_done_pending_ && config_.is_server && fits(HandshakeDoneFrame{})) {
    emit(out, HandshakeDoneFrame{}, SentControl{HandshakeDoneFrame{}});
    handshake_done_pending_ = false;
  }
  while (!path_responses_.empty() && fits(PathResponseFrame{path_responses_.front()})) {
    emit(out, PathResponseFrame{path_responses_.front()}, std::nullopt);
    path_responses_.pop_front();
  }
  // Credit goes out even when the congestion window holds stream data back,
  // unless the credit_waits_for_cwnd fault is on.
  PacketSink sink(*this, out, budget);
  const bool held = credit_held(now);
  const bool limits_ride_along = config_.max_streams_held_behind_cwnd;
  streams_.write_frames(sink, {!held && (stream_data_ok_ || !config_.credit_waits_for_cwnd), !held && !limits_ride_along,
                               stream_data_ok_});
  // The max_streams_held_behind_cwnd fault (quicly#551): MAX_STREAMS only
  // in a packet the window lets carry more than an ACK and that goes
  // anyway, for its other frames or a due ACK; never a packet of its own.
  if (limits_ride_along && !held && stream_data_ok_ &&
      (!out.payload.empty() || space(Space::application).acks.ack_due()))
    streams_.write_max_streams(sink);
  // What fell due after the release waits a delay of its own.
  if (credit_released_ && !streams_.credit_due()) credit_released_ = false;
  // Last, so that a receiver that cannot parse past it loses nothing else.
  add_violation(out, budget);
}

std::optional<Bytes> Connection::build_close_datagram(Instant now) {
  if (close_sent_ || !close_frame_) return std::nullopt;
  close_sent_ = true;
  // §10.2.3: the peer may not have every key yet, so the close goes in each
  // space we can write (1-RTT only once the handshake completed); before
  // 1-RTT an application close becomes APPLICATION_ERROR without a reason.
  std::vector<PendingPacket> packets;
  size_t used = 0;
  bool has_initial = false;
  for (Space s : {Space::initial, Space::handshake, Space::application}) {
    if (space(s).discarded || !space(s).tx) continue;
    if (s == Space::application && !handshake_complete_) continue;
    ConnectionCloseFrame f = *close_frame_;
    if (f.application && s != Space::application)
      f = ConnectionCloseFrame{false, static_cast<uint64_t>(TransportErrorCode::application_error), 0, ""};
    PendingPacket& p = packets.emplace_back();
    p.space = s;
    p.pn = space(s).next_pn;
    p.pn_len = packet_number_length(p.pn, recovery_.largest_acked(s));
    emit(p, f, std::nullopt);
    used += header_overhead(s, p.pn_len) + p.payload.size();
    has_initial = has_initial || s == Space::initial;
  }
  if (packets.empty()) return std::nullopt;
  if (has_initial && !config_.is_server && used < kMinInitialDatagram)
    packets.back().payload.resize(packets.back().payload.size() + kMinInitialDatagram - used);
  return seal_datagram(now, packets);
}

}  // namespace conform::quic
