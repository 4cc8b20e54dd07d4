// The RTT estimator, RFC 9002 §5: min_rtt, smoothed_rtt and rttvar from
// RTT samples, with the peer's ack delay subtracted as §5.3 allows.
#pragma once

#include "codec/time.hpp"

namespace conform::quic {

class RttEstimator {
 public:
  /// kInitialRtt (§6.2.2): 333 ms unless configured (`initial_rtt_ms`).
  explicit RttEstimator(Duration initial_rtt = Duration::millis(333))
      : smoothed_(initial_rtt), rttvar_(Duration::nanos(initial_rtt.ns / 2)) {}

  /// One RTT sample (§5.1): `latest_rtt` = ack time - send time of the
  /// largest newly acknowledged packet. `ack_delay` is the peer's reported
  /// delay, already scaled to time. Before the handshake is confirmed the
  /// delay is used as reported; after it, limited to `max_ack_delay`
  /// (§5.3). The delay is subtracted only when that leaves at least min_rtt.
  void update(Duration latest_rtt, Duration ack_delay, Duration max_ack_delay, bool handshake_confirmed);

  Duration latest() const { return latest_; }
  Duration smoothed() const { return smoothed_; }
  Duration rttvar() const { return rttvar_; }
  /// Zero before the first sample.
  Duration min() const { return min_; }
  bool has_sample() const { return has_sample_; }

 private:
  Duration latest_{}, smoothed_, rttvar_, min_{};
  bool has_sample_ = false;
};

}  // namespace conform::quic
