#include "gate/vantage_inference.hpp"

#include "check/quic/support/quic_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace conform {
namespace {

using dissect::Side;
using quic_checks::ms;

struct Seen {
  std::int64_t time_ns;
  std::uint64_t frame;
};

// What one connection shows of `acker`'s ACKs of its peer's packets.
class AckReader {
 public:
  AckReader(const dissect::Connection& c, Side acker) : c_(c), acker_(acker) {
    const auto& params = acker == Side::client ? c.client_parameters : c.server_parameters;
    if (params && params->ack_delay_exponent) exponent_ = unsigned(std::min<std::uint64_t>(*params->ack_delay_exponent, 20));
  }

  void read(AckerSigns& signs) {
    for (const auto& d : c_.datagrams) {
      const bool from_acker = quic_checks::sender_of(d) == acker_;
      if (from_acker && d.gso) ++signs.gso;
      for (const auto& p : d.packets) {
        if (!p.decrypted() || p.space == dissect::PacketSpace::none) continue;
        const auto space = std::size_t(p.space);
        if (!from_acker) {
          seen_[space].emplace(*p.packet_number, Seen{d.time_ns, d.frame});
          continue;
        }
        for (const auto& f : p.frames)
          if (const auto* ack = std::get_if<dissect::AckFrame>(&f)) {
            ++signs.acks;
            read_ack(*ack, p.space, d.time_ns, signs);
          }
      }
    }
    for (const auto& space : skipped_)
      for (const auto& [pn, frame] : space) {
        if (signs.skipped++ == 0 || frame < signs.first_skipped_frame) signs.first_skipped_frame = frame;
      }
  }

 private:
  void read_ack(const dissect::AckFrame& ack, dissect::PacketSpace space, std::int64_t now, AckerSigns& signs) {
    const auto s = std::size_t(space);
    auto& seen = seen_[s];
    // Initial and Handshake ACKs are sent at once (§13.2.1); a 1-RTT ACK
    // says how long it was held.
    const std::int64_t held =
        space == dissect::PacketSpace::application ? std::int64_t(ack.ack_delay << exponent_) * 1000 : 0;
    if (auto it = seen.find(ack.largest); it != seen.end() && (!reacted_[s] || ack.largest > *reacted_[s])) {
      reacted_[s] = ack.largest;
      ++signs.samples;
      const std::int64_t reaction = std::max<std::int64_t>(0, now - it->second.time_ns - held);
      signs.reaction_ns = std::min(signs.reaction_ns.value_or(reaction), reaction);
    }
    std::vector<dissect::AckRange> ranges = ack.ranges;
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.smallest < b.smallest; });
    auto& skipped = skipped_[s];
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      for (auto it = skipped.lower_bound(ranges[k].smallest); it != skipped.end() && it->first <= ranges[k].largest;)
        it = skipped.erase(it);
      if (k + 1 == ranges.size()) break;
      // Between two acknowledged ranges: what the capture saw before this
      // ACK had not reached the acker.
      for (auto it = seen.upper_bound(ranges[k].largest); it != seen.end() && it->first < ranges[k + 1].smallest; ++it)
        if (it->second.time_ns < now) skipped.emplace(it->first, it->second.frame);
    }
  }

  const dissect::Connection& c_;
  Side acker_;
  unsigned exponent_ = 3;  // §18.2's default
  std::array<std::map<std::uint64_t, Seen>, 3> seen_;
  std::array<std::optional<std::uint64_t>, 3> reacted_;
  std::array<std::map<std::uint64_t, std::uint64_t>, 3> skipped_;  // packet number -> frame
};

void pool(AckerSigns& into, const AckerSigns& one) {
  into.samples += one.samples;
  into.acks += one.acks;
  if (one.reaction_ns) into.reaction_ns = std::min(into.reaction_ns.value_or(*one.reaction_ns), *one.reaction_ns);
  if (one.skipped && (!into.skipped || one.first_skipped_frame < into.first_skipped_frame))
    into.first_skipped_frame = one.first_skipped_frame;
  into.skipped += one.skipped;
  into.gso += one.gso;
}

std::string describe_signs(std::string_view who, const AckerSigns& s) {
  if (!s.acks) return fmt::format("no ACK of the {} could be read (without a key log only Initial packets decrypt)", who);
  if (!s.reaction_ns) return fmt::format("the {}'s ACKs acknowledged nothing the capture saw", who);
  std::string text = fmt::format("the {}'s fastest ACK came {} after the packet it acknowledged passed the capture", who,
                                 ms(*s.reaction_ns));
  if (s.skipped)
    text += fmt::format("; the {} never acknowledged {} packet{} the capture saw (the first at frame {})", who,
                        s.skipped, s.skipped == 1 ? "" : "s", s.first_skipped_frame);
  if (s.gso) text += fmt::format("; the {} sent {} GSO super-datagram{}", who, s.gso, s.gso == 1 ? "" : "s");
  return text;
}

// Whether the capture is at `one`'s host, given its peer's signs.
bool at_host(const AckerSigns& one, const AckerSigns& peer) {
  if (!one.reaction_ns || one.skipped) return false;
  const std::int64_t r = *one.reaction_ns;
  return r <= kNearNs && (!peer.reaction_ns || *peer.reaction_ns <= kNearNs || r * 4 <= *peer.reaction_ns);
}

}  // namespace

VantageInference infer_vantage(const dissect::Timeline& timeline) {
  VantageInference out;
  if (timeline.connections.empty()) {
    out.ambiguous = true;
    out.reason = "cannot tell: no QUIC connection to read it from (no TCP check needs it), so taken as on the path";
    return out;
  }
  for (const auto& c : timeline.connections)
    for (Side acker : {Side::client, Side::server}) {
      AckerSigns one;
      AckReader(c, acker).read(one);
      pool(acker == Side::client ? out.client : out.server, one);
    }
  const bool client = at_host(out.client, out.server), server = at_host(out.server, out.client);
  out.ambiguous = !out.client.reaction_ns || !out.server.reaction_ns;
  out.vantage = out.ambiguous      ? Vantage::path
                : client && server ? Vantage::both
                : client           ? Vantage::client
                : server           ? Vantage::server
                                   : Vantage::path;
  out.reason = describe_signs("client", out.client) + "; " + describe_signs("server", out.server);
  if (out.ambiguous) {
    out.reason = "cannot tell, too little to go on, so taken as on the path: " + out.reason;
  } else if (out.vantage == Vantage::path && !out.client.skipped && !out.server.skipped) {
    // Both slow alike: a capture between them, or endpoints that take that
    // long to answer; the capture cannot tell which.
    out.ambiguous = true;
    out.reason = "cannot tell a capture on the path from endpoints this slow to answer, so taken as on the path: " +
                 out.reason;
  } else if (out.vantage == Vantage::path) {
    out.reason += ": so on neither endpoint's host";
  } else {
    out.reason += fmt::format(": so at {}", describe(out.vantage));
  }
  return out;
}

}  // namespace conform
