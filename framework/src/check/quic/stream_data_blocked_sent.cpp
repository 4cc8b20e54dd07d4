// `stream_data_blocked_sent`: a sender that has more data for a stream but
// is at the peer's limit for that stream sends STREAM_DATA_BLOCKED carrying
// the limit (RFC 9000 §4.1: SHOULD, §19.13), and never sends beyond it (§4.1:
// MUST NOT). A stream without FIN (or reset) in the capture wanted more.
// Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <unordered_map>

namespace conform::quic_checks {
namespace {

using PerStream = std::unordered_map<std::uint64_t, std::vector<LimitSeen>>;

PerStream by_stream(const std::vector<StreamLimitSeen>& frames) {
  PerStream out;
  for (const auto& f : frames) out[f.stream_id].push_back({f.at, f.value});
  return out;
}

class StreamDataBlockedSent final : public QuicCheck {
 public:
  std::string name() const override { return "stream_data_blocked_sent"; }
  std::string rfc() const override { return "RFC 9000 §4.1 (SHOULD; MUST NOT exceed the limit), §19.13"; }
  RequirementLevel level() const override { return RequirementLevel::should; }
  std::string summary() const override {
    return "`by` sends STREAM_DATA_BLOCKED with the limit each time it waits at its peer's limit for a stream, and "
           "never sends beyond it";
  }
  std::optional<VantageNeed> vantage_need() const override { return blocked_frames_vantage(); }
  std::vector<ValueSpec> params() const override { return {blocked_by_param(), grace_param()}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    const auto grace = std::int64_t(value_or<double>(input.params, "grace_ms", 0) * 1e6);
    const auto data = by == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      const Side peer = dissect::other(by);
      if (!conn.parameters(peer)) return no_transport_parameters(peer, j);
      const PerStream raises = by_stream(conn.side(peer).max_stream_data);
      const PerStream blocked = by_stream(conn.side(by).stream_data_blocked);
      const std::vector<LimitSeen> none;
      BlockedFindings found;
      std::size_t streams = 0, at_limit = 0;
      for (const auto& [id, usage] : stream_offsets(conn, by)) {
        ++streams;
        auto r = raises.find(id);
        auto b = blocked.find(id);
        BlockedScope scope{fmt::format("stream {}", id), "STREAM_DATA_BLOCKED",
                           walk_limit(*initial_max_stream_data(conn, peer, id), r == raises.end() ? none : r->second,
                                      usage, usage.front().at),
                           0, "", b == blocked.end() ? &none : &b->second};
        scope.at_sender = at_endpoint(j.vantage, by);
        const auto* view = conn.stream(id);
        const auto& flow = view->flow(data);
        const bool ended = flow.fin_size || flow.reset;
        scope.wanted = scope.walk.used + (ended ? 0 : 1);
        scope.why = flow.fin_size ? fmt::format("FIN at {}", *flow.fin_size) : flow.reset ? "reset" : "no FIN";
        judge_blocked(scope, *j.capture, grace, found);
        at_limit += exercised(scope);
      }
      if (at_limit == 0)
        return not_exercised(fmt::format("{} streams sent, none at its stream data limit wanting more", streams));
      const std::size_t needed = found.needed;
      return blocked_verdict(std::move(found), fmt::format("{} streams sent; {} waits at a stream limit, each "
                                                           "reported with STREAM_DATA_BLOCKED",
                                                           streams, needed));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(stream_data_blocked_sent, quic_checks::StreamDataBlockedSent)
