// NewReno, RFC 9002 §7 / Appendix B.
#include "recovery/congestion.hpp"

#include <algorithm>

#include "recovery/bbr.hpp"

namespace conform::quic {

NewReno::NewReno(CongestionParams params, size_t max_datagram_size)
    : params_(params), mds_(max_datagram_size), cwnd_(initial_window(params.initial_window_packets, max_datagram_size)) {}

void NewReno::set_max_datagram_size(size_t bytes) {
  // §7.2: a smaller datagram size shrinks nothing already granted except
  // that the window never stays below the new minimum.
  mds_ = bytes;
  cwnd_ = std::max(cwnd_, minimum_window());
}

void NewReno::on_packets_acked(Instant, const std::vector<SentPacket>& acked, const RttEstimator&) {
  for (const SentPacket& p : acked)
    if (p.in_flight) on_packet_acked(p.bytes, p.time_sent);
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

void NewReno::on_congestion_event(Instant now, Instant largest_lost_sent, uint64_t) {
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

double NewReno::pacing_rate(Duration smoothed_rtt) const {
  const double rtt_s = static_cast<double>(std::max<int64_t>(smoothed_rtt.ns, 1)) / 1e9;
  return 1.25 * static_cast<double>(cwnd_) / rtt_s;
}

std::unique_ptr<CongestionController> make_congestion_controller(CongestionControl kind, CongestionParams params,
                                                                 size_t max_datagram_size) {
  if (kind == CongestionControl::bbr) return std::make_unique<Bbr>(params, max_datagram_size);
  return std::make_unique<NewReno>(params, max_datagram_size);
}

}  // namespace conform::quic
