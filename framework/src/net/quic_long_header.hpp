// Which QUIC long-header packet types a UDP datagram carries (RFC 9000
// §17.2; RFC 9369 §3.2 for version 2), read from the parts that header
// protection leaves in the clear (RFC 9001 §5.4.1: it masks only the low four
// bits of the first byte and the packet number). Lets a case say "drop the
// server's first Initial" without keys.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace conform {

/// Long-header packet types, named as in QUIC version 1.
enum class LongType : std::uint8_t { initial = 0, zero_rtt = 1, handshake = 2, retry = 3 };

/// "initial", "0rtt", "handshake", "retry".
const char* to_string(LongType t);
/// The inverse of to_string.
std::optional<LongType> long_type_from_string(std::string_view s);

/// Bit `1 << LongType` set for each type among the datagram's coalesced
/// long-header packets (RFC 9000 §12.2), walking their Length fields; stops
/// at a short-header packet, a Version Negotiation packet, a Retry, an
/// unknown version or a truncated header. 0 when none.
std::uint8_t long_header_types(std::span<const std::uint8_t> datagram);

/// long_header_types, and whether a short-header (1-RTT) packet follows the
/// long-header ones (or is the datagram's only packet).
struct DatagramHeaders {
  std::uint8_t long_types = 0;
  bool short_header = false;
};
DatagramHeaders datagram_headers(std::span<const std::uint8_t> datagram);

}  // namespace conform
