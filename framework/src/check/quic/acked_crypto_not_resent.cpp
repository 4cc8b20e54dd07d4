// `acked_crypto_not_resent`: an endpoint does not send again CRYPTO bytes
// of the Initial or Handshake space that its peer has acknowledged (RFC
// 9000 §13.3: CRYPTO data is retransmitted "until all data has been
// acknowledged", no keyword; RFC 9002 §6.2.4: a probe re-sends data that
// may be lost). A client that drops the server's small ACK-only Initials
// (picoquic#1777) re-sends its acknowledged ClientHello. An ACK counts from
// 1 ms after it reached the sender (a datagram already on its way when the
// ACK was read is no fault); from a capture not at the sender, from one
// handshake round trip more, and not when the sender's own ACKs show the
// datagram never reached it. A server heeds no ACK in a client Initial
// carried in a datagram under 1200 bytes: RFC 9000 §14.1 has it discard
// such a packet.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/quic/support/initial_padding.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {

class AckedCryptoNotResent final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "acked_crypto_not_resent"; }
  std::string rfc() const override { return "RFC 9000 §13.3 (no keyword), RFC 9002 §6.2.4"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "`by` never sends again Initial or Handshake CRYPTO bytes its peer has acknowledged";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host",
                       "an ACK counts from one handshake round trip after it passed the capture point, unless "
                       "`by`'s own ACKs show it never arrived"};
  }
  std::vector<ValueSpec> params() const override { return {side_param("by", "the endpoint whose CRYPTO counts")}; }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) { return judge_one(j, by); });
  }

 private:

  static CheckResult judge_one(const Judged& j, Side by) {
    const Flights& flights = crypto_flights(*j.connection, by);
    const auto& datagrams = j.connection->connection->datagrams;
    const std::int64_t unseen = unseen_round_trip(j, by);
    const bool at_sender = unseen == 0;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t resent = 0;
    for (const auto& d : flights.datagrams)
      for (std::size_t s : {kInitial, kHandshake}) {
        if (!d.resent[s]) continue;
        ++resent;
        for (const auto& ack : flights.crypto_acks[s]) {
          if (ack.at.time_ns + kReadNs + unseen > d.at.time_ns) break;
          if (!at_sender && shown_not_received(*j.connection->connection, by, ack.at.datagram)) continue;
          if (by == Side::server && s == kInitial && datagrams[ack.at.datagram].size < kMinInitialDatagram) continue;
          const RangeSet again = d.crypto[s].intersect(ack.bytes);
          if (again.empty()) continue;
          problems.push_back(fmt::format("frame {} ({}): {} CRYPTO {} sent again, acknowledged at frame {} ({})",
                                         d.at.frame, ms(d.at.time_ns), space_name(s), format_ranges(again),
                                         ack.at.frame, ms(ack.at.time_ns)));
          ev.push_back(evidence(*j.capture, ack.at, fmt::format("{} CRYPTO {} acknowledged", space_name(s),
                                                                format_ranges(again))));
          ev.push_back(evidence(*j.capture, d.at, fmt::format("sent again {} later",
                                                              ms(d.at.time_ns - ack.at.time_ns))));
          break;
        }
      }
    if (resent == 0) return not_exercised(fmt::format("the {} never re-sent CRYPTO data", to_string(by)));
    return verdict(problems, ev,
                   fmt::format("{} re-sending{} of CRYPTO, none of bytes already acknowledged", resent,
                               resent == 1 ? "" : "s"));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(acked_crypto_not_resent, quic_checks::AckedCryptoNotResent)
