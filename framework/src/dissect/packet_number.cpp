// Packet number decoding, RFC 9000 Appendix A.3.
#include "dissect/packet_number.hpp"

namespace conform::dissect {

std::uint64_t decode_packet_number(std::optional<std::uint64_t> largest_received,
                                   std::uint64_t truncated, unsigned length_bytes) {
  const std::uint64_t expected = largest_received ? *largest_received + 1 : 0;
  const unsigned bits = length_bytes * 8;
  const std::uint64_t window = std::uint64_t{1} << bits;
  const std::uint64_t half = window / 2;
  const std::uint64_t mask = window - 1;
  const std::uint64_t candidate = (expected & ~mask) | truncated;
  // The comparisons are written so that no term goes below zero or above
  // 2^62: the RFC's pseudocode uses signed arithmetic for the same tests.
  if (candidate + half <= expected && candidate < (std::uint64_t{1} << 62) - window)
    return candidate + window;
  if (candidate > expected + half && candidate >= window) return candidate - window;
  return candidate;
}

}  // namespace conform::dissect
