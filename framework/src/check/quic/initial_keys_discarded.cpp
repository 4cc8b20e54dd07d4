// `initial_keys_discarded`: a client discards its Initial keys when it first
// sends a Handshake packet, a server when it first processes one, and
// neither sends an Initial packet after that (RFC 9001 §4.9.1: MUST). Judged
// at each side's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class InitialKeysDiscarded final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "initial_keys_discarded"; }
  std::string rfc() const override { return "RFC 9001 §4.9.1 (MUST)"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "no Initial packet is sent by a client after its first Handshake packet, or by a server after it "
           "received one";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"the server's host, for the server",
                       "the server's keys count as discarded from its first ACK of a client Handshake packet or its "
                       "HANDSHAKE_DONE, not from that packet passing the capture point"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "whose Initial packets count", std::string("any"), true)};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    std::vector<std::pair<std::string, CheckResult>> parts;
    for (Side side : {Side::client, Side::server}) {
      if (by != "any" && by != to_string(side)) continue;
      const auto captures = run.at(side);
      if (captures.empty() && by != "any") return missing_captures(side);
      for (const Judged& j : connections_of(captures, run.vantage(side))) parts.emplace_back(label(j), judge_one(j, side));
    }
    if (parts.empty()) return {Verdict::fail, "no QUIC connection in the captures", {}};
    return combine(parts);
  }

 private:
  static CheckResult judge_one(const Judged& j, Side side) {
    const auto& c = *j.connection->connection;
    const bool at_server = at_endpoint(j.vantage, Side::server);
    std::optional<At> discarded;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      const At at{d.frame, d.time_ns, i};
      const bool own = sender_of(d) == side;
      for (const auto& p : d.packets) {
        if (own && p.type == dissect::PacketType::initial && discarded && problems.empty()) {
          problems.push_back(fmt::format("the {} sent an Initial packet at frame {} ({}) after discarding its Initial "
                                         "keys at frame {}",
                                         to_string(side), d.frame, ms(d.time_ns), discarded->frame));
          ev.push_back(evidence(*j.capture, at, "Initial packet after the keys were discarded"));
        }
        // The client discards on sending a Handshake packet, the server on
        // processing one (it must decrypt). A capture not at the server sees
        // the client's packet before it arrives, or not arriving at all:
        // there the server is known to have processed one once it
        // acknowledges it (its own datagrams keep their order).
        // A server's HANDSHAKE_DONE shows it too, from anywhere: its
        // handshake completed on the client's Finished, a Handshake packet
        // (RFC 9001 §4.1.2).
        const bool handshake_known =
            p.type == dissect::PacketType::handshake &&
            (side == Side::client ? own : at_server ? !own : own && carries<dissect::AckFrame>(p));
        const bool done_sent = side == Side::server && own && carries<dissect::HandshakeDoneFrame>(p);
        if (!discarded && p.decrypted() && (handshake_known || done_sent)) discarded = at;
      }
    }
    if (!discarded) return not_exercised(fmt::format("the {} never had to discard its Initial keys", to_string(side)));
    ev.insert(ev.begin(), evidence(*j.capture, *discarded, "Initial keys discarded"));
    return verdict(problems, ev, fmt::format("the {} sent no Initial packet after frame {}", to_string(side), discarded->frame));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(initial_keys_discarded, quic_checks::InitialKeysDiscarded)
