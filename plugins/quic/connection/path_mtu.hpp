// DPLPMTUD-lite (RFC 8899 §5, RFC 9000 §14.3): the search for the largest
// datagram the path carries, upward from base_mtu. One probe packet
// (PING + PADDING to the probed size) is out at a time; an acknowledged
// probe confirms its size, MAX_PROBES (3) losses of the same size make it
// the ceiling's new bound. The first probe tries the ceiling itself (the
// likely answer on common paths); after a failure the search halves the
// remaining range, and stops once it is narrower than 16 bytes. Pure
// bookkeeping: the connection builds, sends and accounts the probes.
#pragma once

#include <cstddef>
#include <optional>

namespace conform::quic {

class PathMtuSearch {
 public:
  /// `base`: the size known to work (bytes, the search's floor);
  /// `ceiling`: the largest size worth trying (the peer's
  /// max_udp_payload_size and ours, whichever is smaller).
  PathMtuSearch(size_t base, size_t ceiling) : confirmed_(base), ceiling_(ceiling) {}

  /// The size of the next probe, or nullopt while one is out or the search is over.
  std::optional<size_t> next_probe() const;
  void on_probe_sent(size_t size) { outstanding_ = size; }
  /// The path carried `size`: it becomes the confirmed size.
  void on_probe_acked(size_t size);
  /// A probe of `size` was declared lost.
  void on_probe_lost(size_t size);

  /// The largest size confirmed so far, bytes.
  size_t confirmed() const { return confirmed_; }
  bool done() const { return !outstanding_ && !next_probe(); }

 private:
  static constexpr int kMaxProbes = 3;        // RFC 8899 §5.1.2 MAX_PROBES
  static constexpr size_t kMinStep = 16;      // not worth a probe below this
  size_t confirmed_;
  size_t ceiling_;       ///< the largest size not yet known to fail
  bool tried_ceiling_ = false;
  size_t outstanding_ = 0;  ///< size of the probe out; 0: none
  size_t failing_ = 0;      ///< size whose losses are being counted
  int losses_ = 0;
};

}  // namespace conform::quic
