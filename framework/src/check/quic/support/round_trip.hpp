// The round trip a suite states for a check to judge by: the check's
// `rtt_ms` parameter, else the case's network rtt_ms (the simulated path's
// round trip). Checks that need one and find none measure it from the
// capture or say so.
#pragma once

#include "check/check.hpp"
#include "dissect/timeline.hpp"

#include <cstdint>
#include <optional>

#include <string>

namespace conform::quic_checks {

/// A round trip stated by the suite.
struct StatedRoundTrip {
  double ms = 0;       ///< milliseconds; 0 when none is stated
  std::string source;  ///< "parameter rtt_ms" or "network rtt_ms"; empty when none
};

/// The check's `rtt_ms` parameter when positive, else the case's network
/// `rtt_ms` (integer or floating) when positive, else none.
StatedRoundTrip stated_round_trip(const CheckInput& input);

/// The handshake's round trip as any capture point sees it: from the
/// client's first datagram to its first datagram after the server's first
/// reply. Both endpoints' processing is in it, and where the capture was
/// taken is not (what one leg gains the other loses), so it bounds the
/// delay a capture not at an endpoint cannot see (docs/offline.md,
/// "Vantage"). nullopt before the client answers the server.
std::optional<std::int64_t> handshake_round_trip(const dissect::Connection& c);

}  // namespace conform::quic_checks
