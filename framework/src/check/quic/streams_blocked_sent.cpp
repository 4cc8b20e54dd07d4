// `streams_blocked_sent`: an endpoint that wants to open more streams than
// its peer allows sends STREAMS_BLOCKED carrying that limit, again at each
// new limit while still blocked, and opens no stream beyond it. RFC 9000
// §4.6 (SHOULD send STREAMS_BLOCKED; MUST NOT exceed the limit), §19.14.
// Judged at the opener's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/demand.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class StreamsBlockedSent final : public QuicCheck {
 public:
  std::string name() const override { return "streams_blocked_sent"; }
  std::string rfc() const override { return "RFC 9000 §4.6 (SHOULD; MUST NOT open beyond the limit), §19.14"; }
  RequirementLevel level() const override { return RequirementLevel::should; }
  std::string summary() const override {
    return "`by` sends STREAMS_BLOCKED with the limit each time it waits at its peer's stream limit, and opens "
           "no stream beyond it";
  }
  std::optional<VantageNeed> vantage_need() const override { return blocked_frames_vantage(); }
  std::vector<ValueSpec> params() const override {
    return {blocked_by_param(), dir_param(),
            {"expected", ValueType::integer, Value{std::int64_t{-1}},
             "streams `by` wants per connection; -1: from the scenario parameters (and what the capture shows)"},
            grace_param()};
  }

  std::vector<ScenarioParam> scenario_params() const override { return {{"expected", ScenarioPart::expected_count}}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    const StreamDir dir = dir_from(value_or<std::string>(input.params, "dir", "uni"));
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      const auto initial = initial_max_streams(conn, dissect::other(by), dir);
      if (!initial) return no_transport_parameters(dissect::other(by), j);
      const std::string streams = std::string(to_string(dir)) + " streams";
      BlockedScope scope{streams, "STREAMS_BLOCKED",
                         walk_limit(*initial, conn.side(dissect::other(by)).max_streams[std::size_t(dir)],
                                    stream_count_usage(conn.side(by).opened[std::size_t(dir)]), conn.at(0)),
                         0, "", &conn.side(by).streams_blocked[std::size_t(dir)]};
      scope.at_sender = at_endpoint(j.vantage, by);
      return judge_limit(scope, *j.capture, input, {"opened", streams}, "expected",
                         expected_streams(input.settings, by, dir, j), *initial);
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(streams_blocked_sent, quic_checks::StreamsBlockedSent)
