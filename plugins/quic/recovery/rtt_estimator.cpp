// RTT estimation, RFC 9002 §5.2 (min_rtt) and §5.3 (smoothed_rtt, rttvar).
#include "recovery/rtt_estimator.hpp"

#include <algorithm>
#include <cstdlib>

namespace conform::quic {

void RttEstimator::update(Duration latest_rtt, Duration ack_delay, Duration max_ack_delay,
                          bool handshake_confirmed) {
  latest_ = latest_rtt;
  if (!has_sample_) {
    // §5.3: the first sample initialises the estimator as it is.
    has_sample_ = true;
    min_ = latest_rtt;
    smoothed_ = latest_rtt;
    rttvar_ = Duration::nanos(latest_rtt.ns / 2);
    return;
  }
  min_ = std::min(min_, latest_rtt);
  if (handshake_confirmed) ack_delay = std::min(ack_delay, max_ack_delay);
  Duration adjusted = latest_rtt;
  if (latest_rtt >= min_ + ack_delay) adjusted = latest_rtt - ack_delay;
  rttvar_ = Duration::nanos((3 * rttvar_.ns + std::abs(smoothed_.ns - adjusted.ns)) / 4);
  smoothed_ = Duration::nanos((7 * smoothed_.ns + adjusted.ns) / 8);
}

}  // namespace conform::quic
