// The receiving application of a scenario: it reads every stream the peer
// sends on (a subscriber, the publish server, a bulk receiver), at most at a
// given rate when it plays a slow consumer. Reading is what returns flow
// control credit (RFC 9000 §4.1) and, once a stream is read to its end,
// stream credit (§4.6), so a slow reader shows how a peer copes with both.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "scenarios/application.hpp"

namespace conform::quic {

class StreamReader final : public Application {
 public:
  /// `bytes_per_s`: the most the application reads per second; 0: no limit.
  /// `stop_every`: every this many peer streams (indexes N-1, 2N-1, ...) the
  /// application asks the peer to stop sending as the stream opens
  /// (STOP_SENDING, RFC 9000 §3.5); 0: none.
  explicit StreamReader(int64_t bytes_per_s = 0, int64_t stop_every = 0) : rate_(bytes_per_s), stop_every_(stop_every) {}

  void on_event(Instant now, Connection& c, const Event& e) override;
  void poll(Instant now, Connection& c) override;
  Instant wake_at() const override;
  std::string summary() const override;

  /// Streams read to their end since the last call, in the order they ended.
  std::vector<StreamId> take_finished() { return std::exchange(finished_now_, {}); }
  /// Streams the peer reset whose reset was read since the last call.
  std::vector<StreamId> take_reset() { return std::exchange(reset_now_, {}); }

 private:
  void refill(Instant now);

  int64_t rate_;
  int64_t stop_every_;
  /// Bytes the rate allows now; refilled over time, capped at one tick's.
  double credit_ = 0;
  Instant refilled_at_ = Instant::never();
  std::set<StreamId> readable_;  ///< Streams that may hold unread data.
  std::vector<StreamId> finished_now_, reset_now_;
  uint64_t opened_ = 0, finished_ = 0, reset_ = 0, stopped_ = 0, bytes_ = 0;
};

}  // namespace conform::quic
