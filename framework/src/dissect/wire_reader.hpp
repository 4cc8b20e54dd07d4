// A bounds-checked cursor over received bytes that reads QUIC's big-endian
// integers and variable-length integers (RFC 9000 §16). A read past the end
// returns nullopt and leaves the cursor where it was: received bytes are
// never trusted to be well formed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace conform::dissect {

/// The largest value a variable-length integer can hold: 2^62 - 1.
inline constexpr std::uint64_t kMaxVarint = (std::uint64_t{1} << 62) - 1;

/// Bytes taken by the variable-length integer whose first byte is `first`:
/// 1, 2, 4 or 8, from its two most significant bits (RFC 9000 §16).
constexpr std::size_t varint_length(std::uint8_t first) { return std::size_t{1} << (first >> 6); }

/// Bytes needed to encode `value` minimally (RFC 9000 §16, Table 4);
/// 0 when it exceeds kMaxVarint.
constexpr std::size_t varint_min_length(std::uint64_t value) {
  if (value < 64) return 1;
  if (value < 16384) return 2;
  if (value < (std::uint64_t{1} << 30)) return 4;
  if (value <= kMaxVarint) return 8;
  return 0;
}

class WireReader {
 public:
  explicit WireReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool empty() const { return pos_ == bytes_.size(); }
  /// The bytes not read yet.
  std::span<const std::uint8_t> rest() const { return bytes_.subspan(pos_); }

  std::optional<std::uint8_t> u8() {
    if (empty()) return std::nullopt;
    return bytes_[pos_++];
  }

  /// An unsigned big-endian integer of `n` bytes (0 to 8).
  std::optional<std::uint64_t> uint(std::size_t n) {
    if (n > 8 || remaining() < n) return std::nullopt;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = v << 8 | bytes_[pos_ + i];
    pos_ += n;
    return v;
  }

  /// A variable-length integer (RFC 9000 §16, Appendix A.1).
  std::optional<std::uint64_t> varint() {
    if (empty()) return std::nullopt;
    const std::size_t n = varint_length(bytes_[pos_]);
    if (remaining() < n) return std::nullopt;
    std::uint64_t v = bytes_[pos_] & 0x3f;
    for (std::size_t i = 1; i < n; ++i) v = v << 8 | bytes_[pos_ + i];
    pos_ += n;
    return v;
  }

  /// The next `n` bytes, as a view into the input.
  std::optional<std::span<const std::uint8_t>> bytes(std::uint64_t n) {
    if (n > remaining()) return std::nullopt;
    auto out = bytes_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace conform::dissect
