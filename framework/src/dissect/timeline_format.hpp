// The timeline as `conform dissect` prints it: one line a datagram for a
// person, or one JSON document for tools.
#pragma once

#include "dissect/timeline.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>

namespace conform::dissect {

/// A line on the capture (when given: link type, records, what was not UDP),
/// then per connection a heading line, then one line a datagram:
///   `#3 0.000512 S>C 1200 B | Initial pn=1: ACK 0 delay=0, CRYPTO off=0 len=90 | Handshake pn=0: ...`
/// Times are seconds from the first datagram of the capture. Datagrams
/// that belong to no connection follow, with the reason.
void print_timeline(std::ostream& out, const Timeline& timeline, const CaptureSummary* capture = nullptr);

/// The timeline as JSON: {"connections": [{..., "datagrams": [{"frame", "time_ns",
/// "direction", "size", "packets": [{..., "frames": [...]}]}]}], "unattributed": [...]}.
/// Times are nanoseconds as captured.
void print_timeline_json(std::ostream& out, const Timeline& timeline,
                         const CaptureSummary* capture = nullptr);

/// Every transport parameter sent, by its RFC 9000 §18.2 name (integers as
/// sent, byte strings in hex, unnamed ones as "0x<id>"); null when absent.
nlohmann::json parameters_json(const std::optional<TransportParameters>& parameters);

/// "127.0.0.1:4433".
std::string endpoint_text(NetEndpoint e);

}  // namespace conform::dissect
