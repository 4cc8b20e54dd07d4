// QUIC packet headers, RFC 9000 §17: long headers (Initial, 0-RTT, Handshake,
// Retry, Version Negotiation) and the short 1-RTT header. Parsing reads only
// the unprotected fields; the first byte's low bits and the packet number
// stay masked until header protection is removed (RFC 9001 §5.4).
#pragma once

#include <cstdint>
#include <optional>

#include "codec/buffer.hpp"
#include "codec/connection_id.hpp"

namespace conform::quic {

inline constexpr uint32_t kVersion1 = 0x00000001;

enum class PacketType : uint8_t { initial, zero_rtt, handshake, retry, one_rtt, version_negotiation };

struct PacketHeader {
  PacketType type = PacketType::one_rtt;
  uint32_t version = 0;
  ConnectionId dcid;
  ConnectionId scid;
  ByteView token;       ///< Initial: the token; Retry: the retry token.
  ByteView versions;    ///< Version Negotiation: the supported versions, 4 bytes each.
  size_t pn_offset = 0; ///< Offset of the protected packet number in the packet.
  size_t length = 0;    ///< Bytes of this packet within the datagram (header + payload).
};

/// Parses the packet at the start of `data` (the rest of a datagram). Short
/// headers carry no DCID length, so the receiver passes the length of the
/// connection IDs it issued. Returns nullopt for anything malformed or
/// truncated: such a packet is dropped (RFC 9000 §12.2), never fatal.
std::optional<PacketHeader> parse_packet_header(ByteView data, size_t short_dcid_len);

/// What a sender puts in a header. `pn_len` is 1..4 (see packet_number.hpp).
struct HeaderSpec {
  PacketType type = PacketType::one_rtt;
  uint32_t version = kVersion1;
  ConnectionId dcid;
  ConnectionId scid;
  ByteView token;
  uint64_t pn = 0;
  size_t pn_len = 4;
  bool key_phase = false;
};

/// Appends an unprotected header to `out`; long headers get a 2-byte Length
/// placeholder right before the packet number, filled by set_long_length.
/// Returns the offset of the packet number within `out`.
size_t write_packet_header(Bytes& out, const HeaderSpec& spec);

/// Fills the Length field of a long header (RFC 9000 §17.2): the bytes after
/// it, i.e. packet number + payload + AEAD tag. Length < 16384.
void set_long_length(Bytes& out, size_t pn_offset, size_t length);

/// A Version Negotiation packet (RFC 9000 §17.2.1) answering a client
/// datagram: the CIDs are the client's, swapped.
Bytes write_version_negotiation(const ConnectionId& dcid, const ConnectionId& scid,
                                std::span<const uint32_t> versions, uint8_t unused_bits);

}  // namespace conform::quic
