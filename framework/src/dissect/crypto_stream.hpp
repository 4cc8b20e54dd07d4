// The TLS handshake bytes one endpoint sends at one encryption level, put
// back in order from CRYPTO frames (RFC 9000 §19.6, RFC 9001 §4): frames
// may arrive in any order or repeat (Chrome shuffles its ClientHello), and
// the dissector reads the handshake messages it needs from the front.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace conform::dissect {

class CryptoStream {
 public:
  /// Keeps the first `capacity` bytes of the stream; later bytes are not
  /// needed (the messages read are at the front) and are dropped.
  explicit CryptoStream(std::size_t capacity = 16384) : capacity_(capacity) {}

  /// Records the data of a CRYPTO frame at `offset`.
  void add(std::uint64_t offset, std::span<const std::uint8_t> data);
  /// The bytes known from offset 0 without a gap.
  std::span<const std::uint8_t> contiguous() const { return std::span(bytes_).first(contiguous_); }

 private:
  std::size_t capacity_;
  std::vector<std::uint8_t> bytes_;
  std::vector<bool> have_;
  std::size_t contiguous_ = 0;
};

/// The body of the first complete TLS handshake message of `type` at the
/// front of `stream` (messages: type (1), length (3), body; RFC 8446 §4), or
/// nullopt when it is not (yet) complete.
std::optional<std::span<const std::uint8_t>> handshake_message(std::span<const std::uint8_t> stream,
                                                               std::uint8_t type);

}  // namespace conform::dissect
