// Removing a packet's protection (RFC 9001 §5.4, §5.3): header protection
// first, which reveals the packet number length, the packet number and the
// key phase; then the AEAD, which authenticates header and payload.
#pragma once

#include "dissect/header.hpp"
#include "dissect/packet_protection.hpp"

#include <optional>

namespace conform::dissect {

/// A packet whose header protection is off: `scratch` holds the header up
/// to and including the packet number, unmasked.
struct UnmaskedHeader {
  std::uint64_t packet_number = 0;
  unsigned packet_number_length = 0;
  std::size_t header_length = 0;  // pn_offset + packet_number_length
  std::uint8_t first_byte = 0;    // unmasked
};

/// Removes header protection from `packet` (exactly one packet: header
/// through tag) with `keys`' header protection key, writing the unmasked
/// header into `scratch`, and decodes the packet number against the largest
/// one received so far in its space (RFC 9000 App. A.3). Never fails given
/// a header that parse_header accepted (the sample fits by then).
UnmaskedHeader remove_header_protection(const PacketKeys& keys, std::span<const std::uint8_t> packet,
                                        const ParsedHeader& header,
                                        std::optional<std::uint64_t> largest_received, Bytes& scratch);

/// Decrypts the payload of `packet` into `scratch` after the header that
/// remove_header_protection left there, with `keys`' AEAD; returns the
/// plaintext (a view into `scratch`), or nullopt when authentication fails.
/// May be called again with other keys after a failure.
std::optional<std::span<const std::uint8_t>> open_payload(const PacketKeys& keys,
                                                          std::span<const std::uint8_t> packet,
                                                          const UnmaskedHeader& header,
                                                          Bytes& scratch);

}  // namespace conform::dissect
