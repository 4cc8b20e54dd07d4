// Pacing, RFC 9002 §7.7: spread a window's datagrams over the RTT instead of
// sending them in one burst. A token bucket refilled at the congestion
// controller's pacing rate (NewReno: N * congestion_window / smoothed_rtt,
// N = 1.25; BBR: pacing_gain * bottleneck bandwidth), holding at most a
// burst of kInitialWindow-sized tokens.
#pragma once

#include <cstddef>
#include <cstdint>

#include "codec/time.hpp"

namespace conform::quic {

class Pacer {
 public:
  /// `burst_bytes`: the most sent back to back (the bucket's size).
  explicit Pacer(uint64_t burst_bytes) : burst_(burst_bytes), tokens_(burst_bytes) {}

  /// When a datagram of `bytes` may leave: `now` if the bucket holds
  /// enough, else the instant it will. `rate` in bytes per second.
  Instant release_time(Instant now, size_t bytes, double rate);
  /// A paced datagram left at `now`.
  void on_sent(Instant now, size_t bytes, double rate);

 private:
  void refill(Instant now, double rate);
  uint64_t burst_;
  uint64_t tokens_;
  Instant last_{};
};

}  // namespace conform::quic
