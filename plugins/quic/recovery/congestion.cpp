// NewReno, RFC 9002 §7 / Appendix B.
#include "recovery/congestion.hpp"

#include <algorithm>

namespace conform::quic {

NewReno::NewReno(CongestionParams params, size_t max_datagram_size)
    : params_(params), mds_(max_datagram_size), cwnd_(params.initial_window_packets * max_datagram_size) {}

void NewReno::set_max_datagram_size(size_t bytes) {
  // §7.2: a smaller datagram size shrinks nothing already granted except
  // that the window never stays below the new minimum.
  mds_ = bytes;
  cwnd_ = std::max(cwnd_, minimum_window());
}

void NewReno::on_packet_acked(size_t bytes, Instant time_sent) {
  remove_from_flight(bytes);
  if (time_sent <= recovery_start_) return;  // B.5: no growth during recovery
  if (app_limited_) return;                   // §7.8: an underused window proves nothing
  if (in_slow_start()) {
    cwnd_ += bytes;
    return;
  }
  // Congestion avoidance: one datagram per window acknowledged.
  ca_acked_ += bytes;
  if (ca_acked_ >= cwnd_) {
    ca_acked_ -= cwnd_;
    cwnd_ += mds_;
  }
}

void NewReno::remove_from_flight(size_t bytes) {
  bytes_in_flight_ -= std::min<uint64_t>(bytes_in_flight_, bytes);
}

void NewReno::on_congestion_event(Instant largest_lost_sent, Instant now) {
  if (largest_lost_sent <= recovery_start_) return;  // §7.3.2: one reduction per period
  recovery_start_ = now;
  ssthresh_ = std::max(static_cast<uint64_t>(static_cast<double>(cwnd_) * params_.loss_reduction_factor),
                       minimum_window());
  cwnd_ = ssthresh_;
  ca_acked_ = 0;
}

void NewReno::on_persistent_congestion() {
  cwnd_ = minimum_window();
  recovery_start_ = Instant::from_nanos(std::numeric_limits<int64_t>::min());
  ca_acked_ = 0;
}

}  // namespace conform::quic
