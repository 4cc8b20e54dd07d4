// The parts of a QUIC packet header readable before header protection is
// removed (RFC 9000 §17): form, version, connection IDs, token, Length, and
// where the packet number starts; and, for the long header, where the
// packet ends, which is how coalesced packets are split (§12.2).
#pragma once

#include "dissect/bytes.hpp"

#include <optional>
#include <string>

namespace conform::dissect {

inline constexpr std::uint32_t kQuicVersion1 = 0x00000001;

/// The packet types of QUIC v1 (RFC 9000 §17.2-17.3), plus Version
/// Negotiation (§17.2.1) and long-header packets of versions this dissector
/// does not know, whose remaining bytes it cannot interpret.
enum class PacketType : std::uint8_t {
  initial,
  zero_rtt,
  handshake,
  retry,
  version_negotiation,
  one_rtt,
  unknown_version,
};

/// The packet number space a packet type belongs to (RFC 9000 §12.3).
enum class PacketSpace : std::uint8_t { initial, handshake, application, none };

std::string_view to_string(PacketType type);
std::string_view to_string(PacketSpace space);
PacketSpace space_of(PacketType type);

struct ParsedHeader {
  PacketType type = PacketType::one_rtt;
  bool long_header = false;
  std::uint32_t version = 0;  // 0 for Version Negotiation; unset for short headers
  ConnectionId dcid;
  ConnectionId scid;             // long headers only
  std::span<const std::uint8_t> token;  // Initial: the Token; Retry: the Retry Token
  std::size_t pn_offset = 0;     // where the (protected) packet number starts
  std::size_t end = 0;           // bytes of this packet from the datagram position given
};

/// Parses the header of the packet at the start of `bytes` (the rest of a
/// datagram). A short header's DCID length is not on the wire: the caller
/// passes the length it learned from the handshake (`short_dcid_length`).
/// Returns nullopt with `why` set when the header is cut short or
/// inconsistent (a connection ID above 20 bytes in v1, a Length past the end
/// of the datagram, a packet too short to sample for header protection).
/// Version Negotiation, Retry, unknown versions and short headers extend to
/// the end of the datagram.
std::optional<ParsedHeader> parse_header(std::span<const std::uint8_t> bytes,
                                         std::size_t short_dcid_length, std::string& why);

/// The Supported Versions of a Version Negotiation packet (§17.2.1); the
/// caller passes the bytes after the SCID.
std::vector<std::uint32_t> supported_versions(std::span<const std::uint8_t> list);

}  // namespace conform::dissect
