// Delivery rate samples, draft-cheng-iccrg-delivery-rate-estimation §3.
#include "recovery/delivery_rate.hpp"

#include <algorithm>

namespace conform::quic {

void DeliveryRateSampler::on_packet_sent(Instant now, uint64_t bytes_in_flight, SentPacket& p) {
  // Nothing in flight: a new flight starts, and its intervals with it.
  if (bytes_in_flight == 0) first_sent_time_ = delivered_time_ = now;
  p.delivery.delivered = delivered_;
  p.delivery.delivered_time = delivered_time_;
  p.delivery.first_sent_time = first_sent_time_;
  p.delivery.app_limited = app_limited_until_ != 0;
}

void DeliveryRateSampler::on_app_limited(uint64_t bytes_in_flight) {
  app_limited_until_ = std::max<uint64_t>(delivered_ + bytes_in_flight, 1);
}

RateSample DeliveryRateSampler::on_ack(Instant now, const std::vector<SentPacket>& acked, Duration min_rtt) {
  RateSample rs;
  Instant newest_sent;
  Duration send_elapsed, ack_elapsed;
  for (const SentPacket& p : acked) {
    if (!p.in_flight) continue;
    delivered_ += p.bytes;
    delivered_time_ = now;
    // The sample follows the most recently sent of the packets acknowledged.
    const bool newer = !rs.acked || p.delivery.delivered > rs.prior_delivered ||
                       (p.delivery.delivered == rs.prior_delivered && p.time_sent > newest_sent);
    if (!newer) continue;
    rs.acked = true;
    rs.prior_delivered = p.delivery.delivered;
    rs.app_limited = p.delivery.app_limited;
    newest_sent = p.time_sent;
    send_elapsed = p.time_sent - p.delivery.first_sent_time;
    ack_elapsed = now - p.delivery.delivered_time;
    first_sent_time_ = p.time_sent;
  }
  if (app_limited_until_ != 0 && delivered_ > app_limited_until_) app_limited_until_ = 0;
  if (!rs.acked) return rs;
  rs.rtt = now - newest_sent;
  rs.delivered = delivered_ - rs.prior_delivered;
  rs.interval = std::max(send_elapsed, ack_elapsed);
  rs.valid = rs.interval.ns > 0 && rs.interval >= min_rtt;
  if (rs.valid) rs.delivery_rate = static_cast<double>(rs.delivered) * 1e9 / static_cast<double>(rs.interval.ns);
  return rs;
}

}  // namespace conform::quic
