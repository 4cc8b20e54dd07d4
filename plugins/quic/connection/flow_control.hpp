// Flow control, RFC 9000 §4.1-§4.2: the credit a receiver grants (MAX_DATA,
// MAX_STREAM_DATA) and the credit a sender holds, for a connection or a
// stream. All values are byte offsets (cumulative), not deltas.
#pragma once

#include <cstdint>
#include <optional>

namespace conform::quic {

/// What we let the peer send. The window slides as the application reads:
/// a new limit is due once half the window was consumed since the last
/// advertisement (the default policy, same as the investigation's fix).
class RecvWindow {
 public:
  /// `cap`: the max_data_cap fault, an absolute offset the limit never
  /// passes (0: none). `advertised`: the limit of our transport
  /// parameters, `window` unless the zero_initial_data_limit script says 0
  /// (the first MAX_DATA then opens the window).
  explicit RecvWindow(uint64_t window = 0, uint64_t cap = 0, std::optional<uint64_t> advertised = std::nullopt)
      : window_(window), max_(advertised.value_or(window)), cap_(cap) {}

  /// The peer's data now reaches `end` (highest offset + 1 for a stream, or
  /// the sum over streams for the connection). False when that passes the
  /// limit we advertised: FLOW_CONTROL_ERROR (§4.1).
  bool on_received(uint64_t end) {
    if (end > received_) received_ = end;
    return received_ <= max_;
  }
  /// The application consumed `bytes` more.
  void on_consumed(uint64_t bytes) { consumed_ += bytes; }
  /// The new limit to advertise, when one is due.
  std::optional<uint64_t> update_due() const {
    uint64_t next = consumed_ + window_;
    if (cap_ && next > cap_) next = cap_;
    if (next > max_ && (next - max_ >= (window_ + 1) / 2 || next == cap_)) return next;
    return std::nullopt;
  }
  void on_update_sent(uint64_t new_max) {
    if (new_max > max_) max_ = new_max;
    asked_ = false;
  }
  uint64_t max() const { return max_; }
  uint64_t received() const { return received_; }
  /// The peer said it is blocked (DATA_BLOCKED, STREAM_DATA_BLOCKED) at
  /// `limit`: at the limit in force, it asked for the next raise (the
  /// data_credit_on_blocked script waits for that).
  void on_peer_blocked(uint64_t limit) {
    if (limit >= max_) asked_ = true;
  }
  bool asked() const { return asked_; }

 private:
  uint64_t window_;
  uint64_t max_;
  uint64_t cap_;
  bool asked_ = false;
  uint64_t received_ = 0;
  uint64_t consumed_ = 0;
};

/// What the peer lets us send, and whether we told it we are blocked.
class SendCredit {
 public:
  explicit SendCredit(uint64_t max = 0) : max_(max) {}

  uint64_t max() const { return max_; }
  uint64_t available() const { return max_ > used_ ? max_ - used_ : 0; }
  void consume(uint64_t bytes) { used_ += bytes; }
  /// MAX_DATA / MAX_STREAM_DATA arrived; smaller values are ignored (§4.1).
  bool raise(uint64_t max) {
    if (max <= max_) return false;
    max_ = max;
    return true;
  }
  /// A *_BLOCKED frame for the current limit is due: blocked, and not yet
  /// reported at this limit (§4.1 "SHOULD send ... when it has data to send
  /// and is blocked"). `early`: the blocked_frames_early fault, due as soon
  /// as data waits, before the limit is used up.
  bool blocked_report_due(bool has_data, bool early = false) const {
    return has_data && (used_ >= max_ || early) && reported_at_ != max_;
  }
  void on_blocked_reported() { reported_at_ = max_; }
  /// A *_BLOCKED(limit) was declared lost: still blocked at that limit, it
  /// is due again (RFC 9000 §13.3).
  void on_blocked_lost(uint64_t limit) {
    if (limit == max_ && reported_at_ == max_ && used_ >= max_) reported_at_.reset();
  }

 private:
  uint64_t max_;
  uint64_t used_ = 0;
  std::optional<uint64_t> reported_at_;
};

}  // namespace conform::quic
