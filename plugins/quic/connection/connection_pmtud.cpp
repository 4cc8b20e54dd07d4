// DPLPMTUD-lite on the connection (RFC 8899 §4, RFC 9000 §14.3): probe
// datagrams of one 1-RTT packet, PING and PADDING to the probed size,
// sent one at a time within the congestion window once the handshake is
// confirmed; their acknowledgement raises the datagram size.
#include "connection/connection.hpp"

#include <algorithm>

#include "codec/packet_number.hpp"

namespace conform::quic {

std::optional<Bytes> Connection::mtu_probe_datagram(Instant now) {
  if (!config_.pmtud || !handshake_confirmed_ || probe_datagrams_ > 0) return std::nullopt;
  if (!pmtu_) {
    // §14.3: the search starts from base_mtu, up to what the peer accepts.
    const size_t ceiling = std::min<uint64_t>(peer_params_->max_udp_payload_size, config_.max_udp_payload_size);
    pmtu_.emplace(std::max(max_datagram_, config_.base_mtu), ceiling);
  }
  const std::optional<size_t> size = pmtu_->next_probe();
  if (!size || !recovery_.congestion().can_send(*size)) return std::nullopt;
  PacketSpace& sp = space(Space::application);
  std::vector<PendingPacket> packets(1);
  PendingPacket& p = packets.front();
  p.space = Space::application;
  p.pn = sp.next_pn;
  p.pn_len = packet_number_length(p.pn, recovery_.largest_acked(Space::application));
  p.mtu_probe = p.padded = true;
  emit(p, PingFrame{}, std::nullopt);
  const size_t overhead = header_overhead(Space::application, p.pn_len);
  p.payload.resize(*size - overhead);  // PADDING frames are zeros
  pmtu_->on_probe_sent(*size);
  return seal_datagram(now, packets);
}

void Connection::on_mtu_probe_done(const SentPacket& p, bool acked) {
  if (!pmtu_) return;
  if (!acked) return pmtu_->on_probe_lost(p.datagram_bytes);
  pmtu_->on_probe_acked(p.datagram_bytes);
  if (pmtu_->confirmed() <= max_datagram_) return;
  max_datagram_ = pmtu_->confirmed();
  recovery_.set_max_datagram_size(max_datagram_);
}

}  // namespace conform::quic
