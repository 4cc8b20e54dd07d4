// `blocked_frames_not_early`: every STREAMS_BLOCKED, DATA_BLOCKED and
// STREAM_DATA_BLOCKED an endpoint sends carries the limit in force and is
// sent only once it has used all of it: the frames report "the limit at
// which blocking occurred" (RFC 9000 §19.12-§19.14) and are re-sent only
// "while the endpoint is blocked on the corresponding limit" (§13.3).
// Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <unordered_map>

namespace conform::quic_checks {
namespace {

class BlockedFramesNotEarly final : public QuicCheck {
 public:
  std::string name() const override { return "blocked_frames_not_early"; }
  std::string rfc() const override { return "RFC 9000 §19.12-§19.14, §13.3"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "every *_BLOCKED frame `by` sends carries the limit in force, sent only once `by` has used all of it";
  }
  std::vector<ValueSpec> params() const override { return {blocked_by_param()}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) { return judge_one(j, by); });
  }

 private:
  static CheckResult judge_one(const Judged& j, Side by) {
    const auto& conn = *j.connection;
    const Side peer = dissect::other(by);
    if (!conn.parameters(peer)) return no_transport_parameters(peer, *j.capture);
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t frames = 0;
    auto judge_frame = [&](const std::string& name, const At& at, std::uint64_t value, std::uint64_t limit,
                           std::uint64_t used) {
      ++frames;
      if (value == limit && used >= limit) return;
      problems.push_back(fmt::format("{} {} at frame {} while the limit was {} and {} of it used", name, value,
                                     at.frame, limit, used));
      ev.push_back(evidence(*j.capture, at, fmt::format("{} {}: limit {}, used {}", name, value, limit, used)));
    };
    for (StreamDir dir : {StreamDir::bidi, StreamDir::uni}) {
      const auto d = std::size_t(dir);
      const auto usage = stream_count_usage(conn.side(by).opened[d]);
      for (const auto& f : conn.side(by).streams_blocked[d])
        judge_frame(fmt::format("STREAMS_BLOCKED ({})", to_string(dir)), f.at, f.value,
                    limit_before(*initial_max_streams(conn, peer, dir), conn.side(peer).max_streams[d], f.at.datagram),
                    usage_through_burst(usage, f.at, conn, by));
    }
    for (const auto& f : conn.side(by).data_blocked)
      judge_frame("DATA_BLOCKED", f.at, f.value,
                  limit_before(*initial_max_data(conn, peer), conn.side(peer).max_data, f.at.datagram),
                  usage_through_burst(conn.side(by).data_sent, f.at, conn, by));
    if (!conn.side(by).stream_data_blocked.empty()) {
      const auto offsets = stream_offsets(conn, by);
      std::unordered_map<std::uint64_t, std::vector<LimitSeen>> raises;
      for (const auto& m : conn.side(peer).max_stream_data) raises[m.stream_id].push_back({m.at, m.value});
      const std::vector<LimitSeen> none;
      for (const auto& f : conn.side(by).stream_data_blocked) {
        auto o = offsets.find(f.stream_id);
        auto r = raises.find(f.stream_id);
        judge_frame(fmt::format("STREAM_DATA_BLOCKED (stream {})", f.stream_id), f.at, f.value,
                    limit_before(*initial_max_stream_data(conn, peer, f.stream_id),
                                 r == raises.end() ? none : r->second, f.at.datagram),
                    o == offsets.end() ? 0 : usage_through_burst(o->second, f.at, conn, by));
      }
    }
    if (frames == 0)
      return not_exercised(fmt::format("the {} sent no STREAMS_BLOCKED, DATA_BLOCKED or STREAM_DATA_BLOCKED", to_string(by)));
    return verdict(problems, ev, fmt::format("{} blocked frames, each at the limit in force and fully used", frames));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(blocked_frames_not_early, quic_checks::BlockedFramesNotEarly)
