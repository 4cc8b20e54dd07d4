// `handshake_time`: each client completes (or confirms) the handshake within
// a bound in milliseconds or in round trips, and after at least `min_ms`
// (so a suite can assert the order of cases). Complete: the client sent the
// last byte of its Handshake CRYPTO, its Finished (RFC 9001 §4.1.1);
// confirmed: a HANDSHAKE_DONE reached it (§4.1.2). Measured at each
// client's capture from its first Initial. A performance bound, not an RFC
// requirement.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/round_trip.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

namespace conform::quic_checks {
namespace {

struct Milestones {
  std::optional<At> first_initial, first_reply, complete, confirmed;
};

Milestones milestones(const ConnectionFacts& conn) {
  const auto& c = *conn.connection;
  std::uint64_t finished_end = 0;  // the end of the client's Handshake CRYPTO
  for (const auto& d : c.datagrams)
    if (sender_of(d) == Side::client)
      for (const auto& p : d.packets)
        if (p.space == dissect::PacketSpace::handshake)
          for (const auto& f : p.frames)
            if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f)) finished_end = std::max(finished_end, cf->offset + cf->length);
  Milestones m;
  for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    const At at{d.frame, d.time_ns, i};
    const bool client = sender_of(d) == Side::client;
    if (client && !m.first_initial) {
      for (const auto& p : d.packets)
        if (p.type == dissect::PacketType::initial) m.first_initial = at;
    }
    if (!client && m.first_initial && !m.first_reply) m.first_reply = at;
    for (const auto& p : d.packets)
      for (const auto& f : p.frames) {
        if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f);
            cf && client && !m.complete && finished_end && p.space == dissect::PacketSpace::handshake &&
            cf->offset + cf->length == finished_end)
          m.complete = at;
        if (!client && !m.confirmed && std::holds_alternative<dissect::HandshakeDoneFrame>(f)) m.confirmed = at;
      }
  }
  return m;
}

class HandshakeTime final : public QuicCheck {
 public:
  std::string name() const override { return "handshake_time"; }
  std::string rfc() const override { return "RFC 9001 §4.1.1-§4.1.2 (a performance bound, no requirement level)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "each client completes (or confirms) the handshake within `max_ms` and `max_rtts` round trips of its "
           "first Initial, and not before `min_ms`";
  }
  std::vector<ValueSpec> params() const override {
    return {{"until", ValueType::string, Value{std::string("complete")},
             "complete: the client sent its Finished; confirmed: HANDSHAKE_DONE reached it", {"complete", "confirmed"}},
            {"max_ms", ValueType::floating, Value{-1.0}, "upper bound, ms; -1: none"},
            {"max_rtts", ValueType::floating, Value{-1.0}, "upper bound in round trips; -1: none"},
            {"min_ms", ValueType::floating, Value{-1.0}, "lower bound, ms; -1: none"},
            {"rtt_ms", ValueType::floating, Value{-1.0},
             "the round trip for max_rtts, ms; -1: the case's network rtt_ms, else the client's first Initial to "
             "the first datagram back"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"max_ms", ScenarioPart::simulated_path}, {"max_rtts", ScenarioPart::simulated_path},
            {"min_ms", ScenarioPart::simulated_path}, {"rtt_ms", ScenarioPart::simulated_path}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    return judge_each_connection(run, Side::client, [&](const Judged& j) { return judge_one(j, input); });
  }

 private:
  static CheckResult judge_one(const Judged& j, const CheckInput& input) {
    const bool confirmed = value_or<std::string>(input.params, "until", "complete") == "confirmed";
    const double max_ms = value_or<double>(input.params, "max_ms", -1);
    const double max_rtts = value_or<double>(input.params, "max_rtts", -1);
    const double min_ms = value_or<double>(input.params, "min_ms", -1);
    const Milestones m = milestones(*j.connection);
    const auto& end = confirmed ? m.confirmed : m.complete;
    const char* what = confirmed ? "confirmed" : "complete";
    if (!m.first_initial) return {Verdict::fail, "the client sent no Initial", {}};
    if (!end)
      return {Verdict::fail, fmt::format("the handshake was never {}", what),
              {evidence(*j.capture, *m.first_initial, "the client's first Initial")}};
    const std::int64_t took = end->time_ns - m.first_initial->time_ns;
    CheckResult r;
    r.evidence = {evidence(*j.capture, *m.first_initial, "the client's first Initial"),
                  evidence(*j.capture, *end, confirmed ? "HANDSHAKE_DONE arrived" : "the client's Finished")};
    std::vector<std::string> bounds;
    bool ok = true;
    if (max_ms >= 0) {
      bounds.push_back(fmt::format("≤ {} ms", max_ms));
      ok = ok && took <= max_ms * 1e6;
    }
    if (min_ms >= 0) {
      bounds.push_back(fmt::format("≥ {} ms", min_ms));
      ok = ok && took >= min_ms * 1e6;
    }
    std::string rtts;
    if (max_rtts >= 0) {
      auto [rtt_ms, source] = stated_round_trip(input);
      if (rtt_ms <= 0 && m.first_reply) {
        rtt_ms = (m.first_reply->time_ns - m.first_initial->time_ns) / 1e6;
        source = "first Initial to first reply";
      }
      if (rtt_ms <= 0) return {Verdict::fail, "max_rtts needs a round trip: none known", r.evidence};
      bounds.push_back(fmt::format("≤ {} RTT of {:.3f} ms ({})", max_rtts, rtt_ms, source));
      rtts = fmt::format(" = {:.2f} RTT", took / 1e6 / rtt_ms);
      ok = ok && took <= max_rtts * rtt_ms * 1e6;
    }
    r.verdict = pass_if(ok);
    r.summary = fmt::format("handshake {} after {}{} (bound {})", what, ms(took), rtts,
                            bounds.empty() ? std::string("none") : fmt::format("{}", fmt::join(bounds, ", ")));
    return r;
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(handshake_time, quic_checks::HandshakeTime)
