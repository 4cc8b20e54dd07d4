// The series the HTML report plots for a TCP case: each side's advertised
// receive window over time (RFC 9293 §3.8.6, scaled per RFC 7323 §2.3) and
// the duration of each request/response transfer, from the flow analysis of
// the capture (dissect/tcp).
#pragma once

#include "dissect/tcp/flow.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>

namespace conform::report {

/// Window points kept per side: a long transfer advertises a window in every
/// segment, far more than a plot can show.
inline constexpr std::size_t kMaxWindowPoints = 2000;

/// {"flow": name, "t0_ns", "windows": {"initiator": [[ms, bytes], ...],
/// "responder": [...]}, "transfers": [{"index", "ms", "request_bytes",
/// "response_bytes", "first_frame", "answered", "longest_gap_ms"}]}. Times
/// are ms since the flow's first segment. Above kMaxWindowPoints a side's
/// windows are thinned to each bucket's lowest and highest value, so a
/// window that fell to zero still shows.
nlohmann::json tcp_series(const tcp::Flow& flow);

}  // namespace conform::report
