// NewReno congestion control, RFC 9002 §7 and Appendix B: slow start,
// congestion avoidance, one recovery period per congestion event, and the
// collapse to the minimum window on persistent congestion (§7.6). Counts
// bytes in flight (§2: ack-eliciting or padded packets).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "codec/time.hpp"

namespace conform::quic {

/// The controller's knobs (RFC 9002 §7.2, §7.3.2, Appendix B.2).
struct CongestionParams {
  uint64_t initial_window_packets = 10;  ///< kInitialWindow in datagrams (capped at 14720 bytes by §7.2 unless larger here)
  uint64_t minimum_window_packets = 2;   ///< kMinimumWindow in datagrams
  double loss_reduction_factor = 0.5;    ///< kLossReductionFactor, (0, 1]
};

class NewReno {
 public:
  /// `max_datagram_size` in bytes (§7.2 sizes the windows from it).
  NewReno(CongestionParams params, size_t max_datagram_size);

  /// The datagram size changed (MTU policy): windows follow (§7.2).
  void set_max_datagram_size(size_t bytes);
  void on_packet_sent(size_t bytes) { bytes_in_flight_ += bytes; }
  /// A packet in flight was acknowledged: leaves flight, grows the window
  /// unless it was sent before the current recovery period began.
  void on_packet_acked(size_t bytes, Instant time_sent);
  /// A packet in flight was declared lost or its space discarded.
  void remove_from_flight(size_t bytes);
  /// Packets were declared lost; the newest was sent at `largest_lost_sent`.
  /// Enters recovery unless that packet belongs to the current period (§7.3.2).
  void on_congestion_event(Instant largest_lost_sent, Instant now);
  /// §7.6.2: the window collapses to the minimum.
  void on_persistent_congestion();
  /// §7.8: the sender left the window underused (it had nothing more to
  /// send); acknowledgements do not grow the window until it fills again.
  void set_app_limited(bool v) { app_limited_ = v; }

  uint64_t window() const { return cwnd_; }
  uint64_t ssthresh() const { return ssthresh_; }
  uint64_t bytes_in_flight() const { return bytes_in_flight_; }
  bool in_slow_start() const { return cwnd_ < ssthresh_; }
  /// Room for `bytes` more in flight.
  bool can_send(size_t bytes) const { return bytes_in_flight_ + bytes <= cwnd_; }
  uint64_t minimum_window() const { return params_.minimum_window_packets * mds_; }

 private:
  CongestionParams params_;
  uint64_t mds_;
  uint64_t cwnd_;
  uint64_t ssthresh_ = std::numeric_limits<uint64_t>::max();
  uint64_t bytes_in_flight_ = 0;
  uint64_t ca_acked_ = 0;
  bool app_limited_ = false;  ///< bytes acked toward the next +1 datagram in congestion avoidance
  Instant recovery_start_ = Instant::from_nanos(std::numeric_limits<int64_t>::min());
};

}  // namespace conform::quic
