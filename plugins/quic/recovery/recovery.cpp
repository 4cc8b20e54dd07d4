// Loss detection and PTO, RFC 9002 §5-§6 (no congestion control yet).
#include "recovery/recovery.hpp"

#include <algorithm>

namespace conform::quic {

namespace {

constexpr uint64_t kPacketThreshold = 3;                  // RFC 9002 §6.1.1
constexpr Duration kGranularity = Duration::millis(1);    // §6.1.2

}  // namespace

void RttEstimate::update(Duration sample, Duration ack_delay, Duration max_ack_delay) {
  latest = sample;
  if (!has_sample) {
    has_sample = true;
    min = sample;
    smoothed = sample;
    variance = Duration::nanos(sample.ns / 2);
    return;
  }
  min = std::min(min, sample);
  Duration adjusted = sample;
  const Duration delay = std::min(ack_delay, max_ack_delay);
  if (sample >= min + delay) adjusted = sample - delay;
  const int64_t diff = std::abs(smoothed.ns - adjusted.ns);
  variance = Duration::nanos((3 * variance.ns + diff) / 4);
  smoothed = Duration::nanos((7 * smoothed.ns + adjusted.ns) / 8);
}

void Recovery::on_packet_sent(Space space, SentPacket packet) {
  SpaceState& s = spaces_[static_cast<size_t>(space)];
  s.largest_sent = std::max<int64_t>(s.largest_sent, static_cast<int64_t>(packet.pn));
  if (packet.ack_eliciting) s.last_eliciting_sent = packet.time_sent;
  const uint64_t pn = packet.pn;
  s.sent.emplace(pn, std::move(packet));
}

Result<Recovery::AckOutcome> Recovery::on_ack_received(Space space, const AckFrame& ack,
                                                       Duration ack_delay, Instant now) {
  SpaceState& s = spaces_[static_cast<size_t>(space)];
  if (static_cast<int64_t>(ack.largest()) > s.largest_sent)
    return TransportError(TransportErrorCode::protocol_violation,
                          "ACK of a packet number never sent", frame_type::ack);
  AckOutcome out;
  bool newly_acked_eliciting = false;
  for (const AckRange& r : ack.ranges) {
    auto it = s.sent.lower_bound(r.smallest);
    while (it != s.sent.end() && it->first <= r.largest) {
      newly_acked_eliciting = newly_acked_eliciting || it->second.ack_eliciting;
      out.acked.push_back(std::move(it->second));
      it = s.sent.erase(it);
    }
  }
  if (out.acked.empty()) return out;
  if (static_cast<int64_t>(ack.largest()) > s.largest_acked) {
    s.largest_acked = static_cast<int64_t>(ack.largest());
    // §5.1: an RTT sample only when the largest acknowledged is newly acked.
    for (const SentPacket& p : out.acked)
      if (p.pn == ack.largest() && newly_acked_eliciting)
        rtt_.update(now - p.time_sent, space == Space::application ? ack_delay : Duration{},
                    max_ack_delay_);
  }
  pto_count_ = 0;
  out.lost = detect_lost(s, now);
  return out;
}

std::vector<SentPacket> Recovery::detect_lost(SpaceState& s, Instant now) {
  std::vector<SentPacket> lost;
  s.loss_time = Instant::never();
  if (s.largest_acked < 0) return lost;
  const Duration loss_delay = std::max(
      Duration::nanos(std::max(rtt_.latest.ns, rtt_.smoothed.ns) * 9 / 8), kGranularity);
  for (auto it = s.sent.begin(); it != s.sent.end() && static_cast<int64_t>(it->first) < s.largest_acked;) {
    const bool by_count = static_cast<uint64_t>(s.largest_acked) - it->first >= kPacketThreshold;
    const bool by_time = it->second.time_sent + loss_delay <= now;
    if (by_count || by_time) {
      lost.push_back(std::move(it->second));
      it = s.sent.erase(it);
    } else {
      s.loss_time = std::min(s.loss_time, it->second.time_sent + loss_delay);
      ++it;
    }
  }
  return lost;
}

Duration Recovery::pto_period(Space space) const {
  Duration pto = rtt_.smoothed + std::max(rtt_.variance * 4, kGranularity);
  if (space == Space::application) pto = pto + max_ack_delay_;
  return pto;
}

size_t Recovery::in_flight(Space space) const {
  const auto& sent = spaces_[static_cast<size_t>(space)].sent;
  return static_cast<size_t>(std::count_if(sent.begin(), sent.end(),
                                           [](const auto& kv) { return kv.second.ack_eliciting; }));
}

Instant Recovery::next_timeout() const {
  Instant t = Instant::never();
  for (const SpaceState& s : spaces_) t = std::min(t, s.loss_time);
  if (!t.is_never()) return t;
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (in_flight(static_cast<Space>(i)) == 0) continue;
    const Duration backoff = pto_period(static_cast<Space>(i)) * (int64_t{1} << std::min(pto_count_, 16));
    t = std::min(t, spaces_[i].last_eliciting_sent + backoff);
  }
  return t;
}

Recovery::TimeoutOutcome Recovery::on_timeout(Instant now) {
  TimeoutOutcome out;
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (spaces_[i].loss_time > now) continue;
    for (SentPacket& p : detect_lost(spaces_[i], now))
      out.lost.emplace_back(static_cast<Space>(i), std::move(p));
  }
  if (!out.lost.empty()) return out;
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (in_flight(static_cast<Space>(i)) == 0) continue;
    const Duration backoff = pto_period(static_cast<Space>(i)) * (int64_t{1} << std::min(pto_count_, 16));
    if (spaces_[i].last_eliciting_sent + backoff <= now) {
      ++pto_count_;
      out.probe = true;
      out.probe_space = static_cast<Space>(i);
      return out;
    }
  }
  return out;
}

void Recovery::discard(Space space) {
  SpaceState& s = spaces_[static_cast<size_t>(space)];
  s.sent.clear();
  s.loss_time = Instant::never();
  pto_count_ = 0;
}

}  // namespace conform::quic
