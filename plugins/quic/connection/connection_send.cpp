// The send path: which frames go into which packet, packets of several
// spaces coalesced into one datagram (RFC 9000 §12.2), Initial datagrams
// padded to 1200 bytes (§14.1), the server's anti-amplification limit
// (§8.1), then protection (RFC 9001 §5).
#include "connection/connection.hpp"

#include "codec/packet_number.hpp"
#include "tls/packet_protection.hpp"

namespace conform::quic {

namespace {

constexpr size_t kMinInitialDatagram = 1200;
constexpr size_t kMaxStreamOverhead = 1 + 8 + 8 + 2;  // type, id, offset, length

PacketType packet_type(Space s) {
  return s == Space::initial ? PacketType::initial
         : s == Space::handshake ? PacketType::handshake
                                 : PacketType::one_rtt;
}

size_t encoded_size(const Frame& f) {
  Bytes tmp;
  Writer w(tmp);
  encode_frame(w, f);
  return tmp.size();
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
    ++stats_.datagrams_sent;
    stats_.bytes_sent += retry.size();
    return retry;
  }
  if (!tls_) return std::nullopt;  // a server before the first Initial
  if (auto probe = mtu_probe_datagram(now)) return probe;

  size_t limit = max_datagram_;
  if (config_.is_server && !address_validated_ && config_.respect_amplification_limit) {
    // §8.1: at most three times the bytes received before validation.
    const uint64_t allowed = 3 * stats_.bytes_received;
    if (allowed <= stats_.bytes_sent) return std::nullopt;
    limit = std::min<uint64_t>(limit, allowed - stats_.bytes_sent);
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
  if (const size_t target = padding_target(packets, limit, probe); used < target) {
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
  if (eliciting) idle_deadline_ = now + idle_timeout();
  rearm_recovery(now);
  qlog_.metrics(now, recovery_);
  ++stats_.datagrams_sent;
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
  // carries unacknowledged CRYPTO even if it is not yet declared lost.
  if (probe && !config_.probe_ping_only) add_probe_crypto(s, content_budget, out);
  while (!probe && content_budget > out.payload.size() + 16) {
    const size_t room = content_budget - out.payload.size() - 16;
    const auto chunk = sp.crypto_send.peek(room, kMaxVarint);
    if (!chunk || chunk->data.empty()) break;
    emit(out, CryptoFrame{chunk->offset, chunk->data}, SentCrypto{chunk->offset, chunk->data.size()});
    sp.crypto_send.on_sent(chunk->offset, chunk->data.size(), false);
  }
  if (s == Space::application && handshake_complete_) add_app_frames(now, content_budget, out);
  if (probe && !out.ack_eliciting && out.payload.size() + 1 <= content_budget)
    emit(out, PingFrame{}, std::nullopt);  // RFC 9002 §6.2.4: a probe must elicit an ACK
  if (ack && ack_size <= budget && (sp.acks.ack_due() || !out.payload.empty())) {
    emit(out, *ack, std::nullopt);
    sp.acks.on_ack_sent();
  }
  return !out.payload.empty();
}

void Connection::add_app_frames(Instant, size_t budget, PendingPacket& out) {
  auto fits = [&](const Frame& f) { return out.payload.size() + encoded_size(f) <= budget; };
  auto control = [&](const Frame& f) {
    if (!fits(f)) return false;
    emit(out, f, SentControl{f});
    return true;
  };
  if (handshake_done_pending_ && config_.is_server && control(HandshakeDoneFrame{}))
    handshake_done_pending_ = false;
  while (!path_responses_.empty() && fits(PathResponseFrame{path_responses_.front()})) {
    emit(out, PathResponseFrame{path_responses_.front()}, std::nullopt);
    path_responses_.pop_front();
  }
  // Credit first (§4.2): a peer waiting for it is the costliest stall. It
  // goes out even when the congestion window holds stream data back.
  const bool credit_ok = stream_data_ok_ || !config_.credit_waits_for_cwnd;
  if (auto due = conn_recv_.update_due(); credit_ok && config_.emit_max_data && (due || max_data_pending_)) {
    const uint64_t value = due.value_or(conn_recv_.max());
    if (control(MaxDataFrame{value})) {
      conn_recv_.on_update_sent(value);
      max_data_pending_ = false;
    }
  }
  for (Dir d : {Dir::bidi, Dir::uni}) {
    const size_t i = static_cast<size_t>(d);
    if (!config_.emit_max_streams) continue;  // the investigation's bug, on purpose
    auto due = remote_limits_[i].update_due();
    if (!due && !max_streams_pending_[i]) continue;
    const uint64_t value = due.value_or(remote_limits_[i].max());
    // The max_streams_beyond_2_60 fault puts a count §19.11 forbids on the wire.
    const uint64_t wire = config_.max_streams_beyond_2_60 ? (uint64_t{1} << 60) + 1 : value;
    if (control(MaxStreamsFrame{d == Dir::bidi, wire})) {
      remote_limits_[i].on_update_sent(value);
      max_streams_pending_[i] = false;
    }
  }
  for (Dir d : {Dir::bidi, Dir::uni}) {
    LocalStreamLimit& lim = local_limits_[static_cast<size_t>(d)];
    const auto due = lim.blocked_due();
    if (!due) continue;
    if (!config_.emit_streams_blocked || control(StreamsBlockedFrame{d == Dir::bidi, *due}))
      lim.on_blocked_sent();
  }
  bool any_unsent = false;
  for (auto& [id, st] : streams_) {
    if (st.reset_pending) {
      const ResetStreamFrame f{id, *st.reset_code, st.send.highest_sent()};
      if (control(f)) st.reset_pending = false;
    }
    if (st.stop_pending && control(StopSendingFrame{id, *st.stop_code})) st.stop_pending = false;
    if (credit_ok && st.has_recv && !st.recv.final_size() && !st.peer_reset_code) {
      auto due = st.recv_window.update_due();
      if (due || st.max_stream_data_pending) {
        const uint64_t value = due.value_or(st.recv_window.max());
        if (control(MaxStreamDataFrame{id, value})) {
          st.recv_window.on_update_sent(value);
          st.max_stream_data_pending = false;
        }
      }
    }
    any_unsent = any_unsent || (st.has_send && !st.reset_code && st.send.written() > st.send.highest_sent());
  }
  if (stream_data_ok_) add_stream_frames(budget, out);
  // §4.1: say so when flow control is what stops us.
  if (config_.emit_data_blocked && conn_send_.blocked_report_due(any_unsent, config_.blocked_frames_early) &&
      control(DataBlockedFrame{conn_send_.max()}))
    conn_send_.on_blocked_reported();
}

void Connection::add_stream_frames(size_t budget, PendingPacket& out) {
  if (streams_.empty()) return;
  // Round-robin: start after the stream served last, so one busy stream
  // cannot starve the others.
  auto start = streams_.upper_bound(next_stream_cursor_);
  if (start == streams_.end()) start = streams_.begin();
  auto it = start;
  do {
    auto& [id, st] = *it;
    while (st.has_send && !st.reset_code && out.payload.size() + kMaxStreamOverhead < budget) {
      const uint64_t limit = config_.respect_peer_flow_control
                                 ? std::min(st.send_credit.max(), st.send.highest_sent() + conn_send_.available())
                                 : kMaxVarint;
      const size_t room = budget - out.payload.size() - kMaxStreamOverhead;
      const auto chunk = st.send.peek(room, limit);
      if (!chunk) break;
      emit(out, StreamFrame{id, chunk->offset, chunk->data, chunk->fin},
           SentStream{id, chunk->offset, chunk->data.size(), chunk->fin});
      const uint64_t before = st.send.highest_sent();
      st.send.on_sent(chunk->offset, chunk->data.size(), chunk->fin);
      const uint64_t grown = st.send.highest_sent() - before;
      conn_send_.consume(grown);
      st.send_credit.consume(grown);
      if (chunk->fin) st.send_state = SendState::data_sent;
      next_stream_cursor_ = id;
    }
    const bool waiting = st.has_send && !st.reset_code && st.send.written() > st.send.highest_sent();
    if (config_.emit_data_blocked && st.send_credit.blocked_report_due(waiting, config_.blocked_frames_early)) {
      const StreamDataBlockedFrame f{id, st.send_credit.max()};
      if (out.payload.size() + encoded_size(f) <= budget) {
        emit(out, f, SentControl{f});
        st.send_credit.on_blocked_reported();
      }
    }
    if (++it == streams_.end()) it = streams_.begin();
  } while (it != start);
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
