// `probes_carry_crypto`: while an endpoint has unacknowledged CRYPTO data in
// the Initial or Handshake space, its ack-eliciting packets of that space
// carry CRYPTO, not a PING alone: a probe is to retransmit the data that
// may be lost (RFC 9002 §6.2.4: "SHOULD include new data", previously sent
// data otherwise; §6.2.2.1). Judged at the sender's own capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class ProbesCarryCrypto final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "probes_carry_crypto"; }
  std::string rfc() const override { return "RFC 9002 §6.2.4 (SHOULD), §6.2.2.1"; }
  RequirementLevel level() const override { return RequirementLevel::should; }
  std::string summary() const override {
    return "no Initial or Handshake packet `by` sends is ack-eliciting without CRYPTO while CRYPTO data of its "
           "space is unacknowledged";
  }
  std::vector<ValueSpec> params() const override { return {side_param("by", "the endpoint whose probes count")}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "server"));
    return judge_each_connection(run, by, [&](const Judged& j) {
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      std::size_t probes = 0;
      for (const auto& d : crypto_flights(*j.connection, by).datagrams)
        for (std::size_t s : {kInitial, kHandshake}) {
          if (d.resent[s]) ++probes;
          if (!d.eliciting_without_crypto[s] || !d.crypto[s].empty() || d.unacked[s].empty()) continue;
          problems.push_back(fmt::format("frame {} ({}): an ack-eliciting {} packet without CRYPTO while {} bytes "
                                         "{} were unacknowledged",
                                         d.at.frame, ms(d.at.time_ns), space_name(s), d.unacked[s].size(),
                                         format_ranges(d.unacked[s])));
          ev.push_back(evidence(*j.capture, d.at, fmt::format("{} probe without CRYPTO", space_name(s))));
        }
      if (probes == 0 && problems.empty()) {
        if (auto gap = handshake_packets_unseen(j, by)) return needs_vantage(j, by, "own capture", gap->why);
        return not_exercised(fmt::format("the {} never re-sent CRYPTO data (no probe)", to_string(by)));
      }
      return verdict(problems, ev,
                     fmt::format("{} datagrams re-sent CRYPTO; no ack-eliciting Initial or "
                                 "Handshake packet went without it while some was unacknowledged",
                                 probes));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(probes_carry_crypto, quic_checks::ProbesCarryCrypto)
