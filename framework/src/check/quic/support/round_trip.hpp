// The round trip a suite states for a check to judge by: the check's
// `rtt_ms` parameter, else the case's network rtt_ms (the simulated path's
// round trip). Checks that need one and find none measure it from the
// capture or say so.
#pragma once

#include "check/check.hpp"
#include "dissect/connection_table.hpp"
#include "dissect/timeline.hpp"

#include <cstdint>
#include <optional>

#include <string>
#include <vector>

namespace conform::quic_checks {

/// A round trip stated by the suite.
struct StatedRoundTrip {
  double ms = 0;       ///< milliseconds; 0 when none is stated
  std::string source;  ///< "parameter rtt_ms" or "network rtt_ms"; empty when none
};

/// The check's `rtt_ms` parameter when positive, else the case's network
/// `rtt_ms` (integer or floating) when positive, else none.
StatedRoundTrip stated_round_trip(const CheckInput& input);

/// The handshake's round trip as any capture point sees it: each
/// endpoint's first ACK of a packet of its peer's that the capture saw
/// (Initial ACKs are sent at once, RFC 9000 §13.2.1) less that packet's
/// passing, added. Both endpoints' processing is in it, and where the
/// capture was taken is not (what one leg gains the other loses), so it
/// bounds the delay a capture not at an endpoint cannot see
/// (docs/offline.md, "Vantage"). Without an ACK of each: from the
/// client's first datagram to its first after the server's first reply
/// that does not carry the rest of its first flight. nullopt when neither
/// shows.
std::optional<std::int64_t> handshake_round_trip(const dissect::Connection& c);

/// An RTT sample of one sender as a capture shows it (RFC 9002 §5.1): the
/// arrival of a peer's ACK frame whose Largest Acknowledged is a packet of
/// the sender newly acknowledged in its space, less that packet's sending.
struct RttSample {
  std::size_t datagram = 0;  ///< the peer's datagram with the ACK frame
  std::int64_t ns = 0;
};

/// `sender`'s RTT samples, in capture order. At its own host they are its
/// own; elsewhere they are off by what the capture point cannot see.
std::vector<RttSample> rtt_samples(const dissect::Connection& c, dissect::Side sender);

}  // namespace conform::quic_checks
