#include "check/quic/support/shown_early.hpp"

#include <algorithm>
#include <deque>
#include <map>

namespace conform::quic_checks {
namespace {

using dissect::PacketSpace;
using dissect::RangeSet;

bool acknowledged(const std::array<RangeSet, 3>& acked, const dissect::Packet& p) {
  return p.decrypted() && p.packet_number && p.space != PacketSpace::none &&
         acked[std::size_t(p.space)].contains(*p.packet_number);
}

bool needs_keys(const dissect::Packet& p) {
  return p.decrypted() && p.packet_number &&
         (p.space == PacketSpace::handshake || p.type == dissect::PacketType::one_rtt);
}

}  // namespace

bool shown_received(const dissect::Datagram& d, const std::array<RangeSet, 3>& acked, PacketSpace space,
                    std::uint64_t pn) {
  return std::any_of(d.packets.begin(), d.packets.end(), [&](const dissect::Packet& p) {
    return acknowledged(acked, p) && !(p.space == space && *p.packet_number == pn);
  });
}

std::vector<Early> shown_early(const dissect::Connection& c, Side receiver, std::uint64_t initial_end,
                               std::uint64_t handshake_end) {
  const Side peer = dissect::other(receiver);
  const std::array<std::uint64_t, 2> end{initial_end, handshake_end};
  // The CRYPTO the peer's packets carried, by space (Initial, Handshake)
  // and packet number.
  std::array<std::map<std::uint64_t, RangeSet>, 2> crypto_of;
  for (const auto& d : c.datagrams)
    if (sender_of(d) == peer)
      for (const auto& p : d.packets)
        if (p.decrypted() && p.packet_number && (p.space == PacketSpace::initial || p.space == PacketSpace::handshake))
          for (const auto& f : p.frames)
            if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f))
              crypto_of[std::size_t(p.space)][*p.packet_number].add(cf->offset, cf->offset + cf->length);
  std::array<RangeSet, 3> acked;
  std::array<RangeSet, 2> held;  // the CRYPTO of the packets the receiver acknowledged
  // After each of the receiver's datagrams with an ACK frame of the space:
  // its index and what the receiver had acknowledged of the CRYPTO then.
  std::array<std::vector<std::pair<std::size_t, RangeSet>>, 2> held_at;
  // A packet that needs the CRYPTO of `space` (the keys), in a datagram
  // first shown received by the receiver's datagram `shown`; `with` is the
  // CRYPTO of that space the packets before it in its datagram carried.
  struct Candidate {
    Early early;
    std::size_t space = 0;
    std::size_t shown = 0;
    RangeSet with;
  };
  std::vector<Candidate> candidates;
  std::deque<std::size_t> pending;  // the peer's datagrams with packets that need keys, in order
  const auto keyed = [&] { return held[0].prefix() >= end[0] && held[1].prefix() >= end[1]; };
  for (std::size_t i = 0; i < c.datagrams.size() && !keyed(); ++i) {
    const auto& d = c.datagrams[i];
    if (sender_of(d) == peer) {
      if (std::any_of(d.packets.begin(), d.packets.end(), needs_keys)) pending.push_back(i);
      continue;
    }
    std::array<bool, 2> acks{};
    for (const auto& p : d.packets) {
      if (!p.decrypted() || p.space == PacketSpace::none) continue;
      const auto s = std::size_t(p.space);
      for (const auto& f : p.frames)
        if (const auto* ack = std::get_if<dissect::AckFrame>(&f))
          for (const auto& r : ack->ranges) {
            acked[s].add(r.smallest, r.largest + 1);
            if (s >= 2) continue;
            acks[s] = true;
            for (auto it = crypto_of[s].lower_bound(r.smallest); it != crypto_of[s].end() && it->first <= r.largest; ++it)
              held[s].add(it->second);
          }
    }
    for (std::size_t s : {0, 1})
      if (acks[s]) held_at[s].emplace_back(i, held[s]);
    // Oldest first; one not yet shown received holds the rest back, which
    // only makes them judged later, with more CRYPTO held: never early
    // where they were not.
    while (!pending.empty()) {
      const auto& e = c.datagrams[pending.front()];
      if (!std::any_of(e.packets.begin(), e.packets.end(), [&](const dissect::Packet& p) { return acknowledged(acked, p); }))
        break;
      std::array<RangeSet, 2> with;
      for (const auto& p : e.packets) {
        if (needs_keys(p)) {
          const std::size_t s = p.space == PacketSpace::handshake ? 0 : 1;
          candidates.push_back({{At{e.frame, e.time_ns, pending.front()}, p.space, p.type, *p.packet_number}, s, i, with[s]});
        }
        if (p.decrypted() && (p.space == PacketSpace::initial || p.space == PacketSpace::handshake))
          for (const auto& f : p.frames)
            if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f))
              with[std::size_t(p.space)].add(cf->offset, cf->offset + cf->length);
      }
      pending.pop_front();
    }
  }
  // Early: the receiver's first ACK frame of the keys' space sent once the
  // datagram had arrived still lacked some of that CRYPTO, and a later one
  // has it all: what it lacked arrived after the datagram. A receiver that
  // never acknowledges the packets holding it (keys discarded once the
  // handshake is done) shows nothing.
  std::vector<Early> out;
  const auto complete = [&](const RangeSet& held_then, const Candidate& k) {
    RangeSet all = held_then;
    all.add(k.with);
    return all.prefix() >= end[k.space];
  };
  for (const Candidate& k : candidates) {
    const auto& history = held_at[k.space];
    auto then = std::lower_bound(history.begin(), history.end(), k.shown,
                                 [](const auto& h, std::size_t i) { return h.first < i; });
    if (then == history.end() || complete(then->second, k)) continue;
    if (std::any_of(std::next(then), history.end(), [&](const auto& h) { return complete(h.second, k); }))
      out.push_back(k.early);
  }
  return out;
}

}  // namespace conform::quic_checks
