// Judging whether stream credit was returned ahead of the peer.
#include "check/quic/support/credit_ahead.hpp"

#include "check/quic/support/quic_check.hpp"
#include "check/quic/support/round_trip.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::quic_checks {
namespace {

struct Ended {
  std::int64_t time_ns = 0;
  At at;
  std::uint64_t index = 0;
};

// When each of the peer's `dir` streams ended at the capture, in time order.
std::vector<Ended> ended_streams(const ConnectionFacts& conn, Side peer, StreamDir dir) {
  const auto data = peer == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
  std::vector<Ended> out;
  for (const auto& v : conn.streams) {
    if (initiator(v.id) != peer || dir_of(v.id) != dir) continue;
    const auto& f = v.flow(data);
    std::uint64_t frame = 0;
    if (f.fin_size && f.unique_bytes >= *f.fin_size) frame = f.last_frame;
    if (f.reset && (!frame || f.reset_frame < frame)) frame = f.reset_frame;
    if (!frame) continue;
    const At at = conn.at_frame(frame);
    out.push_back({at.time_ns, at, stream_index(v.id)});
  }
  std::sort(out.begin(), out.end(), [](const Ended& a, const Ended& b) { return a.time_ns < b.time_ns; });
  return out;
}

}  // namespace

std::size_t judge_credit_ahead(const ConnectionFacts& conn, Side peer, StreamDir dir, const LimitWalk& walk,
                               std::uint64_t wanted, std::uint64_t window, std::int64_t rtt_ns,
                               const CaptureFacts& capture, std::vector<std::string>& problems,
                               std::vector<Evidence>& evidence) {
  const auto ended = ended_streams(conn, peer, dir);
  std::size_t judged = 0;
  for (const AtLimit& h : walk.at_limit) {
    if (wanted <= h.limit) continue;
    ++judged;
    const std::int64_t by_then = h.reached.time_ns - rtt_ns;
    const auto end = std::upper_bound(ended.begin(), ended.end(), by_then,
                                      [](std::int64_t t, const Ended& e) { return t < e.time_ns; });
    const auto closed = std::uint64_t(end - ended.begin());
    const std::uint64_t enough = h.limit > window / 2 ? h.limit - window / 2 : 0;
    if (closed == 0 || closed < enough) continue;
    problems.push_back(fmt::format("the {} {} streams reached the limit {} at frame {} ({}) although one round trip "
                                   "({}) earlier {} of them had ended (at least {}: half the window of {} was due "
                                   "back); MAX_STREAMS came too late",
                                   to_string(peer), to_string(dir), h.limit, h.reached.frame, ms(h.reached.time_ns),
                                   ms(rtt_ns), closed, enough, window));
    evidence.push_back(quic_checks::evidence(capture, h.reached, fmt::format("the limit {} reached", h.limit)));
    const Ended& last = *(end - 1);
    evidence.push_back(quic_checks::evidence(
        capture, last.at, fmt::format("stream {} ended: the {}th to end, one round trip before", last.index, closed)));
  }
  return judged;
}

std::int64_t round_trip_ns(const CheckInput& input) { return std::int64_t(stated_round_trip(input).ms * 1e6); }

}  // namespace conform::quic_checks
