// A broadcast as one sender forwards it over QUIC: frames due on a schedule
// (cadence, an optional pause), grouped onto new streams of their own (one
// per `frames_per_group` frames, each finished after its group), the groups
// not yet opened waiting while the peer's stream limit blocks new streams
// (RFC 9000 §4.6), optionally dropped beyond a queue limit, as a relay does
// for a subscriber that falls behind. The relay of `uni-fanout` and the
// publisher of `uni-publish` both send this way.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "connection/connection.hpp"

namespace conform::quic {

struct BroadcastPlan {
  int64_t frames = 200;
  /// Frames per group; 0: every frame on one stream.
  int64_t frames_per_group = 1;
  Duration cadence = Duration::millis(20);
  int64_t payload_bytes = 80;
  /// Frames from this index on come `pause` later; -1: no pause.
  int64_t pause_at_frame = -1;
  Duration pause;
  /// Groups waiting for a stream beyond this many drop the oldest; 0: off.
  int64_t queue_limit_groups = 0;
  /// Every this many groups (the Nth, 2Nth, ...), the stream is reset with
  /// RESET_STREAM once its frames are written instead of finished (RFC 9000
  /// §3.1: a sender abandoning a group); 0: none.
  int64_t reset_every = 0;
  Dir dir = Dir::uni;

  int64_t groups() const;
  /// When frame `k` (from 0) is due, after the broadcast's start.
  Duration offset_of(int64_t k) const;
};

class StreamBroadcast {
 public:
  explicit StreamBroadcast(const BroadcastPlan& plan) : plan_(plan) {}
  /// Starts the schedule: frame 0 is due at `at`.
  void start(Instant at) { start_ = at; }
  bool started() const { return !start_.is_never(); }
  /// Hands over the frames due at `now`, opens streams for waiting groups,
  /// writes and finishes them.
  void poll(Instant now, Connection& c);
  /// When the next frame is due; never() once every frame was.
  Instant next_due() const;
  /// When the last frame is due; never() before start().
  Instant last_due() const;
  /// Every frame is due and in a stream (or dropped): nothing waits.
  bool handed_over() const;
  /// Grows whenever a group is opened, finished or dropped.
  uint64_t progress() const {
    return streams_opened_ + streams_finished_ + streams_reset_ + groups_dropped_ + groups_refused_;
  }
  /// "opened 200/200 streams, finished 200, dropped ... 0, refused ... 0, reset 0, ...".
  std::string summary() const;

 private:
  struct Group {
    int64_t number = 0;
    std::optional<StreamId> stream;
    Bytes pending;
    bool complete = false;  ///< Its last frame was handed over.
  };
  void take_frame(int64_t k);
  /// qlog: the streams the application wants, when that grew (see poll).
  void log_wanted(Instant now, Connection& c);
  void open_waiting(Connection& c);
  void write_opened(Connection& c);

  BroadcastPlan plan_;
  Instant start_ = Instant::never();
  int64_t next_frame_ = 0;
  int64_t last_group_ = -1;
  int64_t groups_logged_ = 0;  ///< groups the qlog has counted as wanted
  std::deque<Group> waiting_;  ///< No stream yet, oldest first.
  std::deque<Group> opened_;   ///< Stream open, not finished yet.
  uint64_t streams_opened_ = 0, streams_finished_ = 0, streams_reset_ = 0, groups_dropped_ = 0, groups_refused_ = 0;
};

}  // namespace conform::quic
