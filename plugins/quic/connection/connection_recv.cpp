// The receive path: datagrams split into packets (RFC 9000 §12.2), packets
// unprotected (RFC 9001 §5), frames checked against their packet type
// (§12.4) and dispatched; acknowledgements fed to loss detection.
#include "connection/connection.hpp"

#include "codec/overload.hpp"
#include "tls/protect_packet.hpp"
#include "tls/tls_session.hpp"

namespace conform::quic {

namespace {

constexpr uint64_t kMaxCryptoBuffer = 64 * 1024;  // bytes ahead of the read offset

Space space_of(PacketType t) {
  return t == PacketType::initial ? Space::initial
         : t == PacketType::handshake ? Space::handshake
                                      : Space::application;
}

Level level_of(Space s) {
  return s == Space::initial ? Level::initial : s == Space::handshake ? Level::handshake : Level::application;
}

TransportError violation(const char* what, uint64_t frame = 0) {
  return TransportError(TransportErrorCode::protocol_violation, what, frame);
}

}  // namespace

void Connection::handle_datagram(Instant now, ByteView datagram) {
  if (state_ == ConnectionState::closed || state_ == ConnectionState::draining) return;
  stats_.bytes_received += datagram.size();
  // RFC 9000 §14.1: a server drops Initial datagrams under 1200 bytes, and
  // before its TLS exists only Initials can start a connection.
  if (config_.is_server && !tls_ && datagram.size() < 1200) {
    ++stats_.packets_dropped;
    return;
  }
  // The fault: a client that drops them too, although a server need pad only
  // ack-eliciting Initials. A v1 long header of type Initial: 1x00 in the
  // first byte's high nibble.
  if (!config_.is_server && config_.drop_small_initials && datagram.size() < 1200 && !datagram.empty() &&
      (datagram[0] & 0xB0) == 0x80) {
    ++stats_.packets_dropped;
    return;
  }
  Bytes buf(datagram.begin(), datagram.end());
  size_t offset = 0;
  while (offset < buf.size() && state_ != ConnectionState::closed &&
         state_ != ConnectionState::draining) {
    std::span<uint8_t> rest(buf.data() + offset, buf.size() - offset);
    const auto h = parse_packet_header(rest, local_cid_.len);
    if (!h) {
      ++stats_.packets_dropped;  // the rest of the datagram is unreadable
      break;
    }
    process_packet(now, *h, rest.first(h->length));
    offset += h->length;
  }
  replay_buffered(now);
  if (state_ != ConnectionState::closed && state_ != ConnectionState::draining) rearm_recovery(now);
}

void Connection::process_packet(Instant now, const PacketHeader& h, std::span<uint8_t> packet) {
  if (h.type == PacketType::version_negotiation) {
    // RFC 9000 §6.2: only before any other server packet; v1 listed means
    // it is spoofed or stale.
    if (config_.is_server || peer_cid_confirmed_) return;
    Reader r(h.versions);
    uint32_t v;
    while (r.u32(v))
      if (v == kVersion1) return;
    state_ = ConnectionState::closed;
    close_reason_ = ConnectionClosed{violation("no common QUIC version"), true, false};
    push_event(*close_reason_);
    return;
  }
  if (h.version != kVersion1) {
    if (config_.is_server && !tls_ && !version_negotiation_) {
      static constexpr uint32_t kSupported[] = {kVersion1};
      version_negotiation_ = write_version_negotiation(h.scid, h.dcid, kSupported, 0x40);
    }
    return;
  }
  if (h.type == PacketType::retry) {
    handle_retry(h, packet);
    return;
  }
  if (h.type == PacketType::zero_rtt) {
    ++stats_.packets_dropped;  // no 0-RTT: RFC 9000 allows dropping
    return;
  }
  const Space s = space_of(h.type);
  if (config_.is_server && !tls_) {
    if (h.type != PacketType::initial || h.dcid.len < 8) {
      ++stats_.packets_dropped;  // §7.2: a client's first DCID is >= 8 bytes
      return;
    }
    if (config_.retry && !server_retry_gate(h)) return;
    original_dcid_ = retry_scid_ ? retry_odcid_ : h.dcid;
    qlog_.set_group(original_dcid_);
    peer_cid_ = h.scid;
    install_initial_keys(h.dcid);
    if (auto st = init_tls(); !st) {
      close_with(now, st.error());
      return;
    }
    if (config_.server_flight_delay_ms)
      flight_hold_until_ = now + Duration::millis(static_cast<int64_t>(config_.server_flight_delay_ms));
  }
  PacketSpace& sp = space(s);
  if (sp.discarded || !sp.rx) {
    if (!sp.discarded && buffer_undecryptable(s, packet)) return;
    ++stats_.packets_dropped;  // keys not yet available, or discarded
    return;
  }
  const PacketKeys* keys = &*sp.rx;
  bool next_phase = false;
  if (s == Space::application) keys = rx_keys_for(packet, h.pn_offset, next_phase);
  auto opened = keys ? unprotect_packet(packet, h.pn_offset, sp.acks.largest(), *keys) : std::nullopt;
  if (!opened || sp.acks.is_duplicate(opened->pn)) {
    ++stats_.packets_dropped;
    return;
  }
  if (s == Space::application) on_one_rtt_opened(next_phase);
  qlog_.packet_received(now, h.type, opened->pn, packet.size(), opened->payload);
  idle_deadline_ = now + idle_timeout();
  eliciting_sent_since_receipt_ = false;
  // §17.2 / §17.3.1: reserved bits must be zero once unprotected.
  const uint8_t reserved = h.type == PacketType::one_rtt ? 0x18 : 0x0c;
  if ((opened->first_byte & reserved) && config_.violations_answered == ViolationAnswer::rfc) {
    close_with(now, violation("reserved bits set"));
    return;
  }
  if (!config_.is_server && !peer_cid_confirmed_ && h.type != PacketType::one_rtt) {
    peer_cid_ = h.scid;  // §7.2: the client switches to the server's CID
    peer_cid_confirmed_ = true;
  }
  if (config_.is_server && h.type == PacketType::handshake) {
    address_validated_ = true;       // §8.1: a Handshake packet proves the address
    if (config_.discard_initial_keys) discard_space(Space::initial);  // RFC 9001 §4.9.1
  }
  bool eliciting = false, fresh = false;
  if (auto st = process_payload(now, s, h.type, opened->payload, eliciting, fresh); !st) {
    close_with(now, st.error());
    return;
  }
  if (space(s).discarded) return;
  if (!config_.ack_probes && eliciting && !fresh) space(s).acks.on_packet_left_out();
  else space(s).acks.on_packet_received(opened->pn, eliciting, now);
}

Status<> Connection::process_payload(Instant now, Space s, PacketType type, ByteView payload,
                                     bool& eliciting, bool& fresh) {
  // The violations_answered fault drops what breaks a rule and goes on.
  const bool ignore = config_.violations_answered == ViolationAnswer::ignored;
  if (payload.empty() && !ignore) return violation("packet without frames");  // §12.4
  Reader r(payload);
  while (!r.empty()) {
    auto f = decode_frame(r);
    if (!f) return ignore ? Status<>{} : Status<>(f.error());
    if (config_.frame_trace) config_.frame_trace(TraceDir::received, s, f.value());
    eliciting = eliciting || is_ack_eliciting(f.value());
    fresh = fresh || brings_news(s, f.value());
    if (auto st = handle_frame(now, s, type, f.value()); !st && !ignore) return st;
    if (state_ == ConnectionState::draining || state_ == ConnectionState::closed) break;
  }
  return {};
}

Status<> Connection::handle_frame(Instant now, Space s, PacketType, const Frame& frame) {
  const uint64_t type = type_of(frame);
  // RFC 9000 §12.4 Table 3: Initial and Handshake packets carry only these.
  if (s != Space::application && type != frame_type::padding && type != frame_type::ping &&
      type != frame_type::ack && type != frame_type::ack_ecn && type != frame_type::crypto &&
      type != frame_type::connection_close)
    return violation("frame not allowed in this packet type", type);
  using S = Status<>;
  return std::visit(
      Overload{
          [](const PaddingFrame&) { return S{}; },
          [](const PingFrame&) { return S{}; },  // it only elicits the ACK
          [&](const AckFrame& f) { return handle_ack(now, s, f); },
          [&](const CryptoFrame& f) { return on_crypto(s, f); },
          [&](const StreamFrame& f) { return streams_.on_stream(f); },
          [&](const ResetStreamFrame& f) { return streams_.on_reset_stream(f); },
          [&](const StopSendingFrame& f) { return streams_.on_stop_sending(f); },
          [&](const MaxStreamDataFrame& f) { return streams_.on_max_stream_data(f); },
          [&](const StreamDataBlockedFrame& f) { return streams_.on_stream_data_blocked(f); },
          [&](const MaxDataFrame& f) { return streams_.on_max_data(f), S{}; },
          [&](const MaxStreamsFrame& f) { return streams_.on_max_streams(f), S{}; },
          [&](const StreamsBlockedFrame& f) { return streams_.on_streams_blocked(f), S{}; },
          // Connection credit follows what the application read (§4.2);
          // only the data_credit_on_blocked script waits for this.
          [&](const DataBlockedFrame& f) { return streams_.on_data_blocked(f), S{}; },
          [&](const ConnectionCloseFrame& f) { return on_connection_close(now, f), S{}; },
          [&](const HandshakeDoneFrame&) { return on_handshake_done(); },
          [&](const NewTokenFrame&) {
            return config_.is_server ? violation("NEW_TOKEN from a client", type) : S{};  // §19.7
          },
          [&](const NewConnectionIdFrame&) {  // §19.15
            return peer_cid_.len == 0 ? violation("NEW_CONNECTION_ID with a zero-length CID", type) : S{};
          },
          [&](const PathChallengeFrame& f) {
            if (path_responses_.size() < 4) path_responses_.push_back(f.data);
            return S{};
          },
          // We issue no further CIDs and send no PATH_CHALLENGE: a connection
          // that never migrates has nothing to do with these.
          [](const RetireConnectionIdFrame&) { return S{}; },
          [](const PathResponseFrame&) { return S{}; },
      },
      frame);
}

bool Connection::brings_news(Space s, const Frame& frame) {
  if (std::holds_alternative<PaddingFrame>(frame) || std::holds_alternative<PingFrame>(frame) ||
      std::holds_alternative<AckFrame>(frame))
    return false;
  if (const auto* c = std::get_if<CryptoFrame>(&frame))
    return c->offset + c->data.size() > space(s).crypto_recv.read_offset();
  return true;
}

Status<> Connection::on_crypto(Space s, const CryptoFrame& c) {
  PacketSpace& sp = space(s);
  if (c.offset + c.data.size() > sp.crypto_recv.read_offset() + kMaxCryptoBuffer)
    return TransportError(TransportErrorCode::crypto_buffer_exceeded, "CRYPTO too far ahead", frame_type::crypto);
  if (auto st = sp.crypto_recv.insert(c.offset, c.data, false); !st) return st;
  Bytes data(static_cast<size_t>(sp.crypto_recv.readable()));
  if (data.empty()) return {};
  sp.crypto_recv.read(data);
  return drive_tls(level_of(s), data);
}

void Connection::on_connection_close(Instant now, const ConnectionCloseFrame& f) {
  TransportError e;
  e.code = f.error_code;
  e.frame_type = f.frame_type;
  e.reason = f.reason;
  enter_draining(now, ConnectionClosed{std::move(e), true, f.application});
}

Status<> Connection::on_handshake_done() {
  if (config_.is_server) return violation("HANDSHAKE_DONE from a client", frame_type::handshake_done);  // §19.20
  if (!handshake_confirmed_) push_event(HandshakeConfirmed{});
  handshake_confirmed_ = true;
  discard_space(Space::handshake);  // RFC 9001 §4.9.2
  return {};
}

Status<> Connection::handle_ack(Instant now, Space s, const AckFrame& ack) {
  const uint64_t exponent = peer_params_ ? peer_params_->ack_delay_exponent : 3;
  const uint64_t delay_us = ack.ack_delay > (uint64_t{1} << 40) ? (uint64_t{1} << 40)
                                                                 : ack.ack_delay << exponent;
  // RFC 9002 §6.2.2.1: an acknowledged Handshake packet proves the server
  // validated the client's address.
  RecoveryContext ctx = recovery_context();
  if (s == Space::handshake) ctx.peer_completed_address_validation = true;
  auto out = recovery_.on_ack_received(s, ack, Duration::micros(static_cast<int64_t>(delay_us)), now, ctx);
  if (!out) return out.error();
  if (s == Space::handshake && !out.value().acked.empty()) handshake_acked_ = true;
  if (s == Space::application) on_app_ack(ack.largest());
  for (const SentPacket& p : out.value().acked) on_packet_acked(s, p);
  for (const SentPacket& p : out.value().lost) on_packet_lost(now, s, p);
  qlog_.metrics(now, recovery_);
  return {};
}

void Connection::on_packet_acked(Space s, const SentPacket& p) {
  if (p.mtu_probe) on_mtu_probe_done(p, true);
  for (const SentFrame& sf : p.frames) {
    if (auto* c = std::get_if<SentCrypto>(&sf)) space(s).crypto_send.on_acked(c->offset, c->len, false);
    else streams_.on_acked(sf);
  }
}

void Connection::on_packet_lost(Instant now, Space s, const SentPacket& p) {
  ++stats_.packets_lost;
  qlog_.packet_lost(now, s, p.pn);
  if (p.mtu_probe) return on_mtu_probe_done(p, false);  // PING + PADDING: nothing to send again
  on_lost_datagram_size(p.datagram_bytes);
  for (const SentFrame& sf : p.frames) {
    if (auto* c = std::get_if<SentCrypto>(&sf)) {
      if (!space(s).discarded) space(s).crypto_send.on_lost(c->offset, c->len, false);
    } else if (auto* ctl = std::get_if<SentControl>(&sf); ctl && std::holds_alternative<HandshakeDoneFrame>(ctl->frame)) {
      handshake_done_pending_ = true;  // not copied: sent again while pending (§13.3)
    } else {
      streams_.on_lost(sf);
    }
  }
}

}  // namespace conform::quic
