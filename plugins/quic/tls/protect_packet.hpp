// Protecting and unprotecting whole packets, RFC 9001 §5.3-§5.4: AEAD over
// the payload with the header as associated data, then header protection
// over the first byte's low bits and the packet number, sampled 4 bytes
// after the packet number starts (as if it were 4 bytes long).
#pragma once

#include <optional>

#include "tls/packet_keys.hpp"

namespace conform::quic {

/// Protects the packet at `buf[start..]`: the unprotected header (packet
/// number at `pn_offset`, `pn_len` bytes, both absolute in `buf`), followed by
/// the plaintext payload up to the end of `buf`. Appends the AEAD tag and
/// masks the header. The caller padded so that pn_len + payload >= 4, which
/// the sample needs (§5.4.2). Returns false if BoringSSL fails.
bool protect_packet(Bytes& buf, size_t start, size_t pn_offset, size_t pn_len, uint64_t pn,
                    const PacketKeys& keys);

struct OpenedPacket {
  uint64_t pn = 0;
  size_t pn_len = 0;
  uint8_t first_byte = 0;  ///< Unmasked: reserved bits, key phase, pn length.
  ByteView payload;        ///< Decrypted in place, inside the caller's buffer.
};

/// The packet's first byte with header protection removed, without
/// touching the packet: for a 1-RTT packet it tells the key phase (RFC 9001
/// §6) before choosing keys. nullopt when the packet is too short to sample.
std::optional<uint8_t> unmasked_first_byte(std::span<const uint8_t> packet, size_t pn_offset,
                                           const PacketKeys& keys);

/// Removes header protection and decrypts the packet `packet` (exactly its
/// bytes, header included; header fields before `pn_offset` unprotected
/// already), expanding the packet number against `largest_received`.
/// nullopt when the packet is too short to sample or fails authentication:
/// the caller drops it (RFC 9001 §5.5 / RFC 9000 §12.2).
std::optional<OpenedPacket> unprotect_packet(std::span<uint8_t> packet, size_t pn_offset,
                                             int64_t largest_received, const PacketKeys& keys);

}  // namespace conform::quic
