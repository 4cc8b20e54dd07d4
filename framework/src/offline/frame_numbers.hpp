// The frame numbers of one connection's records, held as variable-length
// differences: conform check keeps a sketch of every connection until the
// capture is read, and ten thousand connections' lists took 16 MB as
// 8-byte numbers (a difference is mostly one byte).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace conform {

class FrameNumbers {
 public:
  FrameNumbers() = default;
  /// `frames` in capture order (ascending; any order is kept as given).
  explicit FrameNumbers(const std::vector<std::uint64_t>& frames);

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::uint64_t front() const { return front_; }
  /// Every number, in the order given.
  std::vector<std::uint64_t> all() const;

 private:
  std::vector<std::uint8_t> differences_;  // zigzag LEB128, from the previous number (0 before the first)
  std::size_t count_ = 0;
  std::uint64_t front_ = 0;
};

}  // namespace conform
