// The Retry packet's integrity tag (RFC 9001 §5.8): AES-128-GCM with a fixed
// key and nonce over the Retry pseudo-packet, which prefixes the Retry
// packet with the Original Destination Connection ID it answers.
#pragma once

#include "dissect/bytes.hpp"

#include <array>

namespace conform::dissect {

/// The 16-byte tag for a Retry packet `retry_without_tag` (everything before
/// the tag) sent in answer to a client Initial whose DCID was `original_dcid`.
std::array<std::uint8_t, 16> retry_integrity_tag(std::span<const std::uint8_t> original_dcid,
                                                 std::span<const std::uint8_t> retry_without_tag);

/// Whether the last 16 bytes of `retry_packet` are its tag for `original_dcid`.
bool retry_integrity_ok(std::span<const std::uint8_t> original_dcid,
                        std::span<const std::uint8_t> retry_packet);

}  // namespace conform::dissect
