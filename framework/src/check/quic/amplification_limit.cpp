// `amplification_limit`: before it has validated the client's address, a
// server sends at most three times the bytes it received on the connection
// (RFC 9000 §8.1: MUST). The address is validated when a Handshake packet
// from the client has been processed, or when the client's Initial carries
// the token of a Retry the server sent (§8.1.2). Tokens from NEW_TOKEN are
// not followed: a server that validates with them may exceed 3× and fail
// this check. Judged at server.pcap, datagram payload bytes both ways.
#include "check/quic/support/address_validation.hpp"
#include "check/quic/support/blocked_sent.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class AmplificationLimit final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "amplification_limit"; }
  std::string rfc() const override { return "RFC 9000 §8.1 (MUST), §8.1.2"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "before validating the client's address the server never sends more than 3× the bytes it received";
  }
  std::vector<ValueSpec> params() const override { return {}; }

  CheckResult judge(const QuicRun& run, const CheckInput&) const override {
    return judge_each_connection(run, Side::server, [&](const Judged& j) { return judge_one(j); });
  }

 private:
  static CheckResult judge_one(const Judged& j) {
    const auto& c = *j.connection->connection;
    std::uint64_t received = 0, sent = 0;
    const std::optional<std::size_t> validating = address_validated_at(c);
    std::optional<At> validated;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    double worst = 0;
    for (std::size_t i = 0; i < c.datagrams.size() && !validated; ++i) {
      const auto& d = c.datagrams[i];
      const At at{d.frame, d.time_ns, i};
      if (sender_of(d) == Side::client) {
        received += d.size;
        if (validating && i == *validating) validated = at;
        continue;
      }
      sent += d.size;
      worst = std::max(worst, received ? double(sent) / double(received) : 1e9);
      if (sent > 3 * received && problems.empty()) {
        problems.push_back(fmt::format("frame {} ({}): the server had sent {} bytes having received {} (limit {}) "
                                       "before validating the address",
                                       d.frame, ms(d.time_ns), sent, received, 3 * received));
        ev.push_back(evidence(*j.capture, at, fmt::format("{} bytes sent > 3 × {}", sent, received)));
      }
    }
    if (validated) ev.push_back(evidence(*j.capture, *validated, "the client's address is validated"));
    const std::string until = validated ? fmt::format("validation at frame {}", validated->frame)
                                        : std::string("the end (never validated)");
    // A server that sent nothing before validation (never answered) had
    // nothing to weigh against the limit.
    if (sent == 0) return not_exercised(fmt::format("the server sent nothing before {}", until), ev);
    return verdict(problems, ev,
                   fmt::format("before {} the server sent {} bytes for {} received (at most {:.2f}×)", until, sent,
                               received, worst));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(amplification_limit, quic_checks::AmplificationLimit)
