// `blocked_frames_not_early`: every STREAMS_BLOCKED, DATA_BLOCKED and
// STREAM_DATA_BLOCKED an endpoint sends carries the limit in force and is
// sent only once it has used all of it: the frames report "the limit at
// which blocking occurred" (RFC 9000 §19.12-§19.14) and are re-sent only
// "while the endpoint is blocked on the corresponding limit" (§13.3).
// Judged at the sender's own capture, by what the sender knew: a raise
// that has reached it is not known to have been read until it acts on it,
// so a frame carrying an older limit it had used up exactly (and not gone
// beyond) is the limit in force as far as it knew: Chromium queues one
// STREAMS_BLOCKED per waiting request and sends the last of them
// microseconds after the MAX_STREAMS that ends the wait arrived. A stream
// counts as used from the write that carries its first frame, even where
// that write runs on into the next datagram after the peer's (Firefox puts
// STREAMS_BLOCKED 86 in a full datagram with 84 streams, and streams 84, 85
// in the rest of that write: streams_opened_by_write()). A stream is opened
// before its frames are sent, and they may wait behind the congestion
// window: a STREAMS_BLOCKED carrying the limit in force before the capture
// shows it used up, from a sender that goes on to use all of it, may have
// had every stream open already, which the capture cannot tell.
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace conform::quic_checks {
namespace {

// Whether the sender's usage reached `limit` no later than the first sign
// that it read a raise above it (raise_read_at).
bool used_up_before_raise_read(const std::vector<LimitSeen>& usage, const std::vector<LimitSeen>& sent,
                               std::uint64_t limit) {
  const auto reach = std::lower_bound(usage.begin(), usage.end(), limit,
                                      [](const LimitSeen& u, std::uint64_t v) { return u.value < v; });
  if (reach == usage.end()) return false;
  const auto read = raise_read_at(first_beyond(usage, limit), sent, limit);
  return !read || reach->at.datagram <= *read;
}

class BlockedFramesNotEarly final : public QuicCheck {
 public:
  std::string name() const override { return "blocked_frames_not_early"; }
  std::string rfc() const override { return "RFC 9000 §19.12-§19.14, §13.3"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "every *_BLOCKED frame `by` sends carries the limit in force, sent only once `by` has used all of it; "
           "an older limit counts as in force while `by` has used exactly all of it, not beyond (a raise it has not "
           "yet read); a STREAMS_BLOCKED sent before the capture shows its streams, from a sender that goes on to open them "
           "all, cannot be judged (a queued stream is open before its frames are sent)";
  }
  std::optional<VantageNeed> vantage_need() const override { return blocked_frames_vantage(); }
  std::vector<ValueSpec> params() const override { return {blocked_by_param()}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) { return judge_one(j, by); });
  }

 private:
  static CheckResult judge_one(const Judged& j, Side by) {
    const auto& conn = *j.connection;
    const Side peer = dissect::other(by);
    if (!conn.parameters(peer)) return no_transport_parameters(peer, j);
    std::vector<std::string> problems, untold;
    std::vector<Evidence> ev;
    std::size_t frames = 0;
    // `sent`: the sender's blocked frames of the same limit, the frame among them.
    auto judge_frame = [&](const std::string& name, const At& at, std::uint64_t value, std::uint64_t initial,
                           const std::vector<LimitSeen>& raises, const std::vector<LimitSeen>& usage,
                           const std::vector<LimitSeen>& sent, bool streams = false) {
      ++frames;
      const std::uint64_t limit = limit_before(initial, raises, at.datagram);
      const std::uint64_t used =
          streams ? streams_opened_by_write(usage, at, conn, by) : usage_through_burst(usage, at, conn, by);
      if (value == limit && used >= limit) return;
      const bool granted = value == limit || granted_before(initial, raises, value, at.datagram);
      const bool in_force = granted && still_in_force(usage, sent, value, at.datagram);
      // An older limit, used up and still in force as far as `by` knew.
      if (value < limit && in_force && usage_until(usage, at.datagram) >= value) return;
      // A stream is opened before its first frame is sent, which may wait
      // behind the congestion window: when the sender goes on to use all
      // of the limit before any sign that it read a raise, the capture
      // cannot tell whether it had opened those streams when it wrote the
      // frame.
      if (streams && in_force && used_up_before_raise_read(usage, sent, value)) {
        untold.push_back(fmt::format("{} {} at frame {} with {} streams shown opened; the rest show later", name,
                                     value, at.frame, used));
        return;
      }
      problems.push_back(fmt::format("{} {} at frame {} while the limit was {} and {} of it used", name, value,
                                     at.frame, limit, used));
      ev.push_back(evidence(*j.capture, at, fmt::format("{} {}: limit {}, used {}", name, value, limit, used)));
    };
    for (StreamDir dir : {StreamDir::bidi, StreamDir::uni}) {
      const auto d = std::size_t(dir);
      const auto usage = stream_count_usage(conn.side(by).opened[d]);
      for (const auto& f : conn.side(by).streams_blocked[d])
        judge_frame(fmt::format("STREAMS_BLOCKED ({})", to_string(dir)), f.at, f.value,
                    *initial_max_streams(conn, peer, dir), conn.side(peer).max_streams[d], usage,
                    conn.side(by).streams_blocked[d], true);
    }
    for (const auto& f : conn.side(by).data_blocked)
      judge_frame("DATA_BLOCKED", f.at, f.value, *initial_max_data(conn, peer), conn.side(peer).max_data,
                  conn.side(by).data_sent, conn.side(by).data_blocked);
    if (!conn.side(by).stream_data_blocked.empty()) {
      const auto offsets = stream_offsets(conn, by);
      std::unordered_map<std::uint64_t, std::vector<LimitSeen>> raises, sent;
      for (const auto& m : conn.side(peer).max_stream_data) raises[m.stream_id].push_back({m.at, m.value});
      for (const auto& b : conn.side(by).stream_data_blocked) sent[b.stream_id].push_back({b.at, b.value});
      const std::vector<LimitSeen> none;
      for (const auto& f : conn.side(by).stream_data_blocked) {
        auto o = offsets.find(f.stream_id);
        auto r = raises.find(f.stream_id);
        judge_frame(fmt::format("STREAM_DATA_BLOCKED (stream {})", f.stream_id), f.at, f.value,
                    *initial_max_stream_data(conn, peer, f.stream_id), r == raises.end() ? none : r->second,
                    o == offsets.end() ? none : o->second, sent[f.stream_id]);
      }
    }
    if (frames == 0)
      return not_exercised(fmt::format("the {} sent no STREAMS_BLOCKED, DATA_BLOCKED or STREAM_DATA_BLOCKED", to_string(by)));
    if (problems.empty() && untold.size() == frames)
      return {Verdict::not_judged,
              fmt::format("cannot judge: {} blocked frames carried a stream limit before the capture showed it "
                          "used up (queued streams are opened before their frames are sent); the first: {}",
                          frames, untold.front()),
              {}};
    const std::string told =
        untold.empty() ? std::string()
                       : fmt::format(" ({} carried a stream limit whose last streams showed only later)", untold.size());
    return verdict(problems, ev,
                   fmt::format("{} blocked frames, each at the limit in force and fully used{}", frames, told));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(blocked_frames_not_early, quic_checks::BlockedFramesNotEarly)
