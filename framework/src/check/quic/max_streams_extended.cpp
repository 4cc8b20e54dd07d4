// `max_streams_extended`: the receiver of peer-initiated streams raises
// MAX_STREAMS so its peer can keep opening them. RFC 9000 §4.6 (no
// requirement level: a receiver is expected to raise the limit as streams
// close, reset or stopped ones included) and §19.11 (a stream beyond the
// limit is a STREAM_LIMIT_ERROR). The limit is the running maximum of the
// MAX_STREAMS sent: §19.11 has the receiver ignore one that does not raise
// it, so a lower or repeated value (several in one packet in any order, a
// retransmission) is no sender error. Read at the receiver `by`:
// MAX_STREAMS as it sent them, the peer's streams as they arrived.
#include "check/quic/support/credit_ahead.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/limit_walk.hpp"
#include "check/quic/support/quic_check.hpp"
#include "check/quic/support/raises.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class MaxStreamsExtended final : public QuicCheck {
 public:
  std::string name() const override { return "max_streams_extended"; }
  std::string rfc() const override { return "RFC 9000 §4.6 (expected practice, no MUST), §19.11"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "`by` raises MAX_STREAMS whenever its peer reaches the limit (the highest MAX_STREAMS so far) and wants "
           "more streams; the peer never opens a stream beyond it";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host", "with `max_wait_ms`, the bound grows by the handshake's round trip"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the receiver of the peer-initiated streams"), dir_param(),
            {"expected", ValueType::integer, Value{std::int64_t{-1}},
             "streams the peer wants per connection; -1: from the scenario parameters (and what the captures show)"},
            max_wait_param("MAX_STREAMS"),
            {"ahead", ValueType::boolean, Value{false},
             "also fail a limit the peer reached although half a window of its streams had ended one round trip "
             "before (credit held back; the receiver's application must read at once)"},
            {"rtt_ms", ValueType::floating, Value{-1.0}, "the round trip for `ahead`, ms; -1: the case's network rtt_ms"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"expected", ScenarioPart::expected_count}, {"max_wait_ms", ScenarioPart::simulated_path},
            {"ahead", ScenarioPart::application_behaviour}, {"rtt_ms", ScenarioPart::simulated_path}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) { return judge_one(j, by, input); });
  }

 private:
  static CheckResult judge_one(const Judged& j, Side by, const CheckInput& input) {
    const StreamDir dir = dir_from(value_or<std::string>(input.params, "dir", "uni"));
    const Side peer = dissect::other(by);
    const auto& conn = *j.connection;
    const auto d = std::size_t(dir);
    CheckResult r;
    const auto initial = initial_max_streams(conn, by, dir);
    if (!initial)
      return no_transport_parameters(by, j);
    if (auto none = nothing_under_limits(j)) return *none;
    const auto& maxes = conn.side(by).max_streams[d];
    const auto& opens = conn.side(peer).opened[d];
    std::vector<std::string> problems;

    // The limit in force is what reached the peer; going beyond a raise it
    // may not have had is no fault of the peer's.
    const std::vector<LimitSeen> arrived = arrived_raises(maxes, j, by);
    std::uint64_t highest_max = *initial;
    const LimitSeen* highest = nullptr;
    for (const auto& m : arrived)
      if (m.value > highest_max) {
        highest_max = m.value;
        highest = &m;
      }

    const auto usage = stream_count_usage(opens);
    const LimitWalk walk = walk_limit(*initial, arrived, usage, conn.at(0));
    if (const auto beyond = walk_limit(*initial, maxes, usage, conn.at(0)).beyond) {
      const auto& [u, limit] = *beyond;
      problems.push_back(fmt::format("the {} opened stream {} beyond the limit {} at frame {} "
                                     "(STREAM_LIMIT_ERROR expected)",
                                     to_string(peer), u.value - 1, limit, u.at.frame));
      r.evidence.push_back(evidence(*j.capture, u.at, fmt::format("stream {} beyond the limit {}", u.value - 1, limit)));
    }
    std::uint64_t wanted = walk.used;
    std::string why = fmt::format("opened {}", wanted);
    for (const auto& b : conn.side(peer).streams_blocked[d])
      if (b.value + 1 > wanted) {
        wanted = b.value + 1;
        why = fmt::format("STREAMS_BLOCKED {} at frame {}", b.value, b.at.frame);
      }
    const Demand wants = demand({wanted, why}, value_or<std::int64_t>(input.params, "expected", -1), "expected",
                                expected_streams(input.settings, peer, dir, j));
    wanted = wants.wanted;
    why = wants.why;

    const auto max_wait = std::int64_t(value_or<double>(input.params, "max_wait_ms", -1.0) * 1e6);
    const std::size_t before = problems.size();
    const std::string what = fmt::format("the {} {} streams", to_string(peer), to_string(dir));
    const RaiseWaits waits = judge_raises(walk, maxes, arrived, {wanted, why}, what, "MAX_STREAMS", max_wait, j, by,
                                          problems, r.evidence);
    if (value_or<bool>(input.params, "ahead", false))
      judge_credit_ahead(conn, peer, dir, walk, wanted, *initial, round_trip_ns(input), *j.capture, problems,
                         r.evidence);
    // Credit may not have come back for streams that were reset or stopped.
    if (problems.size() > before && !walk.at_limit.empty() &&
        (problems.back().find("no MAX_STREAMS") != std::string::npos ||
         problems.back().find("none reached") != std::string::npos))
      for (const AtLimit& h : walk.at_limit)
        if (wanted > h.limit && !h.raised) problems.back() += closed_streams(conn, peer, dir, h.limit);
    if (highest)
      r.evidence.push_back(evidence(*j.capture, highest->at, fmt::format("highest MAX_STREAMS {}", highest->value)));

    // Raises ahead of need exercise the behaviour as well as raises at the
    // limit do: what did not occur is a peer wanting past the initial limit.
    if (problems.empty() && wanted <= *initial)
      return not_exercised(fmt::format("the {} never wanted more than the {} initial {} limit: it wanted {} ({}); the "
                                       "limit went {} → {} in {} MAX_STREAMS",
                                       to_string(peer), to_string(by), to_string(dir), wanted, why, *initial,
                                       highest_max, maxes.size()),
                           std::move(r.evidence));
    r.verdict = pass_if(problems.empty());
    if (r.verdict != Verdict::pass) {
      r.summary = problems.front();
      if (problems.size() > 1) r.summary += fmt::format(" (and {} more problems)", problems.size() - 1);
      return r;
    }
    r.summary = fmt::format("the {} {} limit went {} → {} in {} MAX_STREAMS; the {} wanted {} ({}); it reached a "
                            "limit {} times, the longest wait for more {}{}",
                            to_string(by), to_string(dir), *initial, highest_max, maxes.size(), to_string(peer), wanted,
                            why, waits.reached, ms(waits.longest_ns), waits.lost_text("MAX_STREAMS"));
    return r;
  }

  // Why credit may not have come back: how the streams under the limit ended.
  static std::string closed_streams(const ConnectionFacts& conn, Side peer, StreamDir dir, std::uint64_t limit) {
    const std::uint64_t bits = (peer == Side::server ? 1 : 0) | (dir == StreamDir::uni ? 2 : 0);
    const auto data = peer == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
    std::uint64_t finished = 0, reset = 0;
    for (std::uint64_t i = 0; i < limit; ++i)
      if (const auto* v = conn.stream(i << 2 | bits)) {
        const auto& f = v->flow(data);
        if (f.reset || f.stop_sending_error) ++reset;
        else if (f.fin_size && f.unique_bytes >= *f.fin_size) ++finished;
      }
    return fmt::format(" (of the {} streams, {} finished, {} reset or stopped)", limit, finished, reset);
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(max_streams_extended, quic_checks::MaxStreamsExtended)
