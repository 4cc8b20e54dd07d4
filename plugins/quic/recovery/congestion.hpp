// NewReno congestion control, RFC 9002 §7 and Appendix B: slow start,
// congestion avoidance, one recovery period per congestion event, and the
// collapse to the minimum window on persistent congestion (§7.6). Counts
// bytes in flight (§2: ack-eliciting or padded packets).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "recovery/congestion_controller.hpp"

namespace conform::quic {

class NewReno final : public CongestionController {
 public:
  /// `max_datagram_size` in bytes (§7.2 sizes the windows from it; the
  /// initial window is initial_window()).
  NewReno(CongestionParams params, size_t max_datagram_size);

  void set_max_datagram_size(size_t bytes) override;
  void on_packet_sent(Instant, SentPacket& p) override { bytes_in_flight_ += p.bytes; }
  void on_packets_acked(Instant now, const std::vector<SentPacket>& acked, const RttEstimator& rtt) override;
  /// Enters recovery unless the newest lost packet belongs to the current
  /// period (§7.3.2).
  void on_congestion_event(Instant now, Instant largest_lost_sent, uint64_t lost_bytes) override;
  /// §7.6.2: the window collapses to the minimum.
  void on_persistent_congestion() override;
  /// §7.8: acknowledgements do not grow an underused window.
  void set_app_limited(bool v) override { app_limited_ = v; }
  uint64_t window() const override { return cwnd_; }
  /// §7.7: N * congestion_window / smoothed_rtt with N = 1.25.
  double pacing_rate(Duration smoothed_rtt) const override;

  /// A packet in flight was acknowledged: leaves flight, grows the window
  /// unless it was sent before the current recovery period began (B.5).
  void on_packet_acked(size_t bytes, Instant time_sent);
  uint64_t ssthresh() const override { return ssthresh_; }
  bool in_slow_start() const { return cwnd_ < ssthresh_; }
  uint64_t minimum_window() const { return params_.minimum_window_packets * mds_; }

 private:
  CongestionParams params_;
  uint64_t mds_;
  uint64_t cwnd_;
  uint64_t ssthresh_ = std::numeric_limits<uint64_t>::max();
  uint64_t ca_acked_ = 0;  ///< bytes acked toward the next +1 datagram in congestion avoidance
  bool app_limited_ = false;
  Instant recovery_start_ = Instant::from_nanos(std::numeric_limits<int64_t>::min());
};

}  // namespace conform::quic
