// `lost_crypto_resent`: CRYPTO bytes an endpoint sent and has not seen
// acknowledged go out again by its `max_probes`-th PTO probe in a row at
// the latest. RFC 9000 §13.3: CRYPTO data is retransmitted "until all data
// has been acknowledged" (no keyword); RFC 9002 §6.2.4: a probe SHOULD
// carry new data and MAY carry data that may be lost, so a probe may go
// without them, but not probe after probe. nginx#1616 held its lost
// ServerHello behind a full congestion window and probed with PINGs until
// the handshake timed out.
//
// A probe is what the sender's timer sent, not an answer: a burst of its
// ack-eliciting datagrams of the space (within kProbeBurstNs of each other)
// starting more than 1 ms after the peer's last datagram reached it (from a
// capture not at the sender, one handshake round trip more), and not the
// first after a Retry. The bytes it owed are those sent before the burst
// and unacknowledged when it left; a probe that re-sent some of them, or
// had no room left for them (full of other CRYPTO, or at the amplification
// limit), does not count as going without the rest.
#include "check/quic/support/address_validation.hpp"
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/quic/support/initial_padding.hpp"
#include "check/quic/support/round_trip.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>


namespace conform::quic_checks {
namespace {

// A burst of the sender's ack-eliciting datagrams of one space: indices
// into Flights::datagrams, and whether its timer sent it.
struct Burst {
  std::size_t first = 0, last = 0;
  bool probe = false;
};

bool elicits_in(const FlightDatagram& d, std::size_t space) {
  return !d.crypto[space].empty() || d.eliciting_without_crypto[space];
}

// The sender's bursts of ack-eliciting packets of `space`. A probe is one
// its PTO timer may have sent: it began more than `answer_ns` after the
// peer's latest datagram, and at least the smallest RTT sample so far
// after the sender's previous ack-eliciting packet of the space (RFC 9002
// §6.2.1: a PTO period is longer than the smoothed RTT), so that a paced
// flight is not taken for probes. Before the sender has a sample, at least
// the handshake's round trip as the capture shows it or RFC 9002 §6.2.2's
// initial RTT of 333 ms, whichever is less (a ClientHello sent in two
// bursts is no probe).
std::vector<Burst> bursts_of(const Flights& flights, const dissect::Connection& c, Side by, std::size_t space,
                             std::int64_t answer_ns) {
  constexpr std::int64_t kInitialRttNs = 333'000'000;
  const std::vector<RttSample> rtt = rtt_samples(c, by);
  const std::int64_t unsampled_ns = std::min(handshake_round_trip(c).value_or(kInitialRttNs), kInitialRttNs);
  std::vector<Burst> bursts;
  std::optional<std::int64_t> peer_ns;
  std::int64_t min_rtt_ns = unsampled_ns;
  std::size_t next = 0, next_rtt = 0;  // what of the connection and of `rtt` is looked at
  bool retried = false;  // a Retry came: the next burst answers it (RFC 9002 §6.3)
  for (std::size_t i = 0; i < flights.datagrams.size(); ++i) {
    const auto& d = flights.datagrams[i];
    if (!elicits_in(d, space)) continue;
    for (; next < d.at.datagram; ++next) {
      if (sender_of(c.datagrams[next]) == by) continue;
      peer_ns = c.datagrams[next].time_ns;
      for (const auto& p : c.datagrams[next].packets) retried = retried || p.type == dissect::PacketType::retry;
    }
    for (; next_rtt < rtt.size() && rtt[next_rtt].datagram < d.at.datagram; ++next_rtt)
      min_rtt_ns = next_rtt == 0 ? rtt[0].ns : std::min(min_rtt_ns, rtt[next_rtt].ns);
    std::optional<std::int64_t> gap_ns;
    if (!bursts.empty()) gap_ns = d.at.time_ns - flights.datagrams[bursts.back().last].at.time_ns;
    if (gap_ns && *gap_ns <= kProbeBurstNs) {
      bursts.back().last = i;
      continue;
    }
    const bool answer = (peer_ns && d.at.time_ns - *peer_ns <= answer_ns) || retried;
    const bool paced = gap_ns && *gap_ns < min_rtt_ns;
    bursts.push_back({i, i, !answer && !paced});
    retried = false;
  }
  return bursts;
}

// What RFC 9000 §8.1 still let the server send once datagram `last` was
// out, before it validated the client's address: three times what it
// received less what it sent. nullopt once validated, and for a client.
std::optional<std::int64_t> amplification_credit(const dissect::Connection& c, Side by, std::size_t last,
                                                 std::optional<std::size_t> validated) {
  if (by != Side::server || (validated && *validated <= last)) return std::nullopt;
  std::int64_t received = 0, sent = 0;
  for (std::size_t i = 0; i <= last && i < c.datagrams.size(); ++i)
    (sender_of(c.datagrams[i]) == Side::server ? sent : received) += std::int64_t(c.datagrams[i].size);
  return 3 * received - sent;
}

// Whether burst `b` had room for CRYPTO of `space` beside what it carried:
// in one of its datagrams, up to its own size or 1200 bytes if larger, and
// no further than the amplification limit let the server go (`credit`,
// what it left after the burst), the bytes that are not a packet's
// non-PADDING ones exceed a packet's overhead. A probe full of other
// CRYPTO bytes (the two full-sized datagrams RFC 9002 §6.2.4 allows, say)
// or capped by the limit leaves nothing out; a PING alone, padded or not,
// had room.
bool had_room(const Flights& flights, const Burst& b, std::size_t space, std::optional<std::int64_t> credit) {
  for (std::size_t i = b.first; i <= b.last; ++i) {
    const auto& d = flights.datagrams[i];
    std::size_t cap = std::max(d.size, kMinInitialDatagram);
    if (credit) cap = std::min(cap, d.size + std::size_t(std::max<std::int64_t>(0, *credit)));
    if (cap > d.used + d.overhead[space]) return true;
  }
  return false;
}

// The latest datagram before `before` that carried bytes of `bytes`: where
// they were last sent.
const FlightDatagram* last_carrier(const Flights& flights, std::size_t before, std::size_t space,
                                   const RangeSet& bytes) {
  for (std::size_t i = before; i-- > 0;)
    if (flights.datagrams[i].crypto[space].overlaps(bytes)) return &flights.datagrams[i];
  return nullptr;
}

class LostCryptoResent final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "lost_crypto_resent"; }
  std::string rfc() const override { return "RFC 9000 §13.3 (no keyword), RFC 9002 §6.2.4"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "Initial or Handshake CRYPTO bytes `by` sent and has not seen acknowledged go out again within "
           "`max_probes` PTO probes in a row";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host",
                       "a burst within one handshake round trip after a datagram of the peer passed the capture "
                       "point is taken as an answer to it, not a probe"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the endpoint whose CRYPTO counts", std::string("any"), true),
            {"max_probes", ValueType::integer, Value{std::int64_t{2}},
             "PTO probes in a row that may go without the unacknowledged bytes (RFC 9002 §6.2.4 lets a probe "
             "carry new data instead)",
             {}, 1}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const auto by = value_or<std::string>(input.params, "by", "any");
    const auto max_probes = std::size_t(value_or<std::int64_t>(input.params, "max_probes", 2));
    return judge_by(run, by, [&](const Judged& j, Side side) { return judge_one(j, side, max_probes); });
  }

 private:
  static CheckResult judge_one(const Judged& j, Side by, std::size_t max_probes) {
    const auto& c = *j.connection->connection;
    const Flights& flights = crypto_flights(*j.connection, by);
    const std::int64_t answer_ns = kReadNs + unseen_round_trip(j, by);
    const std::optional<std::size_t> validated = address_validated_at(c);
    std::vector<std::string> problems;
    std::vector<Evidence> failed, resent;
    std::size_t probes = 0, resending = 0;
    for (std::size_t space : {kInitial, kHandshake}) {
      // missed[n]: bytes still owed that the last n + 1 probes went without.
      std::vector<RangeSet> missed(max_probes);
      RangeSet reported;  // each range is a problem once
      for (const Burst& b : bursts_of(flights, c, by, space, answer_ns)) {
        const FlightDatagram& start = flights.datagrams[b.first];
        const RangeSet& owed = start.unacked[space];
        if (!b.probe || owed.empty()) continue;
        ++probes;
        RangeSet carried;
        for (std::size_t i = b.first; i <= b.last; ++i) carried.add(flights.datagrams[i].crypto[space]);
        const RangeSet again = owed.intersect(carried);
        if (!again.empty()) ++resending;
        if (!again.empty())
          if (const auto* before = last_carrier(flights, b.first, space, again))
            resent.push_back(evidence(*j.capture, start.at,
                                      fmt::format("{} CRYPTO {} sent again, unacknowledged since frame {}",
                                                  space_name(space), format_ranges(again), before->at.frame)));
        const RangeSet left = owed.minus(carried);
        // A probe that re-sent some of the owed bytes made progress (which
        // bytes first is probe_advances_crypto's matter); one full of other
        // bytes could carry no more: the rest wait, as they were.
        if (!again.empty() || !had_room(flights, b, space,
                      amplification_credit(c, by, flights.datagrams[b.last].at.datagram, validated))) {
          for (auto& m : missed) m = m.intersect(left);
          continue;
        }
        RangeSet tracked;
        for (const auto& m : missed) tracked.add(m);
        std::vector<RangeSet> next(max_probes);
        next[0] = left.minus(tracked);
        for (std::size_t n = 1; n < max_probes; ++n) next[n] = missed[n - 1].intersect(left);
        if (RangeSet due = next[max_probes - 1].minus(reported); !due.empty()) {
          reported.add(due);
          const auto* before = last_carrier(flights, b.first, space, due);
          const At sent = before ? before->at : start.at;
          problems.push_back(fmt::format("frame {} ({}): probe {} in a row without {} CRYPTO {}, unacknowledged "
                                         "since frame {} ({})",
                                         start.at.frame, ms(start.at.time_ns), max_probes, space_name(space),
                                         format_ranges(due), sent.frame, ms(sent.time_ns)));
          failed.push_back(evidence(*j.capture, sent, fmt::format("{} CRYPTO {} last sent", space_name(space),
                                                                  format_ranges(due))));
          failed.push_back(evidence(*j.capture, start.at, fmt::format("probe {} in a row without it", max_probes)));
        }
        next[max_probes - 1] = RangeSet{};
        missed = std::move(next);
      }
    }
    if (probes == 0) {
      if (auto gap = handshake_packets_unseen(j, by)) return needs_vantage(j, by, "own capture", gap->why);
      return not_exercised(fmt::format("no PTO probe of the {} while CRYPTO it sent was unacknowledged",
                                       to_string(by)));
    }
    if (!problems.empty()) return verdict(problems, failed, "");
    return verdict(problems, resent,
                   fmt::format("{} PTO probe{} while CRYPTO was unacknowledged, {} re-sending some; none went "
                               "without it {} in a row",
                               probes, probes == 1 ? "" : "s", resending, max_probes));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(lost_crypto_resent, quic_checks::LostCryptoResent)
