// HPACK's Huffman code is canonical (RFC 7541 Appendix B): codes of one
// length are consecutive and ordered by symbol, longer codes follow shorter
// ones. So the code lengths alone define it, and decoding needs per length
// only the first code and where its symbols start.
#include "h3/huffman.hpp"

#include <array>

namespace conform::quic::h3 {

namespace {

constexpr int kMaxBits = 30;
constexpr int kEos = 256;

// Code length in bits of symbols 0..255 and EOS (256), RFC 7541 Appendix B.
constexpr std::array<uint8_t, 257> kLengths = {
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,  // 0
    28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,  // 16
    6,  10, 10, 12, 13, 6,  8,  11, 10, 10, 8,  11, 8,  6,  6,  6,   // 32
    5,  5,  5,  6,  6,  6,  6,  6,  6,  6,  7,  8,  15, 6,  12, 10,  // 48
    13, 6,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,   // 64
    7,  7,  7,  7,  7,  7,  7,  7,  8,  7,  8,  13, 19, 13, 14, 6,   // 80
    15, 5,  6,  5,  6,  5,  6,  6,  6,  5,  7,  7,  6,  6,  6,  5,   // 96
    6,  7,  6,  5,  5,  6,  7,  7,  7,  7,  7,  15, 11, 14, 13, 28,  // 112
    20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,  // 128
    24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,  // 144
    22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,  // 160
    21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,  // 176
    26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,  // 192
    19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,  // 208
    20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,  // 224
    26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,  // 240
    30};

struct CanonicalCode {
  std::array<uint32_t, kMaxBits + 1> first{};   // first code of each length
  std::array<uint16_t, kMaxBits + 1> count{};   // codes of each length (none of length 0)
  std::array<uint16_t, kMaxBits + 1> offset{};  // index in `symbols` of the first
  std::array<uint16_t, 257> symbols{};          // by length, then by symbol
};

constexpr CanonicalCode build() {
  CanonicalCode c;
  for (uint8_t len : kLengths) ++c.count[len];
  uint32_t code = 0;
  uint16_t at = 0;
  for (int len = 1; len <= kMaxBits; ++len) {
    code = (code + c.count[len - 1]) << 1;
    c.first[len] = code;
    c.offset[len] = at;
    for (int s = 0; s < 257; ++s)
      if (kLengths[s] == len) c.symbols[at++] = static_cast<uint16_t>(s);
  }
  return c;
}

constexpr CanonicalCode kCode = build();

}  // namespace

std::optional<std::string> huffman_decode(ByteView coded) {
  std::string out;
  uint32_t code = 0;
  int len = 0;
  for (uint8_t byte : coded) {
    for (int bit = 7; bit >= 0; --bit) {
      code = (code << 1) | ((byte >> bit) & 1);
      ++len;
      if (code - kCode.first[len] < kCode.count[len]) {
        const uint16_t sym = kCode.symbols[kCode.offset[len] + (code - kCode.first[len])];
        if (sym == kEos) return std::nullopt;
        out.push_back(static_cast<char>(sym));
        code = 0;
        len = 0;
      } else if (len == kMaxBits) {
        return std::nullopt;
      }
    }
  }
  // Padding: a prefix of EOS (all ones), at most 7 bits.
  if (len > 7 || code != (uint32_t{1} << len) - 1) return std::nullopt;
  return out;
}

}  // namespace conform::quic::h3
