// Loss detection, RFC 9002 §6: which sent packets were acknowledged, which
// are lost (packet and time thresholds), and when to probe (PTO). Part 1 of
// issue 5 needs only a lossless handshake; this interface is what part 2's
// congestion control and full retransmission logic plug into.
#pragma once

#include <array>
#include <map>
#include <variant>
#include <vector>

#include "codec/error.hpp"
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

struct SentPacket {
  uint64_t pn = 0;
  Instant time_sent;
  size_t bytes = 0;
  bool ack_eliciting = false;
  std::vector<SentFrame> frames;
};

/// RTT estimate, RFC 9002 §5. Starts at kInitialRtt = 333 ms (§6.2.2).
struct RttEstimate {
  Duration latest = Duration::millis(333);
  Duration smoothed = Duration::millis(333);
  Duration variance = Duration::micros(166'500);
  Duration min = Duration::nanos(0);
  bool has_sample = false;
  void update(Duration sample, Duration ack_delay, Duration max_ack_delay);
};

class Recovery {
 public:
  explicit Recovery(Duration max_ack_delay) : max_ack_delay_(max_ack_delay) {}

  void on_packet_sent(Space space, SentPacket packet);

  struct AckOutcome {
    std::vector<SentPacket> acked;
    std::vector<SentPacket> lost;
  };
  /// Processes an ACK frame; `ack_delay` is already scaled to time.
  /// Errors: PROTOCOL_VIOLATION when it acknowledges a packet number never
  /// sent in that space (RFC 9000 §13.1).
  Result<AckOutcome> on_ack_received(Space space, const AckFrame& ack, Duration ack_delay,
                                     Instant now);

  /// The loss-time or PTO deadline; never() when nothing is in flight.
  Instant next_timeout() const;
  struct TimeoutOutcome {
    std::vector<std::pair<Space, SentPacket>> lost;
    bool probe = false;        ///< PTO fired: send an ack-eliciting probe...
    Space probe_space = Space::initial;  ///< ...in this space.
  };
  TimeoutOutcome on_timeout(Instant now);

  /// Keys of a space were discarded: forget its packets (RFC 9002 §6.4).
  void discard(Space space);
  /// PTO period for a space (§6.2.1), without backoff.
  Duration pto_period(Space space) const;
  const RttEstimate& rtt() const { return rtt_; }
  /// Largest packet number the peer acknowledged in a space; -1 if none.
  int64_t largest_acked(Space space) const { return spaces_[static_cast<size_t>(space)].largest_acked; }
  /// Ack-eliciting packets not yet acknowledged or declared lost.
  size_t in_flight(Space space) const;

 private:
  struct SpaceState {
    std::map<uint64_t, SentPacket> sent;
    int64_t largest_sent = -1;
    int64_t largest_acked = -1;
    Instant loss_time = Instant::never();
    Instant last_eliciting_sent = Instant::never();
  };
  std::vector<SentPacket> detect_lost(SpaceState& s, Instant now);

  std::array<SpaceState, 3> spaces_;
  RttEstimate rtt_;
  Duration max_ack_delay_;
  int pto_count_ = 0;
};

}  // namespace conform::quic
