// `credit_not_held_back`: a receiver whose peer sits at its flow control
// limit sends the raise (MAX_DATA, MAX_STREAM_DATA) in the next datagram it
// sends, not after datagrams that leave without it, as a stack does that
// queues credit behind its own stream data while its congestion window is
// full. RFC 9000 §4.2 (a receiver sends credit early enough not to block
// the sender; no requirement level) with RFC 9002 §7: the congestion window
// bounds ack-eliciting packets and exempts only probes and a packet on
// entering recovery, so this asks for more than RFC 9002 strictly allows
// whenever the window is full, and the suite says so. Read at the receiver
// `by`: the peer's data as it arrived, the raises and datagrams as sent.
// From a capture taken elsewhere `by`'s datagrams seen before its first
// ACK of the data that reached the limit may have left before that data
// reached it (a queue on the way delays it by more than any round trip the
// handshake showed): they are not counted, and the summary says so
// (docs/offline.md, "Vantage"); nor are those after a packet of `by`'s
// the capture never saw (lost before it, it may have carried the raise). Nor are those `by` sent while the
// peer's stream data that reached it had a hole (bytes missing below the
// highest offset received on a stream, a loss not yet repaired): the
// application reads a stream in order (RFC 9000 §2.2), so it cannot consume,
// and its credit cannot grow, until the retransmission fills the hole. At
// 0.5 % loss a correct stack waits behind such holes (the lossy case of
// suites/rfc9000/credit_updates.toml, modelled on quicly#551).
#include "check/quic/support/blocked_sent.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/unseen_packets.hpp"
#include "check/registrar.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

namespace conform::quic_checks {
namespace {

/// One limit of `by` followed through the capture, and how far the peer
/// wanted to go past it.
struct CreditScope {
  std::string what;         // "connection data", "stream 3 data"
  std::string raise_frame;  // "MAX_DATA"
  LimitWalk walk;
  std::uint64_t wanted = 0;
  std::uint64_t initial = 0;  // the limit's transport parameter
};

class CreditNotHeldBack final : public QuicCheck {
 public:
  std::string name() const override { return "credit_not_held_back"; }
  std::string rfc() const override { return "RFC 9000 §4.2 (no requirement level), §19.9-§19.10; RFC 9002 §7"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override {
    return "whenever the peer's data reached `by`'s MAX_DATA or MAX_STREAM_DATA limit while it had more to send, "
           "`by` sent the raise within its next `max_datagrams` + 1 datagrams";
  }
  std::optional<VantageNeed> vantage_need() const override {
    return VantageNeed{"`by`'s host",
                       "`by`'s datagrams before its first ACK of the data that reached the limit are not counted (they may have left before it arrived), as the summary says; nor those after a packet of `by`'s the capture never saw (it may have carried the raise): NOT JUDGED when only they would fail it"};
  }
  std::vector<ValueSpec> params() const override {
    return {side_param("by", "the receiver of the data, which returns the credit"),
            {"max_datagrams", ValueType::integer, Value{std::int64_t{0}},
             "datagrams `by` may send without the raise once the peer is at the limit"},
            {"expected_bytes", ValueType::integer, Value{std::int64_t{-1}},
             "stream bytes the peer wants to send per connection; -1: from the scenario parameters"}};
  }

  std::vector<ScenarioParam> scenario_params() const override {
    return {{"expected_bytes", ScenarioPart::expected_count}};
  }

  CheckResult judge(const QuicRun& run, const CheckInput& input) const override {
    const Side by = side_from(value_or<std::string>(input.params, "by", "client"));
    const auto slack = std::size_t(std::max<std::int64_t>(0, value_or<std::int64_t>(input.params, "max_datagrams", 0)));
    return judge_each_connection(run, by, [&](const Judged& j) {
      const auto& conn = *j.connection;
      if (!conn.parameters(by))
        return no_transport_parameters(by, j);
      if (auto none = nothing_under_limits(j)) return *none;
      std::vector<std::string> problems;
      std::vector<Evidence> ev;
      std::size_t episodes = 0, longest = 0;
      bool wanted_more = false;
      const bool at_by = at_endpoint(j.vantage, by);
      const std::vector<bool> holed = holes_after(conn, by, at_by);
      std::optional<std::string> unseen;  // why a failure cannot be supported from here
      std::size_t behind_holes = 0;
      for (const CreditScope& scope : scopes(j, by, input)) {
        wanted_more = wanted_more || scope.wanted > scope.initial;
        for (const AtLimit& h : scope.walk.at_limit) {
          if (scope.wanted <= h.limit) continue;
          ++episodes;
          Between between = datagrams_between(conn, by, h, at_by, holed, std::nullopt);
          if (between.count > slack && !at_by) {
            // From elsewhere, a raise may have left in a datagram lost
            // before the capture point: then only those seen before `by`'s
            // packet numbers first skip one count (RFC 9000 §12.3).
            const std::size_t last = h.raised ? h.raised->at.datagram : conn.connection->datagrams.size() - 1;
            if (const auto gap =
                    first_unseen(*conn.connection, by, dissect::PacketSpace::application, h.reached.datagram, last)) {
              between = datagrams_between(conn, by, h, at_by, holed, gap);
              if (between.count <= slack && !unseen) unseen = gap->why;
            }
          }
          const auto& [count, first, holding] = between;
          behind_holes += holding;
          longest = std::max(longest, count);
          if (count <= slack) continue;
          problems.push_back(fmt::format(
              "the {} {} reached the limit {} at frame {} ({}); the {} sent {} datagrams without {} (the first at "
              "frame {}, {}) {}",
              to_string(dissect::other(by)), scope.what, h.limit, h.reached.frame, ms(h.reached.time_ns),
              to_string(by), count, scope.raise_frame, first.frame, ms(first.time_ns),
              h.raised ? fmt::format("before {} {} at frame {} ({})", scope.raise_frame, h.raised->value,
                                     h.raised->at.frame, ms(h.raised->at.time_ns))
                       : std::string("and never raised it")));
          ev.push_back(evidence(*j.capture, h.reached, fmt::format("{} reached the limit {}", scope.what, h.limit)));
          ev.push_back(evidence(*j.capture, first, fmt::format("left without {}", scope.raise_frame)));
          if (h.raised)
            ev.push_back(evidence(*j.capture, h.raised->at, fmt::format("{} {}", scope.raise_frame, h.raised->value)));
        }
      }
      if (problems.empty() && unseen)
        return needs_vantage(j, by, "own capture", fmt::format("{}, and a raise may have gone with it", *unseen));
      if (episodes == 0 && !wanted_more)
        return not_exercised(fmt::format("the {} never wanted more than an initial data limit of the {}",
                                         to_string(dissect::other(by)), to_string(by)));
      const std::string widened =
          at_by ? std::string()
                : fmt::format(" (not counting those before its first ACK of the data that reached the limit: the "
                              "capture, taken on {}, cannot tell whether they left before that data reached the {})",
                              describe(j.vantage), to_string(by));
      const std::string holes =
          behind_holes ? fmt::format(" (not counting {} sent while the {}'s data that reached the {} had a hole, "
                                     "which stops the reader until it is filled)",
                                     behind_holes, to_string(dissect::other(by)), to_string(by))
                       : std::string();
      if (!problems.empty()) problems.front() += widened + holes;
      return verdict(problems, ev,
                     fmt::format("the {} reached a limit wanting more {} times; the most datagrams the {} sent "
                                 "before the raise: {}{}{}",
                                 to_string(dissect::other(by)), episodes, to_string(by), longest, widened, holes));
    });
  }

 private:
  // The connection limit and each of the peer's streams' limits.
  static std::vector<CreditScope> scopes(const Judged& j, Side by, const CheckInput& input) {
    const ConnectionFacts& conn = *j.connection;
    const Side peer = dissect::other(by);
    std::vector<CreditScope> out;
    if (const auto initial = initial_max_data(conn, by)) {
      CreditScope c{"connection data", "MAX_DATA", walk_limit(*initial, conn.side(by).max_data, conn.side(peer).data_sent, conn.at(0)), 0, *initial};
      Demand d{c.walk.used, ""};
      for (const auto& b : conn.side(peer).data_blocked) d.wanted = std::max(d.wanted, b.value + 1);
      c.wanted = demand(d, value_or<std::int64_t>(input.params, "expected_bytes", -1), "expected_bytes",
                        expected_bytes(input.settings, peer, j))
                     .wanted;
      out.push_back(std::move(c));
    }
    const auto data = peer == Side::client ? dissect::Direction::client_to_server : dissect::Direction::server_to_client;
    for (const auto& [id, usage] : stream_offsets(conn, peer)) {
      const auto initial = initial_max_stream_data(conn, by, id);
      if (!initial) continue;
      std::vector<LimitSeen> raises;
      for (const auto& m : conn.side(by).max_stream_data)
        if (m.stream_id == id) raises.push_back({m.at, m.value});
      CreditScope s{fmt::format("stream {} data", id), "MAX_STREAM_DATA", walk_limit(*initial, raises, usage, usage.front().at), 0,
                    *initial};
      const auto& flow = conn.stream(id)->flow(data);
      s.wanted = flow.fin_size || flow.reset ? s.walk.used : s.walk.used + 1;
      for (const auto& b : conn.side(peer).stream_data_blocked)
        if (b.stream_id == id) s.wanted = std::max(s.wanted, b.value + 1);
      out.push_back(std::move(s));
    }
    return out;
  }

  // After each datagram of the connection, whether the peer's stream data
  // that reached `by` so far has a hole on some stream. At `by`'s host that
  // is the data seen so far; from elsewhere, what the capture saw of the
  // peer is not yet what `by` had (in flight, or lost past the capture
  // point), so it is the data of the peer's packets `by` had acknowledged
  // by then (its ACK ranges cover all it had received, RFC 9000 §13.2.3).
  static std::vector<bool> holes_after(const ConnectionFacts& conn, Side by, bool at_by) {
    const auto& datagrams = conn.connection->datagrams;
    std::map<std::uint64_t, dissect::RangeSet> received;
    std::set<std::uint64_t> holed;
    auto arrived = [&](const dissect::Packet& p) {
      for (const auto& f : p.frames)
        if (const auto* sf = std::get_if<dissect::StreamFrame>(&f); sf && sf->length > 0) {
          auto& r = received[sf->stream_id];
          r.add(sf->offset, sf->offset + sf->length);
          if (r.ranges().size() > 1 || r.prefix() == 0) holed.insert(sf->stream_id);
          else holed.erase(sf->stream_id);
        }
    };
    std::map<std::uint64_t, const dissect::Packet*> unacknowledged;  // the peer's 1-RTT packets, by number
    std::vector<bool> out;
    out.reserve(datagrams.size());
    for (const auto& d : datagrams) {
      const bool from_peer = sender_of(d) != by;
      for (const auto& p : d.packets) {
        if (from_peer && at_by) arrived(p);
        if (at_by || p.space != dissect::PacketSpace::application) continue;
        if (from_peer && p.packet_number) unacknowledged.emplace(*p.packet_number, &p);
        if (from_peer) continue;
        for (const auto& f : p.frames)
          if (const auto* ack = std::get_if<dissect::AckFrame>(&f))
            for (const auto& r : ack->ranges)
              for (auto it = unacknowledged.lower_bound(r.smallest); it != unacknowledged.end() && it->first <= r.largest;) {
                arrived(*it->second);
                it = unacknowledged.erase(it);
              }
      }
      out.push_back(!holed.empty());
    }
    return out;
  }

  struct Between {
    std::size_t count = 0;  // datagrams `by` sent without the raise
    At first;               // the first of them
    std::size_t holding = 0;  // left out: sent while a hole held the reader
  };

  // The datagrams `by` sent after the peer reached the limit and before the
  // raise (all later ones when none came) or the first `gap` in its packet
  // numbers, and the first of them; those
  // sent while the peer's data had a hole (`holed`) are left out, and from
  // a capture not at `by` (`at_by` false) those before `by` acknowledged
  // the data that reached the limit.
  static Between datagrams_between(const ConnectionFacts& conn, Side by, const AtLimit& h, bool at_by,
                                   const std::vector<bool>& holed, const std::optional<UnseenGap>& gap) {
    const auto& datagrams = conn.connection->datagrams;
    const std::size_t end = gap ? gap->datagram : h.raised ? h.raised->at.datagram : datagrams.size();
    const std::size_t from = at_by ? h.reached.datagram + 1 : first_ack_of(conn, by, h.reached.datagram);
    Between out;
    for (std::size_t i = from; i < end; ++i) {
      if (sender_of(datagrams[i]) != by) continue;
      if (holed[i]) {
        ++out.holding;
        continue;
      }
      if (out.count++ == 0) out.first = conn.at(i);
    }
    return out;
  }

  // The first datagram of `by` after `data` that acknowledges a 1-RTT packet
  // of datagram `data` (RFC 9000 §13.2: sent once it arrived), else the end.
  static std::size_t first_ack_of(const ConnectionFacts& conn, Side by, std::size_t data) {
    const auto& datagrams = conn.connection->datagrams;
    std::vector<std::uint64_t> pns;
    for (const auto& p : datagrams[data].packets)
      if (p.packet_number && p.space == dissect::PacketSpace::application) pns.push_back(*p.packet_number);
    for (std::size_t i = data + 1; i < datagrams.size(); ++i) {
      if (sender_of(datagrams[i]) != by) continue;
      for (const auto& p : datagrams[i].packets)
        for (const auto& f : p.frames)
          if (const auto* ack = std::get_if<dissect::AckFrame>(&f); ack && p.space == dissect::PacketSpace::application)
            for (const auto& r : ack->ranges)
              for (const auto pn : pns)
                if (pn >= r.smallest && pn <= r.largest) return i;
    }
    return datagrams.size();
  }
};

}  // namespace

}  // namespace conform::quic_checks

CONFORM_REGISTER_CHECK(credit_not_held_back, quic_checks::CreditNotHeldBack)
