// Delivery rate estimation (draft-cheng-iccrg-delivery-rate-estimation,
// used by draft-ietf-ccwg-bbr §4.5.2): each packet leaves stamped with the
// connection's delivery counters; when it is acknowledged, the bytes
// delivered since it left over the longer of its send and ACK intervals
// give one sample of the delivery rate. A sample taken while the
// application left the window underused is marked app-limited: it
// measures the application, not the path.
#pragma once

#include <cstdint>
#include <vector>

#include "codec/time.hpp"
#include "recovery/sent_packet.hpp"

namespace conform::quic {

/// One rate sample (the draft's `rs`).
struct RateSample {
  bool acked = false;         ///< a packet in flight was acknowledged: the fields below are set
  bool valid = false;         ///< delivery_rate is a measurement (interval >= min_rtt)
  double delivery_rate = 0;   ///< bytes per second
  uint64_t delivered = 0;     ///< bytes acknowledged over the interval
  Duration interval;          ///< max(send_elapsed, ack_elapsed)
  uint64_t prior_delivered = 0;  ///< C.delivered when the newest acknowledged packet left
  bool app_limited = false;
  Duration rtt;               ///< ACK time - send time of the newest acknowledged packet
};

class DeliveryRateSampler {
 public:
  /// Stamps `p` as it leaves at `now`; `bytes_in_flight` before it left.
  void on_packet_sent(Instant now, uint64_t bytes_in_flight, SentPacket& p);
  /// The sender is application-limited with `bytes_in_flight` out: samples
  /// stay app-limited until everything sent so far is delivered.
  void on_app_limited(uint64_t bytes_in_flight);
  /// The packets one ACK newly acknowledged, at `now`. Packets not in
  /// flight are ignored. A sample shorter than `min_rtt` (zero: unknown) is
  /// not valid: ACK compression would overstate the rate.
  RateSample on_ack(Instant now, const std::vector<SentPacket>& acked, Duration min_rtt);

  /// C.delivered: bytes acknowledged so far.
  uint64_t delivered() const { return delivered_; }
  bool app_limited() const { return app_limited_until_ != 0; }

 private:
  uint64_t delivered_ = 0;
  Instant delivered_time_;
  Instant first_sent_time_;
  uint64_t app_limited_until_ = 0;  ///< C.app_limited: the delivered count that ends it; 0: not limited
};

}  // namespace conform::quic
