// Connection IDs, RFC 9000 §5.1: 0 to 20 opaque bytes chosen by the endpoint
// that receives packets carrying them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace conform::quic {

struct ConnectionId {
  static constexpr size_t kMaxLen = 20;
  std::array<uint8_t, kMaxLen> bytes{};
  uint8_t len = 0;

  ConnectionId() = default;
  /// Truncates input longer than 20 bytes; callers check the length first.
  explicit ConnectionId(std::span<const uint8_t> b) {
    len = static_cast<uint8_t>(std::min(b.size(), kMaxLen));
    std::copy_n(b.begin(), len, bytes.begin());
  }
  std::span<const uint8_t> view() const { return {bytes.data(), len}; }
  bool operator==(const ConnectionId& o) const {
    return len == o.len && std::equal(bytes.begin(), bytes.begin() + len, o.bytes.begin());
  }
};

}  // namespace conform::quic
