// The round trip a suite states for a check to judge by: the check's
// `rtt_ms` parameter, else the case's network rtt_ms (the simulated path's
// round trip). Checks that need one and find none measure it from the
// capture or say so.
#pragma once

#include "check/check.hpp"

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

}  // namespace conform::quic_checks
