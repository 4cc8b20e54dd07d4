// A sent packet as loss recovery remembers it (RFC 9002 Appendix A.1.1):
// its number, size, send time, whether it counts in flight, the frames to
// act on when it is acknowledged or lost, and the delivery-rate state a
// model-based controller stamps on it when it leaves
// (draft-cheng-iccrg-delivery-rate-estimation §3.2, used by BBR).
#pragma once

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "codec/frame.hpp"
#include "codec/time.hpp"

namespace conform::quic {

/// Packet number spaces, RFC 9000 §12.3.
enum class Space : uint8_t { initial = 0, handshake = 1, application = 2 };

/// What a sent packet carried that matters if it is acknowledged or lost.
struct SentCrypto { uint64_t offset = 0; size_t len = 0; };
struct SentStream { uint64_t stream_id = 0, offset = 0; size_t len = 0; bool fin = false; };
/// A control frame (MAX_*, *_BLOCKED, RESET_STREAM, STOP_SENDING,
/// HANDSHAKE_DONE): on loss the connection sends the current value again.
struct SentControl { Frame frame; };
using SentFrame = std::variant<SentCrypto, SentStream, SentControl>;

/// The connection's delivery counters when the packet left: a later ACK of
/// it measures the delivery rate over the interval since (P.delivered,
/// P.delivered_time, P.first_sent_time, P.is_app_limited).
struct DeliveryStamp {
  uint64_t delivered = 0;   ///< bytes acknowledged before this packet left
  Instant delivered_time;   ///< when the latest of them was acknowledged
  Instant first_sent_time;  ///< send time of the first packet of the current flight
  bool app_limited = false; ///< sent while the application left the window underused
};

struct SentPacket {
  uint64_t pn = 0;
  Instant time_sent;
  size_t bytes = 0;            ///< the packet's size on the wire
  size_t datagram_bytes = 0;   ///< the whole datagram it went in (MTU policy)
  bool ack_eliciting = false;
  bool in_flight = false;      ///< §2: ack-eliciting or padded; counts against the window
  /// A DPLPMTUD probe (RFC 8899 §4.1): its loss says the path is too
  /// small for it, not that it is congested (RFC 9000 §14.4).
  bool mtu_probe = false;
  std::vector<SentFrame> frames;
  DeliveryStamp delivery;      ///< set by the congestion controller when sent
};

}  // namespace conform::quic
