// Stream concurrency limits, RFC 9000 §4.6: how many streams of one
// direction each side may open (initial_max_streams_*, MAX_STREAMS,
// STREAMS_BLOCKED). Counts are cumulative numbers of streams, not deltas.
#pragma once

#include <cstdint>
#include <optional>

namespace conform::quic {

/// When the receiver of streams raises MAX_STREAMS (the `max_streams_policy`
/// knob). RFC 9000 §4.6 leaves it to the implementation.
enum class MaxStreamsPolicy : uint8_t {
  /// Default. The credit follows streams the peer finished with (fully read
  /// or reset, and for bidi also our side done); a new limit, closed +
  /// window, is sent once half a window of credit accumulated.
  half_window,
  /// The same, but sent after every closed stream (quinn's behaviour).
  every_stream,
  /// Credit follows streams the peer *opened*, as in the investigation's
  /// fix: opened + window once the peer has used half the window. It does
  /// not bound concurrency.
  half_window_opened,
  /// Credit follows closed streams, sent only once a whole window of them
  /// closed: the peer reaches every limit before it is raised (late by
  /// design, the mutant of max_streams_extended's `ahead`).
  full_window,
};

/// Streams we open, limited by the peer's allowance.
class LocalStreamLimit {
 public:
  explicit LocalStreamLimit(uint64_t max = 0) : max_(max) {}
  bool can_open() const { return next_ < max_; }
  /// Index of the stream opened; the caller checked can_open.
  uint64_t open() { return next_++; }
  uint64_t opened() const { return next_; }
  uint64_t max() const { return max_; }
  /// MAX_STREAMS arrived: true if it raised the limit (smaller is ignored).
  bool raise(uint64_t max) {
    if (max <= max_) return false;
    max_ = max;
    return true;
  }
  /// An open was refused at this limit: STREAMS_BLOCKED(max) is due once.
  /// `repeat` false (the repeat_streams_blocked fault): only at the first
  /// limit ever refused, not again at later ones.
  void on_blocked(bool repeat = true) {
    if (reported_at_ != max_ && (repeat || !reported_at_)) blocked_pending_ = true;
  }
  std::optional<uint64_t> blocked_due() const {
    return blocked_pending_ && reported_at_ != max_ ? std::optional(max_) : std::nullopt;
  }
  void on_blocked_sent() { reported_at_ = max_; blocked_pending_ = false; }
  /// A STREAMS_BLOCKED(limit) was declared lost: still blocked at that
  /// limit, it is due again (RFC 9000 §13.3).
  void on_blocked_lost(uint64_t limit) {
    if (limit == max_ && reported_at_ == max_ && !can_open()) {
      reported_at_.reset();
      blocked_pending_ = true;
    }
  }

 private:
  uint64_t max_;
  uint64_t next_ = 0;
  bool blocked_pending_ = false;
  std::optional<uint64_t> reported_at_;
};

/// Streams the peer opens, limited by what we advertise.
class RemoteStreamLimit {
 public:
  /// `uncapped`: the max_streams_uncapped fault, no 2^60 ceiling on the
  /// limit it computes. `advertised`: the limit of our transport
  /// parameters, `window` unless the zero_initial_stream_limits script
  /// says 0 (the first MAX_STREAMS then opens the window).
  RemoteStreamLimit(uint64_t window = 0, MaxStreamsPolicy policy = MaxStreamsPolicy::half_window,
                    bool uncapped = false, std::optional<uint64_t> advertised = std::nullopt)
      : window_(window), max_(advertised.value_or(window)), policy_(policy), uncapped_(uncapped) {}

  /// The peer used stream `index`. False when it is at or beyond the limit
  /// we advertised: STREAM_LIMIT_ERROR (§4.6).
  bool on_opened(uint64_t index) {
    if (index >= max_) return false;
    if (index + 1 > opened_) opened_ = index + 1;
    return true;
  }
  void on_closed() { ++closed_; }
  /// The peer sent STREAMS_BLOCKED(limit). A receiver whose window is 0
  /// (initial_max_streams_* 0; not the zero_initial_stream_limits script,
  /// which advertises 0 but keeps its window) has no window for credit to
  /// follow; once the peer says it is blocked
  /// at that limit, it grants one stream at a time, each as the last
  /// closes (see stream_limits.cpp for why).
  void on_peer_blocked(uint64_t limit) {
    if (window_ == 0 && limit >= max_) window_ = 1;
    if (limit >= max_) asked_ = true;
  }
  /// Whether the peer said it is blocked at the current limit since the
  /// last MAX_STREAMS (the streams_credit_on_blocked script waits for it).
  bool asked() const { return asked_; }
  /// The MAX_STREAMS value to send now, if the policy says one is due.
  std::optional<uint64_t> update_due() const;
  void on_update_sent(uint64_t max) {
    if (max > max_) max_ = max;
    asked_ = false;
  }

  uint64_t max() const { return max_; }
  uint64_t opened() const { return opened_; }
  uint64_t closed() const { return closed_; }

 private:
  uint64_t window_;
  uint64_t max_;
  MaxStreamsPolicy policy_;
  bool uncapped_;
  bool asked_ = false;
  uint64_t opened_ = 0;
  uint64_t closed_ = 0;
};

}  // namespace conform::quic
