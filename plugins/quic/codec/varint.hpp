// Variable-length integers, RFC 9000 §16: the two high bits of the first byte
// give the length (1, 2, 4 or 8 bytes), the rest is the value, big-endian.
#pragma once

#include <cstddef>
#include <cstdint>

namespace conform::quic {

/// The largest value a varint holds: 2^62 - 1.
inline constexpr uint64_t kMaxVarint = (uint64_t{1} << 62) - 1;

/// Bytes the shortest encoding of `v` takes; 0 when v > kMaxVarint.
constexpr size_t varint_size(uint64_t v) {
  if (v < 64) return 1;
  if (v < 16384) return 2;
  if (v < (uint64_t{1} << 30)) return 4;
  if (v <= kMaxVarint) return 8;
  return 0;
}

/// Writes `v` in exactly `len` bytes (1, 2, 4 or 8; the caller checked it
/// fits) at `out`. A longer encoding than needed is legal (§16) and lets a
/// packet's Length field be written before the payload size is final.
inline void write_varint_fixed(uint8_t* out, uint64_t v, size_t len) {
  const uint8_t prefix = len == 1 ? 0x00 : len == 2 ? 0x40 : len == 4 ? 0x80 : 0xc0;
  for (size_t i = 0; i < len; ++i) out[len - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
  out[0] |= prefix;
}

}  // namespace conform::quic
