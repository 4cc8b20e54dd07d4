// Packet number encoding and decoding, RFC 9000 Appendix A.2 and A.3.
#include "codec/packet_number.hpp"

namespace conform::quic {

size_t packet_number_length(uint64_t pn, int64_t largest_acked) {
  const uint64_t unacked = largest_acked < 0 ? pn + 1 : pn - static_cast<uint64_t>(largest_acked);
  // The encoding must cover more than twice the unacknowledged range so the
  // receiver's window (centred on what it expects) picks the right value.
  const uint64_t range = 2 * unacked;
  if (range < (uint64_t{1} << 8)) return 1;
  if (range < (uint64_t{1} << 16)) return 2;
  if (range < (uint64_t{1} << 24)) return 3;
  return 4;
}

uint64_t decode_packet_number(int64_t largest_received, uint64_t truncated, size_t len) {
  const uint64_t expected = static_cast<uint64_t>(largest_received + 1);
  const uint64_t win = uint64_t{1} << (len * 8);
  const uint64_t hwin = win / 2;
  const uint64_t mask = win - 1;
  const uint64_t candidate = (expected & ~mask) | truncated;
  // Compare without underflow: the RFC's pseudo-code uses signed arithmetic.
  if (candidate + hwin <= expected && candidate < (uint64_t{1} << 62) - win) return candidate + win;
  if (candidate > expected + hwin && candidate >= win) return candidate - win;
  return candidate;
}

}  // namespace conform::quic
