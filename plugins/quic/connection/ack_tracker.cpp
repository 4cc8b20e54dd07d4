// ACK generation, RFC 9000 §13.2 and §19.3.
#include "connection/ack_tracker.hpp"

namespace conform::quic {

void AckTracker::on_packet_received(uint64_t pn, bool ack_eliciting, Instant now) {
  received_.insert(pn, pn + 1);
  if (static_cast<int64_t>(pn) > largest_) {
    largest_ = static_cast<int64_t>(pn);
    largest_time_ = now;
  }
  if (received_.size() > kMaxRanges) received_.remove_below(std::next(received_.ranges().begin())->first);
  new_pending_ = true;
  eliciting_pending_ = eliciting_pending_ || ack_eliciting;
}

std::optional<AckFrame> AckTracker::build(Instant now, uint64_t ack_delay_exponent) const {
  if (received_.empty()) return std::nullopt;
  AckFrame a;
  for (auto it = received_.ranges().rbegin(); it != received_.ranges().rend(); ++it)
    a.ranges.push_back({it->first, it->second - 1});
  const int64_t delay_us = std::max<int64_t>(0, (now - largest_time_).as_micros());
  a.ack_delay = static_cast<uint64_t>(delay_us) >> ack_delay_exponent;
  return a;
}

}  // namespace conform::quic
