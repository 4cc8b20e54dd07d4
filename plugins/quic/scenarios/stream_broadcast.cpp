// The broadcast sender: schedule, grouping, waiting at the stream limit,
// the relay's queue limit.
#include "scenarios/stream_broadcast.hpp"

namespace conform::quic {
namespace {

/// The application error code of a group's RESET_STREAM.
constexpr uint64_t kGroupAbandoned = 0x10;

}  // namespace

int64_t BroadcastPlan::groups() const {
  if (frames <= 0) return 0;
  return frames_per_group == 0 ? 1 : (frames + frames_per_group - 1) / frames_per_group;
}

Duration BroadcastPlan::offset_of(int64_t k) const {
  Duration d = cadence * k;
  if (pause_at_frame >= 0 && k >= pause_at_frame) d = d + pause;
  return d;
}

Instant StreamBroadcast::next_due() const {
  if (!started() || next_frame_ >= plan_.frames) return Instant::never();
  return start_ + plan_.offset_of(next_frame_);
}

Instant StreamBroadcast::last_due() const {
  if (!started()) return Instant::never();
  return start_ + plan_.offset_of(plan_.frames - 1);
}

bool StreamBroadcast::handed_over() const {
  return started() && next_frame_ >= plan_.frames && waiting_.empty() && opened_.empty();
}

void StreamBroadcast::poll(Instant now, Connection& c) {
  if (!started()) return;
  while (next_frame_ < plan_.frames && start_ + plan_.offset_of(next_frame_) <= now)
    take_frame(next_frame_++);
  log_wanted(now, c);
  open_waiting(c);
  write_opened(c);
}

void StreamBroadcast::take_frame(int64_t k) {
  const int64_t g = plan_.frames_per_group == 0 ? 0 : k / plan_.frames_per_group;
  if (g != last_group_) {
    last_group_ = g;
    waiting_.push_back(Group{g, std::nullopt, {}, false});
    // The relay keeps at most queue_limit_groups groups for a subscriber
    // whose stream credit is exhausted; the oldest goes first.
    if (plan_.queue_limit_groups > 0 && static_cast<int64_t>(waiting_.size()) > plan_.queue_limit_groups) {
      waiting_.pop_front();
      ++groups_dropped_;
    }
  }
  // The group's stream may be open already (frames_per_group > 1), or the
  // group may have been dropped or refused, and its later frames with it.
  Group* current = !waiting_.empty() ? &waiting_.back() : !opened_.empty() ? &opened_.back() : nullptr;
  if (current == nullptr || current->number != g) return;
  // Frame k: its number big-endian, then its low byte repeated.
  for (int64_t i = 0; i < plan_.payload_bytes; ++i)
    current->pending.push_back(static_cast<uint8_t>(i < 8 ? (k >> (8 * (7 - i))) & 0xff : k & 0xff));
  const bool last_of_group = k == plan_.frames - 1 ||
                             (plan_.frames_per_group > 0 && (k + 1) % plan_.frames_per_group == 0);
  if (last_of_group) current->complete = true;
}

void StreamBroadcast::log_wanted(Instant now, Connection& c) {
  // What no capture shows: a stream for every group, whether or not the
  // peer's stream limit lets it open. The report plots it against the
  // streams the wire carried, so a sender held at MAX_STREAMS shows a cliff.
  if (last_group_ + 1 <= groups_logged_) return;
  groups_logged_ = last_group_ + 1;
  c.qlog().event(now, "conform:streams_wanted",
                 std::string("{\"stream_type\":\"") + (plan_.dir == Dir::bidi ? "bidirectional" : "unidirectional") +
                     "\",\"count\":" + std::to_string(groups_logged_) + "}");
}

void StreamBroadcast::open_waiting(Connection& c) {
  while (!waiting_.empty()) {
    auto id = c.open_stream(plan_.dir);
    if (!id.ok()) {
      // limit_reached (open_stream_when_blocked = fail): the group is lost,
      // as with a stack that gives up; blocked or not connected: wait.
      if (id.error() != StreamError::limit_reached) return;
      waiting_.pop_front();
      ++groups_refused_;
      continue;
    }
    Group g = std::move(waiting_.front());
    waiting_.pop_front();
    g.stream = id.value();
    ++streams_opened_;
    opened_.push_back(std::move(g));
  }
}

void StreamBroadcast::write_opened(Connection& c) {
  for (auto it = opened_.begin(); it != opened_.end();) {
    Group& g = *it;
    bool gone = false;
    if (!g.pending.empty()) {
      gone = !c.write(*g.stream, g.pending).ok();  // stopped by the peer
      g.pending.clear();
    }
    if (!gone && g.complete) {
      gone = true;
      if (plan_.reset_every > 0 && (g.number + 1) % plan_.reset_every == 0) {
        if (c.reset(*g.stream, kGroupAbandoned).ok()) ++streams_reset_;
      } else if (c.finish(*g.stream).ok()) {
        ++streams_finished_;
      }
    }
    it = gone ? opened_.erase(it) : it + 1;
  }
}

std::string StreamBroadcast::summary() const {
  return "opened " + std::to_string(streams_opened_) + "/" + std::to_string(plan_.groups()) +
         " streams, finished " + std::to_string(streams_finished_) + ", dropped at the queue limit " +
         std::to_string(groups_dropped_) + ", refused at the stream limit " + std::to_string(groups_refused_) +
         ", reset " + std::to_string(streams_reset_) + ", frames handed over " + std::to_string(next_frame_) + "/" + std::to_string(plan_.frames);
}

}  // namespace conform::quic
