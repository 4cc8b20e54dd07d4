#include "offline/vantage_inference.hpp"

#include "check/quic/support/quic_check.hpp"
#include "dissect/range_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace conform {
namespace {

using dissect::Side;
using quic_checks::ms;

// Routers a datagram passed before the capture: how far its TTL is below
// the initial value nearest above it (64 for most systems, RFC 1700 and
// RFC 8200's default, 128 for Windows, 255 for network gear, 32 for a few
// old ones). A sender that chose another value would look routed; none of
// the QUIC stacks here does.
void count_hops(std::uint8_t ttl, AckerSigns& signs) {
  unsigned hops = 0;
  for (unsigned initial : {32u, 64u, 128u, 255u})
    if (ttl <= initial) {
      hops = initial - ttl;
      break;
    }
  ++signs.with_ttl;
  if (!hops) return;
  signs.fewest_hops = signs.routed++ ? std::min(signs.fewest_hops, hops) : hops;
}

struct Seen {
  std::int64_t time_ns;
  std::uint64_t frame;
};

// The packets of one space the capture saw, by number, the first sighting
// of each. Numbers rise in a space, so almost every one is appended to a
// sorted vector; one below the last goes to a map (a map's node for every
// packet was most of the survey's time on large captures).
class SeenPackets {
 public:
  void add(std::uint64_t pn, Seen seen) {
    if (in_order_.empty() || in_order_.back().first < pn)
      in_order_.emplace_back(pn, seen);
    else if (!in_vector(pn))
      late_.emplace(pn, seen);
  }
  const Seen* find(std::uint64_t pn) const {
    if (const auto it = lower(pn); it != in_order_.end() && it->first == pn) return &it->second;
    const auto it = late_.find(pn);
    return it == late_.end() ? nullptr : &it->second;
  }
  void clear() {
    in_order_.clear();
    late_.clear();
  }
  /// Each packet, in no particular order.
  template <class F>
  void for_each(F f) const {
    for (const auto& [pn, seen] : in_order_) f(pn, seen);
    for (const auto& [pn, seen] : late_) f(pn, seen);
  }

 private:
  using Entry = std::pair<std::uint64_t, Seen>;
  std::vector<Entry>::const_iterator lower(std::uint64_t pn) const {
    return std::lower_bound(in_order_.begin(), in_order_.end(), pn,
                            [](const Entry& e, std::uint64_t n) { return e.first < n; });
  }
  bool in_vector(std::uint64_t pn) const {
    const auto it = lower(pn);
    return it != in_order_.end() && it->first == pn;
  }
  std::vector<Entry> in_order_;
  std::map<std::uint64_t, Seen> late_;
};

// What one connection shows of `acker`'s ACKs of its peer's packets.
class AckReader {
 public:
  AckReader(const dissect::Connection& c, Side acker) {
    const auto& params = acker == Side::client ? c.client_parameters : c.server_parameters;
    if (params && params->ack_delay_exponent) exponent_ = unsigned(std::min<std::uint64_t>(*params->ack_delay_exponent, 20));
  }

  /// The connection's next datagram, `from_acker` or from its peer.
  void visit(const dissect::Datagram& d, bool from_acker, AckerSigns& signs) {
    // Once per captured record: a GSO record was split into segments.
    if (from_acker && (!d.gso || d.gso->index == 0)) {
      ++signs.datagrams;
      if (d.gso) ++signs.gso;
      if (d.checksum_offloaded) ++signs.offloaded;
      if (d.ttl) count_hops(d.ttl, signs);
    }
    for (const auto& p : d.packets) {
      // A Retry abandons the Initials before it (RFC 9000 §17.2.5):
      // nothing acknowledges them.
      if (from_acker && p.type == dissect::PacketType::retry) seen_[std::size_t(dissect::PacketSpace::initial)].clear();
      if (!p.decrypted() || p.space == dissect::PacketSpace::none) continue;
      const auto space = std::size_t(p.space);
      if (!from_acker) {
        seen_[space].add(*p.packet_number, Seen{d.time_ns, d.frame});
        continue;
      }
      for (const auto& f : p.frames)
        if (const auto* ack = std::get_if<dissect::AckFrame>(&f)) {
          ++signs.acks;
          read_ack(*ack, p.space, d.time_ns, signs);
        }
    }
  }
  /// After the connection's last datagram.
  void finish(AckerSigns& signs) {
    // Packets the capture saw that no ACK ever covered although a later one
    // acknowledged a higher number of their space (between its ranges or
    // below them) never reached the acker.
    for (std::size_t space = 0; space < seen_.size(); ++space) {
      const auto& acks = acks_[space];
      std::vector<std::uint64_t> highest_after(acks.size() + 1, 0);  // the largest of acks[k..]
      for (std::size_t k = acks.size(); k-- > 0;) highest_after[k] = std::max(highest_after[k + 1], acks[k].largest + 1);
      seen_[space].for_each([&](std::uint64_t pn, const Seen& seen) {
        if (acked_[space].contains(pn)) return;
        const auto first_after = std::upper_bound(acks.begin(), acks.end(), seen.time_ns,
                                                  [](std::int64_t t, const AckSeen& a) { return t < a.time_ns; });
        if (highest_after[std::size_t(first_after - acks.begin())] <= pn + 1) return;
        if (signs.skipped++ == 0 || seen.frame < signs.first_skipped_frame) signs.first_skipped_frame = seen.frame;
      });
    }
  }

 private:
  struct AckSeen {
    std::int64_t time_ns;
    std::uint64_t largest;
  };

  void read_ack(const dissect::AckFrame& ack, dissect::PacketSpace space, std::int64_t now, AckerSigns& signs) {
    const auto s = std::size_t(space);
    auto& seen = seen_[s];
    // Initial and Handshake ACKs are sent at once (§13.2.1); a 1-RTT ACK
    // says how long it was held.
    const std::int64_t held =
        space == dissect::PacketSpace::application ? std::int64_t(ack.ack_delay << exponent_) * 1000 : 0;
    if (const Seen* first = seen.find(ack.largest); first && (!reacted_[s] || ack.largest > *reacted_[s])) {
      reacted_[s] = ack.largest;
      ++signs.samples;
      const std::int64_t reaction = std::max<std::int64_t>(0, now - first->time_ns - held);
      signs.reaction_ns = std::min(signs.reaction_ns.value_or(reaction), reaction);
    }
    for (const auto& r : ack.ranges) acked_[s].add(r.smallest, r.largest + 1);
    acks_[s].push_back({now, ack.largest});
  }

  unsigned exponent_ = 3;  // §18.2's default
  std::array<SeenPackets, 3> seen_;
  std::array<std::optional<std::uint64_t>, 3> reacted_;
  std::array<dissect::RangeSet, 3> acked_;   // every packet number an ACK covered
  std::array<std::vector<AckSeen>, 3> acks_;  // each ACK, in capture order
};

void pool(AckerSigns& into, const AckerSigns& one) {
  into.samples += one.samples;
  into.acks += one.acks;
  if (one.reaction_ns && (!into.reaction_ns || *one.reaction_ns < *into.reaction_ns)) into.reaction_ns = one.reaction_ns;
  if (one.skipped && (!into.skipped || one.first_skipped_frame < into.first_skipped_frame))
    into.first_skipped_frame = one.first_skipped_frame;
  into.skipped += one.skipped;
  into.datagrams += one.datagrams;
  into.gso += one.gso;
  into.offloaded += one.offloaded;
  if (one.routed) into.fewest_hops = into.routed ? std::min(into.fewest_hops, one.fewest_hops) : one.fewest_hops;
  into.with_ttl += one.with_ttl;
  into.routed += one.routed;
}

// Every datagram came through routers: the capture is not on its machine.
bool routed_sign(const AckerSigns& s) { return s.with_ttl && s.routed == s.with_ttl; }

// A sign that the capture is not where `s`'s endpoint sent or received.
bool elsewhere(const AckerSigns& s) { return s.skipped || routed_sign(s); }

// Offloaded checksums count only when all are: a sum that happens to match
// is one in 65536.
bool all_offloaded(const AckerSigns& s) { return s.datagrams && s.offloaded == s.datagrams; }

// Recorded on its sender's machine before leaving it.
bool sender_host_sign(const AckerSigns& s) { return s.gso || all_offloaded(s); }

// Routed, yet recorded on its machine: no real capture shows both (a card
// finishes the checksum before any router), so the signs cannot be trusted.
bool signs_disagree(const AckerSigns& s, bool one_host) { return routed_sign(s) && (one_host || sender_host_sign(s)); }

std::string plural(std::uint64_t n, std::string_view one) { return fmt::format("{} {}{}", n, one, n == 1 ? "" : "s"); }

std::string describe_signs(std::string_view who, const AckerSigns& s) {
  std::string text =
      !s.datagrams ? fmt::format("the {} sent nothing the capture saw", who)
      : !s.acks    ? fmt::format("no ACK of the {} could be read (without this connection's keys only Initial packets "
                                 "decrypt)",
                                 who)
      : !s.reaction_ns
          ? fmt::format("the {}'s ACKs acknowledged nothing the capture saw", who)
          : fmt::format("the {}'s fastest ACK came {} after the packet it acknowledged passed the capture", who,
                        ms(*s.reaction_ns));
  if (s.skipped)
    text += fmt::format("; the {} never acknowledged {} the capture saw (the first at frame {})", who,
                        plural(s.skipped, "packet"), s.first_skipped_frame);
  if (all_offloaded(s))
    text += fmt::format("; each of the {}'s {} carries a UDP checksum left for the network card to finish (offload)",
                        who, plural(s.datagrams, "datagram"));
  if (s.gso) text += fmt::format("; the {} sent {}", who, plural(s.gso, "GSO super-datagram"));
  if (routed_sign(s))
    text += fmt::format("; each of the {}'s {} passed at least {} before the capture (its TTL or Hop Limit lowered)", who,
                        plural(s.with_ttl, "datagram"), plural(s.fewest_hops, "router"));
  return text;
}

// Whether the capture is at `one`'s host, given its peer's signs.
bool at_host(const AckerSigns& one, const AckerSigns& peer, bool one_host) {
  if (elsewhere(one)) return false;
  if (one_host || sender_host_sign(one)) return true;
  if (!one.reaction_ns) return false;
  const std::int64_t r = *one.reaction_ns;
  return r <= kNearNs && (!peer.reaction_ns || *peer.reaction_ns <= kNearNs || r * 4 <= *peer.reaction_ns);
}

}  // namespace

void VantageSurvey::add(const dissect::Connection& c) {
  ++connections_;
  // One endpoint at a time: what a reader keeps of the packets it looks up
  // (megabytes on a long connection) is gone before the next begins, and a
  // single connection of a capture is held whole while it is surveyed.
  for (const Side acker : {Side::client, Side::server}) {
    AckReader reader(c, acker);
    AckerSigns signs;
    for (const auto& d : c.datagrams) reader.visit(d, quic_checks::sender_of(d) == acker, signs);
    reader.finish(signs);
    pool(acker == Side::client ? client_ : server_, signs);
  }
  for (const auto& d : c.datagrams) {
    if (many_hosts_) break;
    add_hosts(d.from, d.to);
  }
}

void VantageSurvey::merge(const VantageSurvey& other) {
  connections_ += other.connections_;
  tcp_segments_ += other.tcp_segments_;
  pool(client_, other.client_);
  pool(server_, other.server_);
  // One host throughout `other` (not many_hosts_) means each of its
  // datagrams went from and to its host_, the first as the last.
  if (other.many_hosts_ || (host_ && other.host_ && *host_ != *other.host_)) many_hosts_ = true;
  if (other.host_) host_ = other.host_;
}

void VantageSurvey::add_tcp_segment(std::uint32_t from, std::uint32_t to) {
  ++tcp_segments_;
  add_hosts(NetEndpoint{from, 0}, NetEndpoint{to, 0});
}

// Whether every datagram or segment so far went from and to one address.
void VantageSurvey::add_hosts(NetEndpoint from, NetEndpoint to) {
  from.port = to.port = 0;
  if (from != to || (host_ && *host_ != from)) many_hosts_ = true;
  host_ = from;
}

namespace {

std::string host_text(const NetEndpoint& host) {
  const std::string text = host.str();
  return text.substr(0, text.rfind(':'));
}

}  // namespace

VantageInference VantageSurvey::infer() const {
  VantageInference out;
  if (host_ && !many_hosts_) out.one_host = host_text(*host_);
  if (!connections_ && tcp_segments_ && out.one_host) {
    out.vantage = Vantage::both;
    out.reason = fmt::format("no QUIC connection; every TCP segment went between two ports of {}, so both endpoints "
                             "ran on the machine that recorded them",
                             *out.one_host);
    return out;
  }
  if (!connections_) {
    out.ambiguous = true;
    out.reason = "cannot tell: no QUIC connection to read it from (no TCP check needs it), so taken as on the path";
    return out;
  }
  out.client = client_;
  out.server = server_;
  const bool same = out.one_host.has_value();
  const bool client = at_host(out.client, out.server, same), server = at_host(out.server, out.client, same);
  // Only its ACKs show whether what the capture saw arriving reached an
  // endpoint (a host's socket buffer or the program itself can still drop
  // it): a side without an ACK to time or a gap leaves the answer open.
  auto settled = [](const AckerSigns& s) { return elsewhere(s) || s.reaction_ns; };
  const bool disagree = signs_disagree(out.client, same) || signs_disagree(out.server, same);
  out.ambiguous = disagree || !settled(out.client) || !settled(out.server);
  out.vantage = disagree         ? Vantage::path
                : client && server ? Vantage::both
                : client           ? Vantage::client
                : server           ? Vantage::server
                                   : Vantage::path;
  out.reason = describe_signs("client", out.client) + "; " + describe_signs("server", out.server);
  if (same)
    out.reason = fmt::format("every datagram went between two ports of {}, so both endpoints ran on the machine that "
                             "recorded them; ",
                             *out.one_host) +
                 out.reason;
  if (out.ambiguous) {
    out.reason = fmt::format("cannot tell, {}, so taken as {}: ", disagree ? "the signs disagree" : "too little to go on",
                             out.vantage == Vantage::path ? "on the path" : "at " + describe(out.vantage)) +
                 out.reason;
  } else if (out.vantage == Vantage::path && (!elsewhere(out.client) || !elsewhere(out.server))) {
    // A side slow to answer with no sign that the capture is elsewhere: a
    // capture between them, or an endpoint that takes that long to answer;
    // the capture cannot tell which.
    out.ambiguous = true;
    out.reason = "cannot tell a capture on the path from endpoints this slow to answer, so taken as on the path: " +
                 out.reason;
  } else if (out.vantage == Vantage::path) {
    out.reason += ": so on neither endpoint's receive side";
  } else {
    out.reason += fmt::format(": so at {}", describe(out.vantage));
  }
  return out;
}

VantageInference infer_vantage(const dissect::Timeline& timeline) {
  VantageSurvey survey;
  for (const auto& c : timeline.connections) survey.add(c);
  return survey.infer();
}

}  // namespace conform
