// What a capture not taken at a sender may have missed of what it sent:
// datagrams lost between the sender and the capture point never show, but
// QUIC packet numbers do not skip (RFC 9000 §12.3: each packet of a space
// takes the next number, a sender may skip but seldom does), so packets
// that follow on from the one before prove nothing went unseen between
// them. Checks that judge a sender by its silence (no probe, no backoff)
// need that proof from anywhere but the sender's own host.
#pragma once

#include "check/quic/support/timeline_queries.hpp"

#include <optional>
#include <string>

namespace conform::quic_checks {

/// Why `sender`'s packets in `space` in datagrams `from` (exclusive)
/// through `to` (inclusive) may not be all it sent then: "the client's
/// handshake packet 3 at frame 9 follows 1, not 2". nullopt when each
/// follows on from the one before it (the first from the last at or before
/// `from`, or from none: 0).
std::optional<std::string> packet_number_gap(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                             std::size_t from, std::size_t to);

/// `from` for first_unseen() and packet_number_gap() that looks from the
/// connection's first datagram on, a first packet not numbered 0 included.
inline constexpr std::size_t kFromTheStart = static_cast<std::size_t>(-1);

/// Where packet_number_gap() found the gap: the datagram of the packet
/// after it, and why.
struct UnseenGap {
  std::size_t datagram = 0;
  std::string why;
};
std::optional<UnseenGap> first_unseen(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                      std::size_t from, std::size_t to);

/// The datagram after `from` holding `sender`'s next packet in `space`, or nullopt.
std::optional<std::size_t> next_in_space(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                         std::size_t from);

/// Whether `receiver`'s own acknowledgements show that the peer's datagram
/// `datagram` never reached it: none of its packets is acknowledged by any
/// later ACK of `receiver`, and one of those ACKs passes over one of them
/// (acknowledges a higher packet number of its space without it). From a
/// capture not at `receiver`, a datagram lost after the capture point
/// (RFC 9000 §13.1: its packets stay unacknowledged) is otherwise taken as
/// received; a datagram no later ACK covers either way is not shown lost.
bool shown_not_received(const dissect::Connection& c, Side receiver, std::size_t datagram);

}  // namespace conform::quic_checks
