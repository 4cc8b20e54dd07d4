// One endpoint's handshake flights as its own capture shows them (RFC 9001
// §4, RFC 9002 §6.2): per datagram it sent, the CRYPTO bytes it carried in
// the Initial and Handshake packet number spaces, whether they were new or
// re-sent, which CRYPTO bytes were still unacknowledged when it left (from
// the peer's ACK frames that had arrived), and whether it held ack-eliciting
// packets without CRYPTO; plus the arrivals of ACK frames that newly
// acknowledged one of its packets. The recovery checks judge probes from it.
#pragma once

#include "check/quic/support/timeline_queries.hpp"
#include "dissect/range_set.hpp"

#include <array>
#include <vector>

namespace conform::quic_checks {

using dissect::RangeSet;

/// Index of the Initial and Handshake spaces in the arrays below.
inline constexpr std::size_t kInitial = 0, kHandshake = 1;
/// Datagrams an endpoint sent within 1 ms of each other are one burst: the
/// probes of one PTO expiry, however many datagrams carry them.
inline constexpr std::int64_t kProbeBurstNs = 1'000'000;
/// Grace after a datagram reached an endpoint: what it sent meanwhile was
/// built before it could read it.
inline constexpr std::int64_t kReadNs = 1'000'000;
/// "Initial" / "Handshake".
std::string_view space_name(std::size_t space);

struct FlightDatagram {
  At at;
  std::size_t size = 0;  // UDP payload bytes
  std::size_t used = 0;  // bytes of its packets that are not PADDING
  /// Of `used`, bytes of packets that could not be decrypted: they may be
  /// PADDING or not, the capture cannot tell.
  std::size_t unread = 0;
  /// Bytes after its packets that cannot start one (dissect::Datagram::padding_after).
  std::size_t padding_after = 0;
  std::array<RangeSet, 2> crypto;           // CRYPTO offsets carried, by space
  std::array<bool, 2> resent{};             // some were sent before
  std::array<bool, 2> fresh{};              // some were never sent before
  /// Every byte it re-sent was owed by a packet sent before one the peer
  /// had acknowledged by then, unacknowledged and not yet re-sent by an
  /// earlier repair: loss detection's repair (RFC 9002 §6.1 declares only
  /// such packets lost), not a probe.
  std::array<bool, 2> repairs_loss{};
  std::array<RangeSet, 2> unacked;          // sent before it, unacknowledged when it left
  std::array<bool, 2> eliciting_without_crypto{};  // an ack-eliciting packet of the space with no CRYPTO
  /// Bytes a packet of the space adds besides its data (header, AEAD tag,
  /// a CRYPTO frame header), from the sender's latest packet of that space;
  /// 0 until it sent one.
  std::array<std::size_t, 2> overhead{};
  bool ack_eliciting = false;
  bool one_rtt_eliciting = false;  // an ack-eliciting 1-RTT or 0-RTT packet
  bool handshake_eliciting() const { return ack_eliciting && !one_rtt_eliciting; }
};

/// The arrival of a datagram of the peer's ACK frames that newly
/// acknowledged packets of the sender: RFC 9002 §6.2.1's reset of the PTO
/// backoff, but not at a client for ACKs in Initial packets.
struct NewAck {
  At at;
  /// Every packet it newly acknowledged was an Initial packet.
  bool initial_only = false;
  /// After it, no ack-eliciting Initial packet of the sender was left
  /// unacknowledged: nothing for loss detection to re-send.
  bool initial_all_acked = false;
  /// Some packet it newly acknowledged was an Initial or Handshake packet:
  /// news for the handshake's loss recovery (RFC 9002 §6.1 works space by
  /// space, so a 1-RTT acknowledgement declares none of theirs lost).
  bool handshake_spaces = false;
};

/// The arrival of a datagram of the peer whose ACK frames newly
/// acknowledged CRYPTO bytes of one space: which ones.
struct CryptoAck {
  At at;
  RangeSet bytes;
};

struct Flights {
  /// Every datagram the sender sent, in order, through its first datagram
  /// after its last Initial or Handshake packet (the handshake's flights;
  /// what follows carries none of their CRYPTO). The ACKs below stop there
  /// too.
  std::vector<FlightDatagram> datagrams;
  std::vector<NewAck> new_acks;
  /// By space, in order of arrival.
  std::array<std::vector<CryptoAck>, 2> crypto_acks;
};

/// Worked out once per connection and side (ConnectionFacts::flights_memo),
/// however many checks ask; each connection's checks run on one thread.
const Flights& crypto_flights(const ConnectionFacts& c, Side sender);

/// The dissector's (dissect/frames.hpp, dissect/timeline.hpp).
using dissect::ack_eliciting;

}  // namespace conform::quic_checks
