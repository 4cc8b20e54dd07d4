// What loss recovery asks of a congestion controller (RFC 9002 §7): how
// many bytes may be in flight (the congestion window), how fast to pace
// them (§7.7), and the events that move both: packets sent, acknowledged
// and lost, persistent congestion (§7.6), an application-limited sender
// (§7.8). Two controllers implement it: NewReno (RFC 9002 §7, the default)
// and a BBR-style model-based controller (draft-ietf-ccwg-bbr; bbr.hpp)
// that does not read random loss as congestion.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "codec/time.hpp"
#include "recovery/rtt_estimator.hpp"
#include "recovery/sent_packet.hpp"

namespace conform::quic {

/// Which controller a connection runs (the `congestion_controller` knob).
enum class CongestionControl : uint8_t { newreno, bbr };

/// The controllers' shared knobs (RFC 9002 §7.2, §7.3.2, Appendix B.2).
struct CongestionParams {
  uint64_t initial_window_packets = 10;  ///< kInitialWindow in datagrams, before the cap of initial_window()
  uint64_t minimum_window_packets = 2;   ///< kMinimumWindow in datagrams (NewReno)
  double loss_reduction_factor = 0.5;    ///< kLossReductionFactor, (0, 1] (NewReno)
};

/// The initial congestion window, bytes (RFC 9002 §7.2, SHOULD):
/// `packets` datagrams of `max_datagram_size` bytes, limited to the larger
/// of `packets` * 1472 bytes and two datagrams. With the RFC's ten that is
/// min(10 * max_datagram_size, max(14720, 2 * max_datagram_size)): 14720
/// bytes are ten datagrams of a 1500-byte Ethernet path, so a large
/// initial_mtu (8940: 17880 bytes, not 89400) does not put a jumbo-sized
/// burst on a path nobody has measured.
constexpr uint64_t initial_window(uint64_t packets, uint64_t max_datagram_size) {
  constexpr uint64_t kEthernetDatagram = 1472;  // 1500-byte MTU less IPv4 and UDP headers
  return std::min(packets * max_datagram_size, std::max(packets * kEthernetDatagram, 2 * max_datagram_size));
}

class CongestionController {
 public:
  virtual ~CongestionController() = default;

  /// The datagram size changed (MTU policy), bytes: windows follow (§7.2).
  virtual void set_max_datagram_size(size_t bytes) = 0;
  /// A packet in flight left at `now`; it enters bytes in flight and the
  /// controller may stamp `p.delivery`.
  virtual void on_packet_sent(Instant now, SentPacket& p) = 0;
  /// The packets newly acknowledged by one ACK frame (in flight or not),
  /// after loss detection ran for that ACK; they leave flight here.
  virtual void on_packets_acked(Instant now, const std::vector<SentPacket>& acked, const RttEstimator& rtt) = 0;
  /// Packets in flight were declared lost, `lost_bytes` in all (already out
  /// of flight); the newest was sent at `largest_lost_sent` (§7.3.2).
  virtual void on_congestion_event(Instant now, Instant largest_lost_sent, uint64_t lost_bytes) = 0;
  /// §7.6.2: the losses amount to persistent congestion.
  virtual void on_persistent_congestion() = 0;
  /// §7.8: whether the sender leaves the window underused (nothing more to send).
  virtual void set_app_limited(bool v) = 0;
  /// The congestion window, bytes.
  virtual uint64_t window() const = 0;
  /// The slow start threshold, bytes (§7.3.1); UINT64_MAX before the first
  /// congestion event and for a controller without one (bbr).
  virtual uint64_t ssthresh() const { return UINT64_MAX; }
  /// The pacing rate (§7.7), bytes per second; `smoothed_rtt` as the
  /// RTT estimator holds it now.
  virtual double pacing_rate(Duration smoothed_rtt) const = 0;

  /// A packet in flight was declared lost or its space discarded.
  void remove_from_flight(size_t bytes) { bytes_in_flight_ -= bytes < bytes_in_flight_ ? bytes : bytes_in_flight_; }
  uint64_t bytes_in_flight() const { return bytes_in_flight_; }
  /// Room for `bytes` more in flight.
  bool can_send(size_t bytes) const { return bytes_in_flight_ + bytes <= window(); }

 protected:
  uint64_t bytes_in_flight_ = 0;
};

/// The controller for `kind`, its windows sized for `max_datagram_size` bytes.
std::unique_ptr<CongestionController> make_congestion_controller(CongestionControl kind, CongestionParams params,
                                                                 size_t max_datagram_size);

}  // namespace conform::quic
