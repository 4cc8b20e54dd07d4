// CRYPTO stream reassembly and TLS handshake message framing.
#include "dissect/crypto_stream.hpp"

#include <algorithm>

namespace conform::dissect {

void CryptoStream::add(std::uint64_t offset, std::span<const std::uint8_t> data) {
  if (offset >= capacity_) return;
  const std::size_t n = std::min<std::size_t>(data.size(), capacity_ - offset);
  const std::size_t end = offset + n;
  if (bytes_.size() < end) {
    bytes_.resize(end);
    have_.resize(end);
  }
  std::copy_n(data.begin(), n, bytes_.begin() + offset);
  std::fill(have_.begin() + offset, have_.begin() + end, true);
  while (contiguous_ < have_.size() && have_[contiguous_]) ++contiguous_;
}

std::optional<std::span<const std::uint8_t>> handshake_message(std::span<const std::uint8_t> stream,
                                                               std::uint8_t type) {
  std::size_t at = 0;
  while (at + 4 <= stream.size()) {
    const std::size_t length = std::size_t{stream[at + 1]} << 16 | std::size_t{stream[at + 2]} << 8 | stream[at + 3];
    if (at + 4 + length > stream.size()) return std::nullopt;
    if (stream[at] == type) return stream.subspan(at + 4, length);
    at += 4 + length;
  }
  return std::nullopt;
}

}  // namespace conform::dissect
