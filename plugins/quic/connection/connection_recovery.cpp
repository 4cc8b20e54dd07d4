// What loss recovery (RFC 9002) asks of the connection: the inputs of the
// loss detection timer, PTO probe datagrams (§6.2.4) and which spaces and
// CRYPTO ranges they carry, the MTU policy (initial_mtu, base_mtu, probes
// clamped to 1200 bytes), congestion and pacing gates on STREAM data
// (§7), and packets kept until their keys arrive (RFC 9001 §5.7).
#include "connection/connection.hpp"

#include <algorithm>

namespace conform::quic {

namespace {

constexpr size_t kMinDatagram = 1200;        // RFC 9000 §14.1
constexpr size_t kMaxBufferedPackets = 16;   // RFC 9001 §5.7: a bounded number
constexpr size_t kCryptoFrameOverhead = 16;  // type, offset, length: generous

}  // namespace

RecoveryContext Connection::recovery_context() const {
  RecoveryContext c;
  c.is_server = config_.is_server;
  const PacketSpace& hs = spaces_[static_cast<size_t>(Space::handshake)];
  c.has_handshake_keys = hs.tx.has_value() && !hs.discarded;
  c.handshake_confirmed = handshake_confirmed_;
  c.peer_completed_address_validation = config_.is_server || handshake_acked_ || handshake_confirmed_;
  c.amplification_blocked = config_.is_server && !address_validated_ && config_.respect_amplification_limit &&
                            stats_.bytes_sent >= 3 * stats_.bytes_received;
  return c;
}

void Connection::on_recovery_timeout(Instant now) {
  if (now >= pacing_deadline_) pacing_deadline_ = Instant::never();
  if (recovery_.next_timeout() > now) return;
  // Nothing in flight means the anti-deadlock probe (§6.2.2.1): one is enough.
  const bool anything_in_flight = recovery_.ack_eliciting_in_flight() > 0;
  auto out = recovery_.on_timeout(now, recovery_context());
  for (const auto& [s, p] : out.lost) on_packet_lost(now, s, p);
  qlog_.metrics(now, recovery_);
  if (!out.probe) return;
  probe_space_ = *out.probe;
  probe_index_ = 0;
  probe_datagrams_ = anything_in_flight ? 2 : 1;  // §6.2.4: one or two datagrams
}

bool Connection::probe_carries(Space s) const {
  // The PTO's space first, then any other handshake space with
  // ack-eliciting data in flight: its data may be lost as well.
  std::array<Space, 3> order{};
  size_t n = 0;
  order[n++] = probe_space_;
  for (Space other : {Space::initial, Space::handshake}) {
    const PacketSpace& sp = spaces_[static_cast<size_t>(other)];
    if (other != probe_space_ && recovery_.ack_eliciting_in_flight(other) > 0 && sp.tx && !sp.discarded)
      order[n++] = other;
  }
  if (config_.probe_coalescing) return std::find(order.begin(), order.begin() + n, s) != order.begin() + n;
  return order[static_cast<size_t>(probe_index_) % n] == s;
}

void Connection::add_probe_crypto(Space s, size_t budget, PendingPacket& out) {
  // Unacknowledged CRYPTO from where the previous probe stopped. Only a
  // probe that found nothing there wraps to the first unacknowledged byte:
  // one that carried the tail leaves its room to the next space's packet
  // (a coalesced Handshake probe). The fault starts at 0 every time.
  PacketSpace& sp = space(s);
  const uint64_t start = config_.probe_restart_crypto_at_zero ? 0 : sp.probe_cursor;
  uint64_t from = start;
  bool wrapped = start == 0, emitted = false;
  while (budget > out.payload.size() + kCryptoFrameOverhead) {
    const size_t room = budget - out.payload.size() - kCryptoFrameOverhead;
    auto chunk = sp.crypto_send.peek_unacked(from, room);
    if (chunk && wrapped && start > 0 && chunk->offset >= start) break;  // came full circle
    if (!chunk) {
      if (wrapped || emitted) break;
      from = 0;
      wrapped = true;
      continue;
    }
    emitted = true;
    if (wrapped && start > 0) chunk->data = chunk->data.first(std::min<size_t>(chunk->data.size(), start - chunk->offset));
    emit(out, CryptoFrame{chunk->offset, chunk->data}, SentCrypto{chunk->offset, chunk->data.size()});
    sp.crypto_send.on_sent(chunk->offset, chunk->data.size(), false);
    from = chunk->offset + chunk->data.size();
    sp.probe_cursor = from;
  }
}

size_t Connection::padding_target(const std::vector<PendingPacket>& packets, size_t limit, bool probe,
                                  size_t budget) const {
  bool initial = false, eliciting_initial = false, handshake = false;
  for (const PendingPacket& p : packets) {
    handshake = handshake || p.space == Space::handshake;
    if (p.space == Space::initial) {
      initial = true;
      eliciting_initial = eliciting_initial || p.ack_eliciting;
    }
  }
  if (!initial || !config_.pad_initial_datagrams || (handshake && !config_.pad_coalesced_initial)) return 0;
  // Probes are clamped to 1200 bytes: a path that lost the larger first
  // flight carries them.
  if (probe) return std::min(limit, kMinDatagram);
  // The first flight (any ack-eliciting Initial) is padded to initial_mtu,
  // which validates the path for that size (RFC 9000 §14.1 asks >= 1200).
  if (eliciting_initial) return std::min(limit, max_datagram_);
  // The fault (s2n-quic#3299): ACK-only Initials padded to initial_mtu even
  // after a datagram that large was declared lost.
  if (config_.pad_ack_only_to_initial_mtu) return std::min(budget, config_.initial_mtu);
  // An ACK-only Initial: a client still pads to 1200, a server need not.
  return config_.is_server ? 0 : std::min(limit, kMinDatagram);
}

void Connection::maybe_elicit_ack(std::vector<PendingPacket>& packets, size_t used, size_t limit) {
  const bool eliciting = std::any_of(packets.begin(), packets.end(),
                                     [](const PendingPacket& p) { return p.ack_eliciting; });
  if (eliciting) {
    ack_only_streak_ = 0;
    return;
  }
  if (config_.ack_only_ping_interval == 0 || ++ack_only_streak_ < config_.ack_only_ping_interval ||
      used + 1 > limit)
    return;
  emit(packets.back(), PingFrame{}, std::nullopt);
  ack_only_streak_ = 0;
}

bool Connection::stream_data_allowed(Instant now, size_t limit) {
  if (!recovery_.congestion().can_send(limit)) {  // RFC 9002 §7
    recovery_.set_app_limited(false);
    return false;
  }
  if (config_.pacing) {
    const Instant release = recovery_.pacing_release(now, limit);  // §7.7
    if (release > now) {
      pacing_deadline_ = release;
      return false;
    }
  }
  pacing_deadline_ = Instant::never();
  return true;
}

void Connection::on_lost_datagram_size(size_t datagram_bytes) {
  // Black-hole detection, lite: a lost datagram above base_mtu means the
  // path may not carry it; stay at base_mtu from now on.
  if (datagram_bytes <= config_.base_mtu || max_datagram_ <= config_.base_mtu) return;
  max_datagram_ = std::max(kMinDatagram, std::min(config_.base_mtu, max_datagram_));
  recovery_.set_max_datagram_size(max_datagram_);
}

bool Connection::buffer_undecryptable(Space s, std::span<const uint8_t> packet) {
  if (!config_.client_packet_buffering) return false;
  const bool wanted = config_.is_server ? s == Space::application : s != Space::initial;
  if (!wanted || buffered_.size() >= kMaxBufferedPackets) return false;
  buffered_.push_back({s, Bytes(packet.begin(), packet.end())});
  ++stats_.packets_buffered;
  return true;
}

void Connection::replay_buffered(Instant now) {
  for (bool progress = true; progress && !buffered_.empty();) {
    progress = false;
    for (size_t i = 0; i < buffered_.size();) {
      const PacketSpace& sp = space(buffered_[i].space);
      if (!sp.discarded && !sp.rx) {
        ++i;
        continue;
      }
      BufferedPacket b = std::move(buffered_[i]);
      buffered_.erase(buffered_.begin() + static_cast<ptrdiff_t>(i));
      if (sp.discarded) continue;  // too late: RFC 9001 §4.9 dropped its keys
      progress = true;
      std::span<uint8_t> bytes(b.bytes);
      if (const auto h = parse_packet_header(bytes, local_cid_.len))
        process_packet(now, *h, bytes.first(h->length));
      if (state_ == ConnectionState::closed || state_ == ConnectionState::draining) return;
    }
  }
}

}  // namespace conform::quic
