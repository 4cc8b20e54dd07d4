// What a receiver's own ACK frames show of packets that reached it before
// their keys, from a capture not taken at the receiver (RFC 9001 §5.7).
// There the capture order is not the arrival order: the network may reorder
// a datagram past the capture point, so a Handshake packet seen after the
// Initial CRYPTO that keys it may still have overtaken that CRYPTO. The
// receiver's ACKs tell: the first ACK covering a packet of a datagram shows
// that the datagram had arrived (UDP delivers it whole). If the receiver's
// first ACK frame of the keys' space sent from then on still lacks some of
// the CRYPTO the packet needs (besides what packets before it in its own
// datagram carried), and a later one has it all, that CRYPTO arrived after
// the packet: it was early. A receiver that never acknowledges the CRYPTO
// (keys discarded once the handshake is done) shows nothing.
#pragma once

#include "check/quic/support/timeline_queries.hpp"
#include "dissect/range_set.hpp"

#include <array>
#include <vector>

namespace conform::quic_checks {

/// A packet of the peer that reached the receiver before its keys.
struct Early {
  At at;
  dissect::PacketSpace space;
  dissect::PacketType type;
  std::uint64_t pn = 0;
};

/// The peer's packets that `receiver`'s ACKs show reached it before their
/// keys: Handshake packets before the peer's Initial CRYPTO up to
/// `initial_end`, 1-RTT packets before its Handshake CRYPTO up to
/// `handshake_end`. Sound, not complete: a datagram is looked at when the
/// receiver first acknowledges one of its packets in order of capture, and
/// one whose packets are never acknowledged tells nothing; nor does CRYPTO
/// the receiver never acknowledges.
std::vector<Early> shown_early(const dissect::Connection& c, Side receiver, std::uint64_t initial_end,
                               std::uint64_t handshake_end);

/// Whether a packet of the peer's datagram `datagram` other than packet
/// number `pn` of `space` is in `acked` (the packet numbers the receiver
/// acknowledged, by space): the datagram reached the receiver.
bool shown_received(const dissect::Datagram& d, const std::array<dissect::RangeSet, 3>& acked,
                    dissect::PacketSpace space, std::uint64_t pn);

}  // namespace conform::quic_checks
