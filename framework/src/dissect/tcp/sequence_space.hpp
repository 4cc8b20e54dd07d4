// One direction's sequence space (RFC 9293 §3.4): 32-bit sequence numbers
// unwrapped to 64-bit offsets from the first one seen, and the ranges of
// bytes a capture has shown, so a segment can be told apart as new data, a
// retransmission, or data filling a hole.
#pragma once

#include <cstdint>
#include <map>

namespace conform::tcp {

class SequenceSpace {
 public:
  /// Unwraps `seq` to the 64-bit offset nearest the highest one seen so far
  /// (RFC 9293 §3.4 arithmetic modulo 2^32). The first call fixes offset 0.
  std::uint64_t unwrap(std::uint32_t seq);

  /// What a range [begin, end) of bytes was, relative to what came before.
  struct Seen {
    /// Bytes of the range shown before.
    std::uint64_t repeated = 0;
    /// Whether the range starts above every byte shown before (a hole below).
    bool after_hole = false;
    /// Whether new bytes of it lie below the highest byte shown (filling a hole).
    bool fills_hole = false;
  };
  /// Records [begin, end) as shown and says how it relates to earlier ranges.
  Seen add(std::uint64_t begin, std::uint64_t end);

  /// One past the highest byte offset shown (0 before any).
  std::uint64_t high() const { return high_; }

 private:
  bool started_ = false;
  std::uint32_t base_ = 0;
  std::uint64_t last_ = 0;
  std::uint64_t high_ = 0;
  bool any_ = false;
  /// Disjoint, non-adjacent ranges shown: begin -> end.
  std::map<std::uint64_t, std::uint64_t> ranges_;
};

}  // namespace conform::tcp
