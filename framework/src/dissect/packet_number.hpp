// Packet numbers as sent (truncated to 1-4 bytes) and as meant: the full
// 62-bit value nearest to the next expected one (RFC 9000 §17.1, Appendix A.3).
#pragma once

#include <cstdint>
#include <optional>

namespace conform::dissect {

/// The full packet number whose low `length_bytes` bytes (1 to 4) are
/// `truncated`, chosen closest to `largest_received + 1` (0 when nothing was
/// received in this packet number space yet) as RFC 9000 Appendix A.3 says.
std::uint64_t decode_packet_number(std::optional<std::uint64_t> largest_received,
                                   std::uint64_t truncated, unsigned length_bytes);

}  // namespace conform::dissect
