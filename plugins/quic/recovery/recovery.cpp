// Loss detection and the loss detection timer, RFC 9002 §6 and Appendix A.
#include "recovery/recovery.hpp"

#include <algorithm>

namespace conform::quic {

namespace {

constexpr uint64_t kPacketThreshold = 3;                 // §6.1.1
constexpr Duration kGranularity = Duration::millis(1);   // §6.1.2
constexpr int64_t kPersistentCongestionThreshold = 3;    // §7.6.1
constexpr int kMaxBackoffShift = 16;                     // keeps 2^pto_count finite

}  // namespace

Recovery::Recovery(const RecoveryConfig& config)
    : rtt_(config.initial_rtt),
      max_ack_delay_(config.max_ack_delay),
      cc_(make_congestion_controller(config.controller, config.congestion, config.max_datagram_size)),
      pacer_(initial_window(config.congestion.initial_window_packets, config.max_datagram_size)),
      pto_backoff_(config.pto_backoff),
      anti_deadlock_(config.anti_deadlock),
      pto_reset_on_any_ack_(config.pto_reset_on_any_ack),
      pto_reset_on_initial_ack_(config.pto_reset_on_initial_ack),
      pto_reset_on_key_discard_(config.pto_reset_on_key_discard) {}

size_t Recovery::ack_eliciting_in_flight() const {
  size_t n = 0;
  for (const SpaceState& s : spaces_) n += s.eliciting;
  return n;
}

void Recovery::on_packet_sent(Space space, SentPacket packet) {
  SpaceState& s = spaces_[idx(space)];
  s.largest_sent = std::max<int64_t>(s.largest_sent, static_cast<int64_t>(packet.pn));
  if (packet.ack_eliciting) {
    s.last_eliciting_sent = packet.time_sent;
    ++s.eliciting;
    anti_deadlock_since_ = Instant::never();
  }
  if (packet.in_flight) cc_->on_packet_sent(packet.time_sent, packet);
  const uint64_t pn = packet.pn;
  s.sent.emplace(pn, std::move(packet));
}

SentPacket Recovery::take(SpaceState& s, std::map<uint64_t, SentPacket>::iterator& it) {
  SentPacket p = std::move(it->second);
  if (p.ack_eliciting) --s.eliciting;
  it = s.sent.erase(it);
  return p;
}

Result<Recovery::AckOutcome> Recovery::on_ack_received(Space space, const AckFrame& ack,
                                                       Duration ack_delay, Instant now,
                                                       const RecoveryContext& ctx) {
  SpaceState& s = spaces_[idx(space)];
  if (static_cast<int64_t>(ack.largest()) > s.largest_sent)
    return TransportError(TransportErrorCode::protocol_violation,
                          "ACK of a packet number never sent", frame_type::ack);
  s.largest_acked = std::max(s.largest_acked, static_cast<int64_t>(ack.largest()));
  AckOutcome out;
  for (const AckRange& r : ack.ranges)
    for (auto it = s.sent.lower_bound(r.smallest); it != s.sent.end() && it->first <= r.largest;)
      out.acked.push_back(take(s, it));
  if (out.acked.empty()) {
    // A.7 returns here: nothing newly acknowledged says nothing about the
    // path, so the backoff stays. The fault resets it all the same.
    if (pto_reset_on_any_ack_ && ctx.peer_completed_address_validation) {
      pto_count_ = 0;
      set_timer(now, ctx);
    }
    return out;
  }
  // §5.1: a sample when the largest acknowledged is newly acknowledged and
  // at least one newly acknowledged packet was ack-eliciting.
  const bool any_eliciting = std::any_of(out.acked.begin(), out.acked.end(),
                                         [](const SentPacket& p) { return p.ack_eliciting; });
  const auto largest = std::find_if(out.acked.begin(), out.acked.end(),
                                    [&](const SentPacket& p) { return p.pn == ack.largest(); });
  if (largest != out.acked.end() && any_eliciting) {
    // §5.3: Initial packets' ack delay is ignored (the peer cannot delay them).
    const Duration delay = space == Space::initial ? Duration{} : ack_delay;
    rtt_.update(now - largest->time_sent, delay, max_ack_delay_, ctx.handshake_confirmed);
    if (first_rtt_sample_.is_never()) first_rtt_sample_ = now;
  }
  out.lost = detect_lost(s, now);
  out.persistent_congestion = on_packets_lost(out.lost, now);
  cc_->on_packets_acked(now, out.acked, rtt_);
  // §6.2.1: not at a client unsure the server validated its address (the
  // fault resets it on the Initial ACKs such a client gets).
  if (ctx.peer_completed_address_validation || (pto_reset_on_initial_ack_ && space == Space::initial))
    pto_count_ = 0;
  set_timer(now, ctx);
  return out;
}

std::vector<SentPacket> Recovery::detect_lost(SpaceState& s, Instant now) {
  std::vector<SentPacket> lost;
  s.loss_time = Instant::never();
  if (s.largest_acked < 0) return lost;
  // §6.1.2: 9/8 of the larger of the latest and smoothed RTT.
  const Duration loss_delay =
      std::max(Duration::nanos(std::max(rtt_.latest().ns, rtt_.smoothed().ns) * 9 / 8), kGranularity);
  for (auto it = s.sent.begin(); it != s.sent.end() && static_cast<int64_t>(it->first) <= s.largest_acked;) {
    const bool by_count = static_cast<uint64_t>(s.largest_acked) >= it->first + kPacketThreshold;
    const bool by_time = it->second.time_sent + loss_delay <= now;
    if (by_count || by_time) {
      lost.push_back(take(s, it));
    } else {
      s.loss_time = std::min(s.loss_time, it->second.time_sent + loss_delay);
      ++it;
    }
  }
  return lost;
}

bool Recovery::on_packets_lost(const std::vector<SentPacket>& lost, Instant now) {
  Instant largest_lost_sent = Instant::from_nanos(std::numeric_limits<int64_t>::min());
  uint64_t lost_bytes = 0;
  for (const SentPacket& p : lost) {
    if (!p.in_flight) continue;
    cc_->remove_from_flight(p.bytes);
    if (p.mtu_probe) continue;  // RFC 9000 §14.4: no congestion signal
    lost_bytes += p.bytes;
    largest_lost_sent = std::max(largest_lost_sent, p.time_sent);
  }
  if (lost_bytes == 0) return false;
  cc_->on_congestion_event(now, largest_lost_sent, lost_bytes);
  // §7.6.2: ack-eliciting packets sent after the first RTT sample, lost in a
  // run of consecutive packet numbers (nothing between them acknowledged)
  // spanning longer than the persistent congestion duration.
  if (first_rtt_sample_.is_never()) return false;
  const Duration threshold = persistent_congestion_duration();
  const SentPacket* run_start = nullptr;
  const SentPacket* prev = nullptr;
  for (const SentPacket& p : lost) {
    if (p.mtu_probe) continue;
    if (!p.ack_eliciting || p.time_sent <= first_rtt_sample_) {
      run_start = prev = nullptr;
      continue;
    }
    if (!prev || p.pn != prev->pn + 1) run_start = &p;
    prev = &p;
    if (p.time_sent - run_start->time_sent > threshold) {
      cc_->on_persistent_congestion();
      return true;
    }
  }
  return false;
}

Duration Recovery::pto_period(Space space) const {
  Duration pto = rtt_.smoothed() + std::max(rtt_.rttvar() * 4, kGranularity);
  if (space == Space::application) pto = pto + max_ack_delay_;
  return pto;
}

Duration Recovery::persistent_congestion_duration() const {
  return pto_period(Space::application) * kPersistentCongestionThreshold;
}

std::pair<Instant, Space> Recovery::pto_time_and_space(Instant now, const RecoveryContext& ctx) const {
  const int64_t backoff = int64_t{1} << std::min(pto_count_, kMaxBackoffShift);
  const Duration duration = pto_period(Space::initial) * backoff;
  if (ack_eliciting_in_flight() == 0) {
    // §6.2.2.1: a client with nothing in flight still arms the PTO until the
    // server has validated its address, so a lost server flight cannot
    // deadlock the handshake.
    const Instant since = anti_deadlock_since_.is_never() ? now : anti_deadlock_since_;
    return {since + duration, ctx.has_handshake_keys ? Space::handshake : Space::initial};
  }
  Instant best = Instant::never();
  Space best_space = Space::initial;
  for (Space space : {Space::initial, Space::handshake, Space::application}) {
    const SpaceState& s = spaces_[idx(space)];
    if (s.eliciting == 0) continue;
    Duration d = duration;
    if (space == Space::application) {
      if (!ctx.handshake_confirmed) break;  // §6.2.1: no 1-RTT PTO before confirmation
      d = d + max_ack_delay_ * backoff;
    }
    if (s.last_eliciting_sent + d < best) {
      best = s.last_eliciting_sent + d;
      best_space = space;
    }
  }
  return {best, best_space};
}

void Recovery::set_timer(Instant now, const RecoveryContext& ctx) {
  Instant loss = Instant::never();
  for (const SpaceState& s : spaces_) loss = std::min(loss, s.loss_time);
  if (!loss.is_never()) {
    timer_ = loss;
    return;
  }
  if (ctx.amplification_blocked) {
    timer_ = Instant::never();  // §6.2.2.1: nothing could be sent anyway
    return;
  }
  if (ack_eliciting_in_flight() == 0 && (ctx.is_server || ctx.peer_completed_address_validation || !anti_deadlock_)) {
    timer_ = Instant::never();
    anti_deadlock_since_ = Instant::never();
    return;
  }
  if (ack_eliciting_in_flight() == 0 && anti_deadlock_since_.is_never()) anti_deadlock_since_ = now;
  timer_ = pto_time_and_space(now, ctx).first;
}

Recovery::TimeoutOutcome Recovery::on_timeout(Instant now, const RecoveryContext& ctx) {
  TimeoutOutcome out;
  Instant loss = Instant::never();
  Space loss_space = Space::initial;
  for (Space space : {Space::initial, Space::handshake, Space::application})
    if (spaces_[idx(space)].loss_time < loss) {
      loss = spaces_[idx(space)].loss_time;
      loss_space = space;
    }
  if (!loss.is_never()) {
    // §6.1.2: the time threshold expired for a packet below the largest acknowledged.
    std::vector<SentPacket> lost = detect_lost(spaces_[idx(loss_space)], now);
    out.persistent_congestion = on_packets_lost(lost, now);
    for (SentPacket& p : lost) out.lost.emplace_back(loss_space, std::move(p));
    set_timer(now, ctx);
    return out;
  }
  out.probe = pto_time_and_space(now, ctx).second;
  if (pto_backoff_) ++pto_count_;
  anti_deadlock_since_ = Instant::never();
  if (ack_eliciting_in_flight() == 0) anti_deadlock_since_ = now;
  set_timer(now, ctx);
  return out;
}

void Recovery::discard(Space space) {
  SpaceState& s = spaces_[idx(space)];
  for (auto& [pn, p] : s.sent)
    if (p.in_flight) cc_->remove_from_flight(p.bytes);
  s.sent.clear();
  s.eliciting = 0;
  s.loss_time = Instant::never();
  s.last_eliciting_sent = Instant::never();
  // A.11 (§6.2.2: the PTO MUST be reset when keys are discarded); the
  // fault keeps the backoff.
  if (pto_reset_on_key_discard_) pto_count_ = 0;
}

}  // namespace conform::quic
