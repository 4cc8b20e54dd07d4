// TCP flow analysis of a capture: segments grouped into connections, each
// direction's windows scaled as the handshake agreed (RFC 7323 §2.2-2.3),
// zero windows and probes (RFC 9293 §3.8.6.1), retransmissions and
// out-of-order data, and request/response transfers with their timing.
// Everything comes from the capture alone, so it judges any TCP stack.
#pragma once

#include "capture/tcp_segment_reader.hpp"
#include "dissect/tcp/flow.hpp"

#include <vector>

namespace conform::tcp {

/// The connections among `segments` (in capture order), ordered by their
/// first segment. A SYN without ACK on a 4-tuple whose connection already
/// ended (FIN or RST seen) or that carries another initial sequence number
/// starts a new connection. Never throws on odd input: a capture that starts
/// mid-connection gives a flow without handshake, read unscaled.
std::vector<Flow> analyze_tcp(const std::vector<TcpSegment>& segments);

}  // namespace conform::tcp
