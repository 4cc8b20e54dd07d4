// `max_data_extended`: a receiver raises MAX_DATA as it consumes data, so
// its peer can keep sending, however many streams the data is spread over.
// RFC 9000 §4.2 (no requirement level: receivers are expected to send
// MAX_DATA as data is consumed), §19.9; data beyond the limit is a
// FLOW_CONTROL_ERROR (§4.1). Read at the receiver `by`: MAX_DATA as sent,
// the peer's stream data as it arrived.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/raises.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class MaxDataExtended final : public QuicCheck {
 public:
  std::string name() const override { return "max_data_extended"; }
  std::string rfc() const override { return "RFC 9000 §4.2 (expected practice, no MUST), §4.1, §19.9"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "`by` raises MAX_DATA whenever its peer reaches the connection-level limit and has more to send; the "
           "peer never sends beyond it";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host", "with `max_wait_ms`, the bound grows by the handshake's round trip"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the receiver of the data"),
            {"expected_bytes", ValueType::integer, Value{std::int64_t{-1}},
             "stream bytes the peer wants to send per connection; -1: from the scenario parameters (a lower bound)"},
            max_wait_param("MAX_DATA")};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"expected_bytes", ScenarioPart::expected_count}, {"max_wait_ms", ScenarioPart::simulated_path}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    const Side peer = dissect::other(by);
    const auto max_wait = std::int64_t(value_or<double>(input.params, "max_wait_ms", -1.0) * 1e6);
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      const auto initial = initial_max_data(conn, by);
      if (!initial) {
        return no_transport_parameters(by, j);
      }
      if (auto none = nothing_under_limits(j)) return *none;
      const auto& raises = conn.side(by).max_data;
      // The limit in force is what reached the peer; going beyond a raise
      // it may not have had is no fault of the peer's.
      const std::vector<LimitSeen> arrived = arrived_raises(raises, j, by);
      const LimitWalk walk = walk_limit(*initial, arrived, conn.side(peer).data_sent, conn.at(0));
      const auto beyond = walk_limit(*initial, raises, conn.side(peer).data_sent, conn.at(0)).beyond;
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      if (beyond) {
        const auto& [u, limit] = *beyond;
        problems.push_back(fmt::format("the {} sent {} bytes beyond the limit {} at frame {} (FLOW_CONTROL_ERROR "
                                       "expected)", to_string(peer), u.value, limit, u.at.frame));
        ev.push_back(evidence(*j.capture, u.at, fmt::format("{} bytes beyond the limit {}", u.value, limit)));
      }
      Demand demand{walk.used, fmt::format("sent {}", walk.used)};
      for (const auto& b : conn.side(peer).data_blocked)
        if (b.value + 1 > demand.wanted) demand = {b.value + 1, fmt::format("DATA_BLOCKED {} at frame {}", b.value, b.at.frame)};
      demand = quic_checks::demand(demand, value_or<std::int64_t>(input.params, "expected_bytes", -1), "expected_bytes",
                                   expected_bytes(input.settings, peer, j));
      const RaiseWaits waits = judge_raises(walk, raises, arrived, demand, fmt::format("the {} data", to_string(peer)),
                                            "MAX_DATA", max_wait, j, by, problems, ev);
      if (!raises.empty()) ev.push_back(evidence(*j.capture, raises.back().at, fmt::format("last MAX_DATA {}", raises.back().value)));
      if (problems.empty() && demand.wanted <= *initial)
        return not_exercised(fmt::format("the {} never wanted more than the {} initial connection data limit: it sent {} "
                                         "bytes (wanted {}: {}); the limit went {} → {} in {} MAX_DATA",
                                         to_string(peer), to_string(by), walk.used, demand.wanted, demand.why,
                                         *initial, walk.final_limit, raises.size()),
                             std::move(ev));
      return verdict(problems, ev,
                     fmt::format("the {} limit went {} → {} in {} MAX_DATA; the {} sent {} bytes "
                                 "(wanted {}: {}); it reached the limit {} times, the longest "
                                 "wait for more {}{}",
                                 to_string(by), *initial, walk.final_limit, raises.size(),
                                 to_string(peer), walk.used, demand.wanted, demand.why, waits.reached,
                                 ms(waits.longest_ns), waits.lost_text("MAX_DATA")));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(max_data_extended, quic_checks::MaxDataExtended)
