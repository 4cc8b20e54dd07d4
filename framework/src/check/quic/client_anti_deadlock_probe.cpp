// `client_anti_deadlock_probe`: a client that has no ack-eliciting packet
// unacknowledged, has had none of its Handshake packets acknowledged and
// has not received HANDSHAKE_DONE keeps its PTO timer armed and sends a
// probe when it expires (RFC 9002 §6.2.2.1: MUST; RFC 9000 §8.2: otherwise
// a lost server flight, or a server at its anti-amplification limit,
// deadlocks the handshake). Judged at the client's capture: each such
// quiet spell must end, by an ack-eliciting client datagram or by the
// condition ending (a Handshake ACK or HANDSHAKE_DONE arriving), within
// `max_wait_ms`; one still open when the capture ends is a deadlock, if the
// capture went on past the bound (a capture made elsewhere ends at its last
// record, and one that ends sooner cannot tell: NOT JUDGED). A
// spell that ends with the client sending Handshake CRYPTO it never sent
// before, with none of the server's Initial or Handshake packets arriving in
// it, was no wait: the client already held what it needed for that data
// (the server's whole flight) and was processing it, a certificate check,
// say; there was nothing to deadlock, and no probe was due from its side.
// A 1-RTT packet arriving meanwhile (quinn 0.9's NEW_CONNECTION_ID, sent
// with its flight) gives the client nothing its Finished waits for. Nor is a
// connection either side has closed in that state: the spell ends there.
//
// From a capture not taken at the client (docs/offline.md, "Vantage") the
// server's ACKs are seen before they reach the client and the client's
// datagrams after it sent them: a spell is seen longer than the client
// waited by up to one round trip, which the bound allows, with the RTT
// taken as the handshake's round trip at the capture point (the server's
// reaction to the ClientHello plus the client's to the reply: the same
// wherever the capture was taken). And a probe lost before the capture
// point is never seen: a spell is a failure only when the client's next
// Initial and Handshake packet numbers follow on from the last ones before
// it, so that nothing was sent in between; otherwise, and for a capture
// that ends in the spell, NOT JUDGED.
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/crypto_flights.hpp"
#include "check/quic/support/round_trip.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>

namespace conform::quic_checks {
namespace {

constexpr std::int64_t kGranularityNs = 1'000'000;  // RFC 9002 §6.1.2 kGranularity

bool is_handshake_done(const dissect::Frame& f) { return std::holds_alternative<dissect::HandshakeDoneFrame>(f); }


bool carries_close(const dissect::Datagram& d) {
  return std::any_of(d.packets.begin(), d.packets.end(), carries<dissect::ConnectionCloseFrame>);
}

// Whether `d` holds an Initial or Handshake packet: what a client's
// handshake can wait for.
bool carries_handshake_space(const dissect::Datagram& d) {
  return std::any_of(d.packets.begin(), d.packets.end(), [](const dissect::Packet& p) {
    return p.space == dissect::PacketSpace::initial || p.space == dissect::PacketSpace::handshake;
  });
}

/// What one connection's client capture shows, datagram by datagram.
class Exposure {
 public:
  /// Feeds one datagram, in capture order.
  void on_datagram(const dissect::Datagram& d, const At& at) {
    const bool own = sender_of(d) == Side::client;
    for (const auto& p : d.packets) {
      if (!p.decrypted() || !p.packet_number) continue;
      const auto space = std::size_t(p.space);
      if (own) {
        if (ack_eliciting(p)) {
          unacked_[space].insert(*p.packet_number);
          sent_eliciting_ = true;
        }
        continue;
      }
      for (const auto& f : p.frames) {
        if (is_handshake_done(f)) confirmed_ = true;
        const auto* a = std::get_if<dissect::AckFrame>(&f);
        if (!a) continue;
        // Any Handshake ACK acknowledges one of the client's Handshake packets.
        if (p.space == dissect::PacketSpace::handshake) handshake_acked_ = true;
        auto& set = unacked_[space];
        for (const auto& r : a->ranges) set.erase(set.lower_bound(r.smallest), set.upper_bound(r.largest));
        if (!first_sample_ns_ && first_send_ns_) first_sample_ns_ = at.time_ns - *first_send_ns_;
      }
    }
    if (own && !first_send_ns_) first_send_ns_ = at.time_ns;
  }

  /// Nothing ack-eliciting unacknowledged, no Handshake ACK, no HANDSHAKE_DONE.
  bool exposed() const {
    if (!sent_eliciting_ || confirmed_ || handshake_acked_) return false;
    return std::all_of(unacked_.begin(), unacked_.end(), [](const auto& s) { return s.empty(); });
  }
  bool ended_by_condition() const { return confirmed_ || handshake_acked_; }
  /// The first RTT sample: the client's first datagram to the first ACK back.
  std::optional<std::int64_t> first_sample_ns() const { return first_sample_ns_; }

 private:
  std::array<std::set<std::uint64_t>, 3> unacked_;
  bool sent_eliciting_ = false, confirmed_ = false, handshake_acked_ = false;
  std::optional<std::int64_t> first_send_ns_, first_sample_ns_;
};

// Empty when the client's next Initial and Handshake packets after
// datagram `from` follow on from its last ones before it (nothing sent in
// between went unseen); else why a probe may have been lost before the
// capture point.
std::string probe_maybe_unseen(const dissect::Connection& c, std::size_t from) {
  for (auto space : {dissect::PacketSpace::initial, dissect::PacketSpace::handshake}) {
    const auto next = next_in_space(c, Side::client, space, from);
    if (!next)
      return fmt::format("the capture shows no {} packet of the client after frame {}, so a probe lost before the "
                         "capture point would not show",
                         dissect::to_string(space), c.datagrams[from].frame);
    if (auto gap = packet_number_gap(c, Side::client, space, from, *next)) return *gap + " (a probe, perhaps)";
  }
  return {};
}

class AntiDeadlockProbe final : public QuicCheck {
 public:
  std::string name() const override { return "client_anti_deadlock_probe"; }
  std::string rfc() const override { return "RFC 9002 §6.2.2.1 (MUST), RFC 9000 §8.2"; }
  RequirementLevel level() const override { return RequirementLevel::must; }
  std::string summary() const override {
    return "a client with nothing unacknowledged before its Handshake packets are acknowledged or the handshake "
           "is confirmed sends a probe within `max_wait_ms`";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"the client's host",
                       "the bound allows one more round trip (the handshake's, the same from any capture point), and a spell fails only when the client's Initial and Handshake packet numbers run on across it; otherwise, and for a capture ending in a spell, NOT JUDGED"};
  }
  std::vector<ValueSpec> params() const override {
    return {{"max_wait_ms", ValueType::floating, Value{-1.0},
             "longest quiet spell, milliseconds; -1: twice the first PTO, 2 × (rtt + max(2 × rtt, 1 ms)) with "
             "rtt the client's first Initial to the first ACK back"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"max_wait_ms", ScenarioPart::simulated_path}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const double max_wait = value_or<double>(input.params, "max_wait_ms", -1.0);
    return judge_each_connection(run, Side::client, [&](const Judged& j) { return judge_one(j, max_wait, run); });
  }

 private:
  static CheckResult judge_one(const Judged& j, double max_wait_ms, const QuicRun& run) {
    const auto observed_until = run.observed_until_ns();
    const auto& c = *j.connection->connection;
    Exposure e;
    std::optional<At> since;  // when the current quiet spell began
    std::size_t arrived = 0;  // server datagrams with Initial or Handshake packets since then
    std::uint64_t crypto_end = 0;  // of the client's Handshake CRYPTO so far
    std::vector<std::string> problems;
    std::vector<Evidence> ev;
    std::size_t spells = 0, processing = 0;
    std::int64_t longest = 0, bound = -1;
    std::string bound_source;
    const bool at_client = at_endpoint(j.vantage, Side::client);
    std::string unseen;  // why a failure cannot be supported from here
    bool trip_unknown = false;  // from elsewhere: no round trip to allow for what the capture cannot see
    auto limit = [&]() -> std::int64_t {
      const auto measured = at_client ? e.first_sample_ns() : handshake_round_trip(c);
      trip_unknown = !at_client && !measured;
      const auto rtt = measured.value_or(0);
      const std::int64_t unseen_trip = at_client ? 0 : rtt;
      const std::string widened =
          at_client ? "" : fmt::format(", plus {} for the round trip a capture on {} cannot see", ms(rtt), describe(j.vantage));
      if (max_wait_ms >= 0) {
        bound_source = "max_wait_ms" + widened;
        return std::int64_t(max_wait_ms * 1e6) + unseen_trip;
      }
      bound_source = fmt::format("twice the first PTO for an RTT of {}{}", ms(rtt), widened);
      return 2 * (rtt + std::max(2 * rtt, kGranularityNs)) + unseen_trip;
    };
    auto close_spell = [&](const At& end, const std::string& how) {
      const std::int64_t quiet = end.time_ns - since->time_ns;
      longest = std::max(longest, quiet);
      if (quiet > bound && problems.empty() && unseen.empty() && trip_unknown)
        unseen = "the capture shows no round trip of the handshake (each endpoint's ACK of a packet of the other) "
                 "to allow for what it cannot see of the client";
      if (quiet > bound && problems.empty() && unseen.empty() && !at_client)
        unseen = probe_maybe_unseen(c, since->datagram);
      if (quiet > bound && problems.empty() && unseen.empty()) {
        problems.push_back(fmt::format("the client had nothing unacknowledged and no Handshake ACK from frame {} ({}) "
                                       "and sent no probe for {} (bound {}: {}), until {}",
                                       since->frame, ms(since->time_ns), ms(quiet), ms(bound), bound_source, how));
        ev.push_back(evidence(*j.capture, *since, "everything the client sent is acknowledged; the PTO stays armed"));
        ev.push_back(evidence(*j.capture, end, fmt::format("{} later: {}", ms(quiet), how)));
      }
      since.reset();
    };
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      const auto& d = c.datagrams[i];
      const At at{d.frame, d.time_ns, i};
      const bool own = sender_of(d) == Side::client;
      // From elsewhere: what the client's ACKs show never reached it
      // (dropped past the capture point) is not what it knew.
      if (!own && !at_client && shown_not_received(c, Side::client, i)) continue;
      const bool eliciting_own = own && std::any_of(d.packets.begin(), d.packets.end(),
                                                         [](const dissect::Packet& p) { return ack_eliciting(p); });
      const std::uint64_t sent_to = own ? quic_checks::crypto_end(d, dissect::PacketSpace::handshake) : 0;
      if (since && eliciting_own && sent_to > crypto_end && arrived == 0) {
        ++processing;  // new data from what it already held: processing, not waiting
        --spells;
        since.reset();
      }
      if (since && eliciting_own) close_spell(at, fmt::format("the client's datagram at frame {}", d.frame));
      // A connection closing (either side's CONNECTION_CLOSE) leaves the
      // handshake, and the anti-deadlock state with it (RFC 9000 §10.2).
      if (carries_close(d)) {
        if (since)
          close_spell(at, fmt::format("the {}'s CONNECTION_CLOSE at frame {}", own ? "client" : "server", d.frame));
        break;
      }
      crypto_end = std::max(crypto_end, sent_to);
      if (since && !own && carries_handshake_space(d)) ++arrived;
      e.on_datagram(d, at);
      if (since && e.ended_by_condition())
        close_spell(at, fmt::format("frame {} acknowledged a Handshake packet or confirmed the handshake", d.frame));
      if (!since && e.exposed()) {
        since = at;
        arrived = 0;
        ++spells;
        bound = limit();
      }
    }
    if (since && problems.empty() && !at_client && unseen.empty())
      unseen = fmt::format("the capture ends in a quiet spell from frame {}, and a probe lost before the capture "
                           "point would not show",
                           since->frame);
    if (!unseen.empty()) return needs_vantage(j, Side::client, "own capture", unseen);
    // A capture made elsewhere shows nothing after its last record: a spell
    // it shows for no longer than the bound may have ended in a probe after
    // recording stopped. Only this verdict rests on where the capture
    // ends: a spell it shows for longer stays longer however late the end.
    if (since && problems.empty() && observed_until && *observed_until - since->time_ns <= bound) {
      run.rests_on_capture_end();
      return {Verdict::not_judged,
              fmt::format("cannot judge: the capture ends {} into a quiet spell of the client's from frame {} ({}), "
                          "within the bound of {} ({}): it does not show whether a probe came after",
                          ms(*observed_until - since->time_ns), since->frame, ms(since->time_ns), ms(bound),
                          bound_source),
              {}};
    }
    if (since && problems.empty()) {
      // No probe, no Handshake ACK, no HANDSHAKE_DONE to the end: deadlock.
      problems.push_back(fmt::format("the client had nothing unacknowledged and no Handshake ACK from frame {} ({}) "
                                     "to the end of the capture and never sent a probe: the handshake deadlocked",
                                     since->frame, ms(since->time_ns)));
      ev.push_back(evidence(*j.capture, *since, "everything the client sent is acknowledged; no probe follows"));
    }
    const std::string processed =
        processing ? fmt::format("; {} quiet spell{} ended by the client's own new Handshake CRYPTO with no Initial or "
                                 "Handshake packet arriving: it was processing what it held, not waiting",
                                 processing, processing == 1 ? "" : "s")
                   : std::string();
    if (spells == 0)
      return not_exercised("the client never waited with everything acknowledged before a Handshake ACK" +
                           processed);
    return verdict(problems, ev,
                   fmt::format("{} quiet spell{} with nothing unacknowledged before a Handshake ACK, the longest {} "
                               "(bound {}: {}){}",
                               spells, spells == 1 ? "" : "s", ms(longest), ms(bound), bound_source, processed));
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(client_anti_deadlock_probe, quic_checks::AntiDeadlockProbe)
