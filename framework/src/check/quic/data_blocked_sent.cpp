// `data_blocked_sent`: a sender that has data to send but is at the peer's
// connection-level limit sends DATA_BLOCKED carrying that limit (RFC 9000
// §4.1: SHOULD, §19.12), and never sends beyond it (§4.1: MUST NOT).
// Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/demand.hpp"
#include "check/registrar.hpp"

namespace conform::quic_checks {
namespace {

class DataBlockedSent final : public QuicCheck {
 public:
  std::string name() const override { return "data_blocked_sent"; }
  std::string rfc() const override { return "RFC 9000 §4.1 (SHOULD; MUST NOT exceed the limit), §19.12"; }
  RequirementLevel level() const override { return RequirementLevel::should; }
  std::string summary() const override {
    return "`by` sends DATA_BLOCKED with the limit each time it waits at its peer's connection-level limit, and "
           "never sends beyond it";
  }
  std::optional<VantageNeed> vantage_need() const override { return blocked_frames_vantage(); }
  std::vector<ValueSpec> params() const override {
    return {blocked_by_param(),
            {"expected_bytes", ValueType::integer, Value{std::int64_t{-1}},
             "stream bytes `by` wants to send per connection; -1: from the scenario parameters (a lower bound)"},
            grace_param()};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"expected_bytes", ScenarioPart::expected_count}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      const auto initial = initial_max_data(conn, dissect::other(by));
      if (!initial) return no_transport_parameters(dissect::other(by), j);
      BlockedScope scope{"connection data", "DATA_BLOCKED",
                         walk_limit(*initial, conn.side(dissect::other(by)).max_data, conn.side(by).data_sent,
                                    conn.at(0)),
                         0, "", &conn.side(by).data_blocked};
      scope.at_sender = at_endpoint(j.vantage, by);
      return judge_limit(scope, *j.capture, input, {"sent", "bytes"}, "expected_bytes",
                         expected_bytes(input.settings, by, j), *initial);
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(data_blocked_sent, quic_checks::DataBlockedSent)
