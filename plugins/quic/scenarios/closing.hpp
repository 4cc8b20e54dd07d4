// When the side that finishes a scenario closes its connection: once its
// work is handed over and every stream it opened is acknowledged (the
// connection forgot it), or after `drain` of no progress once the work was
// due, so a scenario stuck at a limit (the stream cliff) still ends. Either
// way the close is clean: CONNECTION_CLOSE with application error 0 (RFC
// 9000 §10.2); the checks, not the plugin, judge what was delivered.
#pragma once

#include <array>
#include <string>

#include "connection/connection.hpp"

namespace conform::quic {

class Closing {
 public:
  explicit Closing(Duration drain) : drain_(drain) {}

  /// Call on every poll. `work_due`: when the last piece of work was due
  /// (never() before it is known); `done`: nothing is left to hand over;
  /// `progress`: a count that grows whenever the application gets on.
  /// Closes `c` when it is time; returns true once it has.
  bool poll(Instant now, Connection& c, Instant work_due, bool done, uint64_t progress) {
    if (closed_) return true;
    const std::array<uint64_t, 3> seen{progress, c.open_streams(), c.stats().bytes_received};
    if (seen != last_seen_ || last_progress_.is_never()) {
      last_seen_ = seen;
      last_progress_ = now;
    }
    deadline_ = work_due.is_never() ? Instant::never() : std::max(work_due, last_progress_) + drain_;
    if (done && c.open_streams() == 0) return close(now, c, "done");
    if (now >= deadline_) return close(now, c, "no progress for the drain time");
    return false;
  }
  /// When poll must run at the latest to give up in time.
  Instant deadline() const { return closed_ ? Instant::never() : deadline_; }
  /// "; closed: <why>" or "; still open", for an application's summary.
  std::string describe() const { return why_.empty() ? "; still open" : "; closed: " + why_; }

 private:
  bool close(Instant now, Connection& c, const char* why) {
    c.close(now, 0, why);
    closed_ = true;
    why_ = why;
    return true;
  }

  Duration drain_;
  std::array<uint64_t, 3> last_seen_{};
  Instant last_progress_ = Instant::never();
  Instant deadline_ = Instant::never();
  bool closed_ = false;
  std::string why_;
};

}  // namespace conform::quic
