// `pto_backoff`: while no acknowledgement of new packets arrives, each PTO
// probe waits at least about twice as long as the one before (RFC 9002
// §6.2.1: MUST double the PTO period on expiry; the backoff is reset only
// when an acknowledgement newly acknowledges packets, Appendix A.7, so an
// ACK that acknowledges nothing new must not reset it). A probe is an
// ack-eliciting datagram of Initial or Handshake packets carrying no new
// CRYPTO; datagrams within 1 ms, or an eighth of the interval that began
// their burst, of its first form one burst (a PTO sends up to two, and a
// loaded sender may space them by milliseconds: quic-go's came 2.8 ms apart
// 200 ms after the burst before; a period that shrank to an eighth is no
// backoff at all, and the faults judged, a constant or halved period, are
// far above it). The chain restarts at a datagram of new data or at an ACK
// newly acknowledging the sender's packets, but a client keeps its backoff
// across ACKs in Initial packets (RFC 9002 §6.2.1: it is not yet certain
// the server has validated its address), save the first ACK it gets: that
// one's RTT sample replaces kInitialRtt (§6.2.2) and may shorten the period
// many times over, so intervals before and after it do not compare; and
// save one that leaves some of the client's ack-eliciting Initial packets
// unacknowledged (loss detection may re-send them at once, which a capture
// cannot tell from a probe). The later ones bring RTT samples too (each may lower the period to 3/4,
// srtt + 4 rttvar) and, when they leave nothing in flight, restart the
// timer from their arrival (Appendix A.8): across them an interval fails
// only when it is shorter than the one before, which a kept backoff never
// makes it (the fault, a reset, makes it about half). The chain restarts
// too where the sender discards its Initial keys (§6.2.2: the PTO MUST be
// reset; RFC 9001 §4.9.1: a client at its first Handshake packet, a server
// at the first it receives), and the first interval after it must not be
// 1.5 times the last one before or more: reset, it is one base period, at
// most half that interval; kept (quiche#2690), twice it. Judged at the
// sender's capture.
// From a capture taken elsewhere a probe lost before the capture point
// would merge two intervals into one and look like too short a backoff
// after it, so a short interval is a failure only when the sender's Initial
// and Handshake packet numbers run on without a gap from the burst before
// the interval compared to it; otherwise NOT JUDGED (unseen_packets.hpp).
// A re-send that answers the peer's duplicate Initial (its CRYPTO sent
// again, the next datagram of the sender after it) is not a PTO probe: a
// server may re-send its unacknowledged Initial CRYPTO before its PTO
// expires when a client re-sends its own (RFC 9002 §6.2.3). Sending it
// re-arms the timer without backing it off (Appendix A.6), so the next
// interval is measured from it, and nothing is compared to it. From a
// capture not at the sender, a peer's ACK or duplicate Initial that the
// sender's own ACKs show never reached it (lost after the capture point)
// neither resets the backoff nor is answered.
// Each space's timer counts from its own last ack-eliciting packet
// (Appendix A.8: time_of_last_ack_eliciting_packet of the space plus the
// backed-off period), so a burst that probes a space the burst before left
// out is measured from that space's last packet: quic-go answers a
// Handshake PTO with Initial PINGs, and its Handshake probe then comes one
// doubled period after its Handshake flight, sooner after the PINGs.
// A server's handshake is confirmed once the client's Finished reaches it
// (RFC 9001 §4.1.2), and it then discards its Handshake keys (§4.9.2): no
// PTO of the handshake runs after that, so its datagrams from then on are
// no probes (quic-go re-sends its Handshake CRYPTO beside its ACK of the
// Finished, which arrived after the probes before it had backed off).
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <functional>
#include <limits>
#include <optional>
#include <set>

namespace conform::quic_checks {
namespace {

// The connection datagram index where the client's Initial keys go: its
// first datagram with a Handshake packet (RFC 9001 §4.9.1; the server's
// too, which discards them on receiving it); past the end if none.
// Measured from the discard (a client with nothing in flight arms its
// timer then, Appendix A.8), the first interval after it is one base
// period, or two when the discarding packet was itself a probe (A.9 counts
// the expiry after A.11's reset); kept, the backoff makes it twice the
// last interval before or more. Judged only after a chain that backed off
// at least once (that last interval at least two base periods): reset
// stays within it, kept reaches twice it; 1.5 between.
constexpr double kUnresetFactor = 1.5;

// Whether `d` carries an ack-eliciting packet of `space` (kInitial,
// kHandshake).
bool eliciting_in(const FlightDatagram& d, std::size_t space) {
  return !d.crypto[space].empty() || d.eliciting_without_crypto[space];
}

// For a server judged from elsewhere, a client datagram its own ACKs show
// it never received discarded nothing.
std::size_t initial_keys_discarded(const dissect::Connection& c, Side by, bool at_sender) {
  for (std::size_t i = 0; i < c.datagrams.size(); ++i)
    if (sender_of(c.datagrams[i]) == Side::client)
      for (const auto& p : c.datagrams[i].packets)
        if (p.space == dissect::PacketSpace::handshake &&
            (by == Side::client || at_sender || !shown_not_received(c, Side::server, i)))
          return i;
  return c.datagrams.size();
}

class PtoBackoff final : public QuicCheck {
 public:
  KeysNeeded keys_needed() const override { return KeysNeeded::handshake; }
  std::string name() const override { return "pto_backoff"; }
  std::string rfc() const override { return "RFC 9002 §6.2.1 (MUST), §6.2.2 (MUST), Appendix A.7, A.11"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "each successive PTO probe of `by` without a new acknowledgement in between comes at least "
           "`min_factor` times the previous interval later";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host",
                       "a short interval fails only when `by`'s Initial and Handshake packet numbers show no probe unseen across the bursts compared; otherwise NOT JUDGED"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the endpoint whose probes count"),
            {"min_factor", ValueType::floating, Value{1.5},
             "smallest ratio of an interval between probe bursts to the one before (2 exactly, less timer slack)"}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    const double factor = value_or<double>(input.params, "min_factor", 1.5);
    return judge_each_connection(run, by, [&](const Judged& j) { return judge_one(j, by, factor); });
  }

 private:
  // Why probes of `by` between `from` and `to` may have gone unseen.
  static std::optional<std::string> packets_unseen(const Judged& j, Side by, const At& from, const At& to) {
    for (auto space : {dissect::PacketSpace::initial, dissect::PacketSpace::handshake})
      if (auto gap = packet_number_gap(*j.connection->connection, by, space, from.datagram, to.datagram))
        return *gap + " (a probe, perhaps, which would split the interval)";
    return std::nullopt;
  }

  // Where the timer that `d`, a new burst after the one at `burst`, answers
  // began (Appendix A.8: a space's timer counts from its own last
  // ack-eliciting packet, and only a space with some in flight has one):
  // the earliest last datagram of the spaces `d` probes that still had
  // CRYPTO unacknowledged when it left, when that is before `burst` (the
  // burst before probed other spaces), never before the chain's `anchor`;
  // else `burst`.
  static At timer_start(const At& burst, const At& anchor, const FlightDatagram& d,
                        const std::array<std::optional<At>, 2>& last_in_space) {
    At from = burst;
    for (std::size_t space : {kInitial, kHandshake}) {
      if (!eliciting_in(d, space) || d.unacked[space].empty() || !last_in_space[space]) continue;
      const At& start = last_in_space[space]->time_ns < anchor.time_ns ? anchor : *last_in_space[space];
      if (start.time_ns < from.time_ns) from = start;
    }
    return from;
  }

  // The connection datagram index where the client's Finished (its first
  // Handshake CRYPTO) reached the server; kNever if it never did.
  static std::size_t finished_arrived(const Flights& client, const std::function<bool(const At&)>& reached) {
    for (const auto& d : client.datagrams)
      if (!d.crypto[kHandshake].empty() && reached(d.at)) return d.at.datagram;
    return kNever;
  }
  static constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

  // The connection datagram indices of `by`'s datagrams that answer a
  // duplicate Initial of its peer: the first of `by`'s after each.
  static std::set<std::size_t> answers_to_duplicates(const Flights& flights, const Flights& peer,
                                                     const std::function<bool(const At&)>& reached) {
    std::set<std::size_t> out;
    auto next = flights.datagrams.begin();
    for (const auto& p : peer.datagrams) {
      if (!p.resent[kInitial] || !reached(p.at)) continue;
      while (next != flights.datagrams.end() && next->at.datagram < p.at.datagram) ++next;
      if (next != flights.datagrams.end()) out.insert(next->at.datagram);
    }
    return out;
  }

  static CheckResult judge_one(const Judged& j, Side by, double factor) {
    const Flights& flights = crypto_flights(*j.connection, by);
    const bool at_sender = at_endpoint(j.vantage, by);
    // From elsewhere, a datagram of the peer reached `by` unless `by`'s own
    // ACKs show it did not (lost after the capture point).
    const auto reached = [&](const At& at) {
      return at_sender || !shown_not_received(*j.connection->connection, by, at.datagram);
    };
    const Flights& peer = crypto_flights(*j.connection, dissect::other(by));
    const std::set<std::size_t> answers = answers_to_duplicates(flights, peer, reached);
    const std::size_t confirmed = by == Side::server ? finished_arrived(peer, reached) : kNever;
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::optional<At> anchor, last_burst, last_sent, burst_before;
    std::array<std::optional<At>, 2> last_in_space;  // the latest ack-eliciting datagram with a packet of the space
    std::string unseen;
    std::int64_t interval = -1;  // between the last two bursts, ns; -1: none yet
    std::int64_t began_after = 0;  // the gap before the current burst began, ns
    std::size_t ai = 0, bursts = 0, longest = 0, chain = 0, compared = 0, answered = 0, acks = 0, kept = 0;
    const std::size_t discard = initial_keys_discarded(*j.connection->connection, by, at_sender);
    bool discarded = false;
    // An Initial ACK kept since the last burst, and between the last two.
    bool kept_since_burst = false, kept_before = false;
    // The last interval before the Initial keys were discarded, until the
    // first after it is compared to it; -1: none.
    std::int64_t before_discard = -1;
    std::optional<At> discarded_at;
    const auto restart = [&] {
      anchor = last_sent;
      last_burst.reset();
      interval = -1;
      chain = 0;
      kept_since_burst = kept_before = false;
      before_discard = -1;
    };
    for (const auto& d : flights.datagrams) {
      if (d.at.datagram > confirmed) break;
      // After it: the client's first Handshake packet left under the old
      // backoff, and the server's datagrams before it knew of none.
      if (!discarded && d.at.datagram > discard) {
        discarded = true;
        const std::int64_t last = chain >= 2 ? interval : -1;
        restart();
        before_discard = last;
        discarded_at = j.connection->at(discard);
        // A client arms its timer at its own discarding datagram; a server
        // still from its last ack-eliciting one.
        if (by == Side::client) anchor = discarded_at;
      }
      // An ACK newly acknowledging packets resets the backoff: the next
      // probe is one PTO after the latest ack-eliciting datagram.
      for (; ai < flights.new_acks.size() && flights.new_acks[ai].at.datagram < d.at.datagram; ++ai) {
        const NewAck& ack = flights.new_acks[ai];
        if (!reached(ack.at)) continue;
        const bool first = acks++ == 0;
        // An ACK that leaves some of it unacknowledged may have loss
        // detection re-send the rest at once, which is no probe: restart.
        if (by == Side::client && ack.initial_only && ack.initial_all_acked && !first) {
          ++kept;
          kept_since_burst = true;
          continue;
        }
        restart();
      }
      if (!d.ack_eliciting) continue;
      const bool probe = d.handshake_eliciting() && !d.fresh[kInitial] && !d.fresh[kHandshake] &&
                         (d.resent[kInitial] || d.resent[kHandshake] || d.eliciting_without_crypto[kInitial] ||
                          d.eliciting_without_crypto[kHandshake]);
      if (probe && answers.count(d.at.datagram)) {
        ++answered;
        if (last_burst) last_burst = d.at;
        else anchor = d.at;
      } else if (!probe) {
        // New data restarts the timer, not the backoff: a discard's
        // comparison still waits for the first probe.
        const std::int64_t pending = before_discard;
        restart();
        before_discard = pending;
        anchor = d.at;
      } else if (anchor) {
        At from = last_burst ? *last_burst : *anchor;
        if (!last_burst || d.at.time_ns - from.time_ns > std::max(kProbeBurstNs, began_after / 8)) {
          if (last_burst) from = timer_start(from, *anchor, d, last_in_space);
          const bool from_its_space = last_burst && from.datagram != last_burst->datagram;
          const std::int64_t gap = d.at.time_ns - from.time_ns;
          ++bursts;
          longest = std::max(longest, ++chain);
          compared += interval > 0;
          const bool across_kept = kept_since_burst || kept_before;
          const double bar = across_kept ? std::min(1.0, factor) : factor;
          kept_before = kept_since_burst;
          kept_since_burst = false;
          const std::optional<std::string> gap_unseen =
              at_sender || interval <= 0 || gap >= bar * double(interval) ? std::nullopt
                                                                           : packets_unseen(j, by, *burst_before, d.at);
          if (gap_unseen && unseen.empty()) unseen = *gap_unseen;
          if (interval > 0 && gap < bar * double(interval) && !gap_unseen) {
            const std::string after =
                from_its_space ? fmt::format("frame {}, the last ack-eliciting datagram of its spaces (RFC 9002 "
                                             "Appendix A.8), while the probe before it came",
                                             from.frame)
                               : fmt::format("the one at frame {}, which came", from.frame);
            problems.push_back(fmt::format("the probe at frame {} ({}) came {} after {} {} after its predecessor: "
                                           "factor {:.2f} < {}{}",
                                           d.at.frame, ms(d.at.time_ns), ms(gap), after, ms(interval),
                                           double(gap) / double(interval), bar,
                                           across_kept ? " (across an Initial ACK, which keeps the backoff)" : ""));
            ev.push_back(evidence(*j.capture, from, from_its_space ? "last ack-eliciting datagram of the probe's spaces"
                                                                   : "earlier probe"));
            ev.push_back(evidence(*j.capture, d.at, fmt::format("probe {} later", ms(gap))));
          }
          if (chain == 1 && before_discard > 0) {
            const bool late = gap >= kUnresetFactor * double(before_discard);
            const std::optional<std::string> late_unseen =
                at_sender || !late ? std::nullopt : packets_unseen(j, by, from, d.at);
            if (late_unseen && unseen.empty()) unseen = *late_unseen;
            if (late && !late_unseen) {
              problems.push_back(fmt::format(
                  "the probe at frame {} ({}) came {} after frame {}, with the Initial keys gone at frame {} ({}): "
                  "{:.2f} times the last interval before them ({}): the backoff was not reset (RFC 9002 §6.2.2)",
                  d.at.frame, ms(d.at.time_ns), ms(gap), from.frame, discarded_at->frame,
                  ms(discarded_at->time_ns), double(gap) / double(before_discard), ms(before_discard)));
              ev.push_back(evidence(*j.capture, *discarded_at, "Initial keys discarded"));
              ev.push_back(evidence(*j.capture, d.at, fmt::format("probe {} later", ms(gap))));
            }
            before_discard = -1;
          }
          interval = gap;
          began_after = gap;
          burst_before = from;
          last_burst = d.at;
        }
      }
      last_sent = d.at;
      for (std::size_t space : {kInitial, kHandshake})
        if (eliciting_in(d, space)) last_in_space[space] = d.at;
    }
    if (problems.empty() && !unseen.empty()) return needs_vantage(j, by, "own capture", unseen);
    std::string answers_note =
        answered ? fmt::format("; {} re-send{} answering the {}'s duplicate Initial, not a probe (RFC 9002 §6.2.3)",
                               answered, answered == 1 ? "" : "s", to_string(dissect::other(by)))
                 : std::string();
    if (discarded_at && bursts)
      answers_note += fmt::format("; the chain starts again where the Initial keys went, frame {} ({}: RFC 9002 "
                                  "§6.2.2 resets the PTO)",
                                  discarded_at->frame, ms(discarded_at->time_ns));
    if (kept)
      answers_note += fmt::format("; the backoff kept across {} Initial ACK{} after the first (RFC 9002 §6.2.1), an "
                                  "interval across one at least as long as the one before",
                                  kept, kept == 1 ? "" : "s");
    if (compared == 0) {
      if (auto gap = handshake_packets_unseen(j, by)) return needs_vantage(j, by, "own capture", gap->why);
      return not_exercised(fmt::format("no two successive PTO probe bursts of the {} without a new acknowledgement "
                                       "between them ({} probe bursts){}",
                                       to_string(by), bursts, answers_note));
    }
    return verdict(problems, ev,
                   (bursts ? fmt::format("{} probe bursts, at most {} in a row without a new acknowledgement, each "
                                         "interval at least {}× the one before",
                                         bursts, longest, factor)
                           : std::string("no PTO probes")) +
                       answers_note);
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(pto_backoff, quic_checks::PtoBackoff)
