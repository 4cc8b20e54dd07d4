// `data_blocked_sent`: a sender that has data to send but is at the peer's
// connection-level limit sends DATA_BLOCKED carrying that limit (RFC 9000
// §4.1: SHOULD, §19.12), and never sends beyond it (§4.1: MUST NOT).
// Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/demand.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

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
  std::vector<ValueSpec> params() const override {
    return {blocked_by_param(),
            {"expected_bytes", ValueType::integer, Value{std::int64_t{-1}},
             "stream bytes `by` wants to send per connection; -1: from the scenario parameters (a lower bound)"},
            grace_param()};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      const auto initial = initial_max_data(conn, dissect::other(by));
      if (!initial) return no_transport_parameters(dissect::other(by), *j.capture);
      BlockedScope scope{"connection data", "DATA_BLOCKED",
                         walk_limit(*initial, conn.side(dissect::other(by)).max_data, conn.side(by).data_sent, conn.at(0)), 0, "",
                         &conn.side(by).data_blocked};
      const Demand d = demand(with_blocked_frames({scope.walk.used, fmt::format("sent {}", scope.walk.used)},
                                                  *scope.blocked, scope.blocked_frame),
                              value_or<std::int64_t>(input.params, "expected_bytes", -1), "expected_bytes",
                              expected_bytes(input.settings, by));
      scope.wanted = d.wanted;
      scope.why = d.why;
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      const auto grace = std::int64_t(value_or<double>(input.params, "grace_ms", 0) * 1e6);
      const std::size_t needed = judge_blocked(scope, *j.capture, grace, problems, ev);
      if (!exercised(scope))
        return not_exercised(fmt::format("never at the connection data limit wanting more: sent {} bytes (wanted {}: "
                                         "{}), limit {} → {}",
                                         scope.walk.used, scope.wanted, scope.why, *initial, scope.walk.final_limit));
      return verdict(problems, ev,
                     fmt::format("sent {} bytes (wanted {}: {}), limit {} → {}; {} waits at "
                                 "the limit, each reported with DATA_BLOCKED",
                                 scope.walk.used, scope.wanted, scope.why, *initial,
                                 scope.walk.final_limit, needed));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(data_blocked_sent, quic_checks::DataBlockedSent)
