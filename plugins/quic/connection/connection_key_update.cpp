// Key update, RFC 9001 §6: 1-RTT packets carry a key phase bit; flipping
// it moves both directions to keys derived with "quic ku". Either side may
// start one once the handshake is confirmed and its previous update was
// acknowledged (§6.1, §6.5).
#include "connection/connection.hpp"

#include "tls/protect_packet.hpp"

namespace conform::quic {

const PacketKeys* Connection::rx_keys_for(std::span<const uint8_t> packet, size_t pn_offset,
                                          bool& next_phase) {
  next_phase = false;
  PacketSpace& app = space(Space::application);
  const auto first = unmasked_first_byte(packet, pn_offset, *app.rx);  // hp key never changes
  if (!first) return nullptr;
  const bool phase = *first & 0x04;
  if (phase == key_phase_) return &*app.rx;
  // The other phase: late packets of the phase we just left, or the peer
  // starting the next one (§6.3).
  if (!peer_in_current_phase_) return prev_rx_ ? &*prev_rx_ : nullptr;
  if (!handshake_confirmed_) return nullptr;
  if (!next_rx_) next_rx_ = app.rx->next_generation();
  next_phase = true;
  return next_rx_ ? &*next_rx_ : nullptr;
}

void Connection::on_one_rtt_opened(bool next_phase) {
  PacketSpace& app = space(Space::application);
  if (!next_phase) {
    peer_in_current_phase_ = true;
    return;
  }
  // The peer updated: follow it in both directions (§6.2).
  prev_rx_ = std::move(app.rx);
  app.rx = std::move(next_rx_);
  next_rx_.reset();
  app.tx = app.tx->next_generation();
  key_phase_ = !key_phase_;
  peer_in_current_phase_ = true;
  acked_in_current_phase_ = false;
  phase_start_pn_ = app.next_pn;
  packets_in_phase_ = 0;
  ++stats_.key_updates;
}

void Connection::maybe_initiate_key_update() {
  PacketSpace& app = space(Space::application);
  if (config_.key_update_interval_packets == 0 || !handshake_confirmed_ || !app.tx || !app.rx ||
      packets_in_phase_ < config_.key_update_interval_packets || !acked_in_current_phase_ ||
      !peer_in_current_phase_)
    return;
  auto tx = app.tx->next_generation();
  auto rx = app.rx->next_generation();
  if (!tx || !rx) return;
  prev_rx_ = std::move(app.rx);
  app.rx = std::move(rx);
  app.tx = std::move(tx);
  next_rx_.reset();
  key_phase_ = !key_phase_;
  peer_in_current_phase_ = false;  // until the peer answers in the new phase
  acked_in_current_phase_ = false;
  phase_start_pn_ = app.next_pn;
  packets_in_phase_ = 0;
  ++stats_.key_updates;
}

void Connection::on_app_ack(uint64_t largest) {
  if (largest >= phase_start_pn_) acked_in_current_phase_ = true;
}

}  // namespace conform::quic
