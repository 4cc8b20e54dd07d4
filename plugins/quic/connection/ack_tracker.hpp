// Received packet numbers of one packet number space and the ACK frames that
// report them, RFC 9000 §13.2. This stack acknowledges every ack-eliciting
// packet in the next datagram it sends (no delayed ACKs yet: RFC 9000
// §13.2.1 allows acknowledging sooner than max_ack_delay).
#pragma once

#include <optional>

#include "codec/frame.hpp"
#include "codec/time.hpp"
#include "connection/range_set.hpp"

namespace conform::quic {

class AckTracker {
 public:
  /// Ranges kept: older ones are forgotten (their packets were acknowledged
  /// many times already); bounds the ACK frame size.
  static constexpr size_t kMaxRanges = 32;

  bool is_duplicate(uint64_t pn) const { return received_.contains(pn); }
  void on_packet_received(uint64_t pn, bool ack_eliciting, Instant now);
  /// An ack-eliciting packet arrived that the next ACK is to leave out (the
  /// ack_probes script): an ACK is due all the same, if there is anything
  /// to report (else none: an ACK-only reply to a later ACK-only packet
  /// would break RFC 9000 §13.2.1).
  void on_packet_left_out() {
    if (!received_.empty()) eliciting_pending_ = new_pending_ = true;
  }
  /// An ack-eliciting packet arrived since the last ACK was built.
  bool ack_due() const { return eliciting_pending_; }
  /// Anything not yet reported (ack-eliciting or not).
  bool has_new() const { return new_pending_; }
  int64_t largest() const { return largest_; }

  /// The ACK frame for everything received; `ack_delay_exponent` scales the
  /// delay field (§18.2: microseconds / 2^exponent).
  std::optional<AckFrame> build(Instant now, uint64_t ack_delay_exponent) const;
  /// The frame from build() went out: nothing is pending until more arrives.
  void on_ack_sent() { eliciting_pending_ = new_pending_ = false; }

 private:
  RangeSet received_;
  int64_t largest_ = -1;
  Instant largest_time_;
  bool eliciting_pending_ = false;
  bool new_pending_ = false;
};

}  // namespace conform::quic
