// Frame numbers as variable-length differences.
#include "offline/frame_numbers.hpp"

namespace conform {

FrameNumbers::FrameNumbers(const std::vector<std::uint64_t>& frames) : count_(frames.size()) {
  if (!frames.empty()) front_ = frames.front();
  std::uint64_t previous = 0;
  for (const std::uint64_t f : frames) {
    const auto difference = static_cast<std::int64_t>(f - previous);
    // Zigzag: small differences of either sign in few bytes.
    auto v = (static_cast<std::uint64_t>(difference) << 1) ^ static_cast<std::uint64_t>(difference >> 63);
    for (; v >= 0x80; v >>= 7) differences_.push_back(static_cast<std::uint8_t>(v | 0x80));
    differences_.push_back(static_cast<std::uint8_t>(v));
    previous = f;
  }
  differences_.shrink_to_fit();
}

std::vector<std::uint64_t> FrameNumbers::all() const {
  std::vector<std::uint64_t> out;
  out.reserve(count_);
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < differences_.size();) {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t b = differences_[i++];
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) break;
    }
    const auto difference = static_cast<std::int64_t>((v >> 1) ^ (~(v & 1) + 1));
    previous += static_cast<std::uint64_t>(difference);
    out.push_back(previous);
  }
  return out;
}

}  // namespace conform
