// Following CRYPTO data and its acknowledgements at the sender.
#include "check/quic/support/crypto_flights.hpp"

#include "check/quic/support/retry.hpp"

#include <mutex>
#include <optional>

#include <algorithm>
#include <map>
#include <set>

namespace conform::quic_checks {
namespace {

// A CRYPTO frame's header: type (1), Offset (up to 4 in a handshake),
// Length (2).
constexpr std::size_t kCryptoFrameHeader = 7;

struct SentPacket {
  RangeSet crypto;
  bool eliciting = false;
};

struct SpaceState {
  std::map<std::uint64_t, SentPacket> unacked;  // by packet number
  RangeSet sent;
  RangeSet acked;
  std::optional<std::uint64_t> largest_acked;

  // Whether re-sending `bytes` repairs a loss: every byte unacknowledged
  // and still owed by a packet that loss detection may have declared lost
  // (sent before the largest acknowledged one). A copy still in flight does
  // not matter: a stack re-sends what a lost packet held, once, in as many
  // packets as it takes; a later re-sending of the same bytes is a probe's,
  // unless a later ACK shows the repair lost too.
  bool repair(const RangeSet& bytes) {
    if (!largest_acked || bytes.empty() || acked.overlaps(bytes)) return false;
    RangeSet lost;
    for (const auto& [pn, p] : unacked) {
      if (pn >= *largest_acked) break;
      lost.add(owed.try_emplace(pn, p.crypto).first->second);
    }
    if (!lost.covers(bytes)) return false;
    for (auto& [pn, o] : owed) o = o.minus(bytes);
    return true;
  }
  // Of the packets declared lost, the bytes not yet re-sent by a repair.
  std::map<std::uint64_t, RangeSet> owed;
};

int space_index(dissect::PacketSpace s) {
  switch (s) {
    case dissect::PacketSpace::initial: return 0;
    case dissect::PacketSpace::handshake: return 1;
    case dissect::PacketSpace::application: return 2;
    default: return -1;
  }
}

}  // namespace

std::string_view space_name(std::size_t space) { return space == kInitial ? "Initial" : "Handshake"; }

namespace {

// One past the sender's first datagram after its last one holding an
// Initial or Handshake packet; with none of those, one past its first
// datagram. The whole connection when no datagram of the sender follows.
std::size_t handshake_flights_end(const std::vector<dissect::Datagram>& datagrams, Side sender) {
  const auto handshake = [](const dissect::Packet& p) {
    return p.space == dissect::PacketSpace::initial || p.space == dissect::PacketSpace::handshake;
  };
  std::optional<std::size_t> last;
  for (std::size_t i = datagrams.size(); i-- > 0 && !last;)
    if (sender_of(datagrams[i]) == sender && std::any_of(datagrams[i].packets.begin(), datagrams[i].packets.end(), handshake))
      last = i;
  for (std::size_t i = last ? *last + 1 : 0; i < datagrams.size(); ++i)
    if (sender_of(datagrams[i]) == sender) return i + 1;
  return datagrams.size();
}

Flights work_out_flights(const ConnectionFacts& c, Side sender) {
  Flights out;
  std::array<SpaceState, 3> spaces;
  std::array<std::size_t, 2> overhead{};
  const auto& datagrams = c.connection->datagrams;
  // Through the sender's first datagram after its last Initial or
  // Handshake packet: after that there is no CRYPTO of these spaces to
  // follow, and the entries of a long connection's other datagrams would be
  // held as long as it is, for nothing (pto_backoff ends its chain at that
  // first datagram of 1-RTT packets alone).
  const std::size_t end = handshake_flights_end(datagrams, sender);
  out.datagrams.reserve(std::size_t(std::count_if(datagrams.begin(), datagrams.begin() + std::ptrdiff_t(end),
                                                  [&](const dissect::Datagram& d) { return sender_of(d) == sender; })));
  // A client's Initial space starts again with its first Initial that
  // carries the Retry's token (RFC 9002 §6.3): that ClientHello is new data,
  // not a re-sending, and nothing before it is owed.
  // An Initial without the token seen after that was sent before the Retry
  // and reached the capture point late: it belongs to the space discarded.
  const std::optional<dissect::Bytes> retry = sender == Side::client ? retry_token(*c.connection) : std::nullopt;
  bool restarted = false;
  for (std::size_t i = 0; i < end; ++i) {
    const auto& d = datagrams[i];
    const At at{d.frame, d.time_ns, i};
    if (sender_of(d) == sender && !restarted && answers_retry(d, retry)) {
      spaces[kInitial] = {};
      restarted = true;
    }
    const bool discarded = restarted && sender_of(d) == sender && discarded_by_retry(d, retry);
    if (sender_of(d) != sender) {
      // The peer's ACK frames, as they arrived.
      bool newly = false, beyond_initial = false, handshake_spaces = false;
      std::array<RangeSet, 2> crypto_acked;
      for (const auto& p : d.packets) {
        const int s = space_index(p.space);
        if (s < 0 || !p.decrypted()) continue;
        for (const auto& f : p.frames)
          if (const auto* ack = std::get_if<dissect::AckFrame>(&f))
            for (const auto& r : ack->ranges) {
              auto& st = spaces[s];
              st.largest_acked = std::max(st.largest_acked.value_or(0), r.largest);
              for (auto it = st.unacked.lower_bound(r.smallest); it != st.unacked.end() && it->first <= r.largest;) {
                st.owed.erase(it->first);
                st.acked.add(it->second.crypto);
                if (s < 2) crypto_acked[s].add(it->second.crypto);
                it = st.unacked.erase(it);
                newly = true;
                beyond_initial = beyond_initial || s != static_cast<int>(kInitial);
                handshake_spaces = handshake_spaces || s < 2;
              }
            }
      }
      if (newly) {
        const auto& initial = spaces[kInitial].unacked;
        const bool all = std::none_of(initial.begin(), initial.end(), [](const auto& e) { return e.second.eliciting; });
        out.new_acks.push_back({at, !beyond_initial, all, handshake_spaces});
      }
      for (std::size_t s : {kInitial, kHandshake})
        if (!crypto_acked[s].empty()) out.crypto_acks[s].push_back({at, std::move(crypto_acked[s])});
      continue;
    }
    FlightDatagram fd;
    fd.at = at;
    fd.size = d.size;
    fd.padding_after = d.padding_after;
    for (std::size_t s : {kInitial, kHandshake}) fd.unacked[s] = spaces[s].sent.minus(spaces[s].acked);
    for (const auto& p : d.packets) {
      std::size_t padding = 0;
      const int s = space_index(p.space);
      bool eliciting = false, has_crypto = false;
      SentPacket sent;
      for (const auto& f : p.frames) {
        if (const auto* pad = std::get_if<dissect::PaddingFrame>(&f)) padding += pad->count;
        if (ack_eliciting(f)) eliciting = true;
        if (const auto* cf = std::get_if<dissect::CryptoFrame>(&f)) {
          has_crypto = true;
          sent.crypto.add(cf->offset, cf->offset + cf->length);
        }
      }
      fd.used += p.length - std::min(padding, p.length);
      if (p.undecryptable) fd.unread += p.length;
      fd.ack_eliciting = fd.ack_eliciting || eliciting;
      if (s == 2 && eliciting) fd.one_rtt_eliciting = true;
      if (s < 0 || (discarded && s == static_cast<int>(kInitial))) continue;
      if (s < 2) {
        overhead[s] = p.length - std::min(p.payload_length, p.length) + kCryptoFrameHeader;
        if (eliciting && !has_crypto) fd.eliciting_without_crypto[s] = true;
        if (has_crypto) {
          if (spaces[s].sent.overlaps(sent.crypto)) {
            // A second packet of the space in the datagram re-sending
            // bytes is a repair only if the first one was.
            const bool repair = spaces[s].repair(sent.crypto.intersect(spaces[s].sent));
            fd.repairs_loss[s] = (fd.resent[s] ? fd.repairs_loss[s] : true) && repair;
            fd.resent[s] = true;
          }
          if (!spaces[s].sent.covers(sent.crypto)) fd.fresh[s] = true;
          fd.crypto[s].add(sent.crypto);
        }
      }
      if (p.packet_number) {
        spaces[s].sent.add(sent.crypto);
        sent.eliciting = eliciting;
        spaces[s].unacked[*p.packet_number] = std::move(sent);
      }
    }
    fd.overhead = overhead;
    out.datagrams.push_back(std::move(fd));
  }
  return out;
}

}  // namespace

struct FlightsMemo {
  std::array<std::once_flag, 2> once;
  std::array<Flights, 2> flights;
};

std::shared_ptr<FlightsMemo> new_flights_memo() { return std::make_shared<FlightsMemo>(); }

const Flights& crypto_flights(const ConnectionFacts& c, Side sender) {
  FlightsMemo& memo = *c.flights_memo;
  const auto i = static_cast<std::size_t>(sender);
  std::call_once(memo.once[i], [&] { memo.flights[i] = work_out_flights(c, sender); });
  return memo.flights[i];
}

}  // namespace conform::quic_checks
