// `probe_advances_crypto`: successive datagrams re-sending CRYPTO of a space
// do not re-send the same bytes again while later bytes of that space are
// unacknowledged and left out, so a flight larger than one probe gets
// through in one round of probes (RFC 9002 §6.2.4: probes carry data that
// may be lost; the PQ handshake regression of
// shared/background/client-packet-buffering-and-pq-handshake.md). A round
// is a burst: bytes the datagrams sent right behind it carry (within
// kProbeBurstNs) are not left out. Loss detection's repair on an ACK may
// repeat the last probe's bytes first and send the rest in its next
// datagram, whatever ACK arrives between (the sender was already sending
// them). A probe's burst ends earlier, at an ACK newly acknowledging an
// Initial or Handshake packet of the sender: bytes sent after it may be
// that ACK's repair, which waited for it. Judged at the sender's own
// capture.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::quic_checks {
namespace {

// CRYPTO of `space` the datagrams sent right behind datagram `i` carry:
// within kProbeBurstNs of it and, unless it repairs a loss, before an ACK
// newly acknowledging an Initial or Handshake packet of the sender arrived.
RangeSet sent_right_after(const Flights& flights, std::size_t i, std::size_t space) {
  RangeSet out;
  const FlightDatagram& d = flights.datagrams[i];
  auto news = std::upper_bound(flights.new_acks.begin(), flights.new_acks.end(), d.at,
                               [](const At& at, const NewAck& a) { return at < a.at; });
  while (news != flights.new_acks.end() && !news->handshake_spaces) ++news;
  const bool repair = d.repairs_loss[space];
  for (std::size_t k = i + 1; k < flights.datagrams.size(); ++k) {
    const At& at = flights.datagrams[k].at;
    if (at.time_ns > d.at.time_ns + kProbeBurstNs) break;
    if (!repair && news != flights.new_acks.end() && news->at < at) break;
    out.add(flights.datagrams[k].crypto[space]);
  }
  return out;
}

class ProbeAdvancesCrypto final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "probe_advances_crypto"; }
  std::string rfc() const override { return "RFC 9002 §6.2.4 (no MUST: recovery practice)"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "a datagram `by` sends re-sending only CRYPTO the previous re-sending datagram of its space carried "
           "does so only when no other CRYPTO of the space is unacknowledged, or the datagrams it sends right "
           "behind carry the rest (within 1 ms; for a probe, before an ACK newly acknowledging an Initial or "
           "Handshake packet arrives)";
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the endpoint whose probes count", std::string("client"))};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    return judge_each_connection(run, by, [&](const Judged& j) {
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      std::size_t resends = 0;
      std::array<const FlightDatagram*, 2> previous{};
      const auto& flights = crypto_flights(*j.connection, by);
      for (std::size_t i = 0; i < flights.datagrams.size(); ++i)
        for (std::size_t s : {kInitial, kHandshake}) {
          const FlightDatagram& d = flights.datagrams[i];
          if (!d.resent[s]) continue;
          ++resends;
          const FlightDatagram* prev = previous[s];
          previous[s] = &d;
          if (!prev || d.fresh[s] || !prev->crypto[s].covers(d.crypto[s])) continue;
          const RangeSet left_out =
              d.unacked[s].minus(prev->crypto[s]).minus(d.crypto[s]).minus(sent_right_after(flights, i, s));
          if (left_out.empty()) continue;
          problems.push_back(fmt::format("frame {} ({}) re-sent {} CRYPTO {} as frame {} did, while {} bytes {} were "
                                         "unacknowledged and left out",
                                         d.at.frame, ms(d.at.time_ns), space_name(s), format_ranges(d.crypto[s]),
                                         prev->at.frame, left_out.size(), format_ranges(left_out)));
          ev.push_back(evidence(*j.capture, prev->at, fmt::format("{} CRYPTO {}", space_name(s), format_ranges(prev->crypto[s]))));
          ev.push_back(evidence(*j.capture, d.at, fmt::format("{} CRYPTO {} again", space_name(s), format_ranges(d.crypto[s]))));
        }
      if (resends == 0) {
        if (auto gap = handshake_packets_unseen(j, by)) return needs_vantage(j, by, "own capture", gap->why);
        return not_exercised(fmt::format("the {} never re-sent CRYPTO data", to_string(by)));
      }
      return verdict(problems, ev,
                     fmt::format("{} re-sendings of CRYPTO; none repeated the previous one while "
                                 "other bytes waited",
                                 resends));
    });
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(probe_advances_crypto, quic_checks::ProbeAdvancesCrypto)
