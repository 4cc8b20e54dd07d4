// Sequence number unwrapping and the ranges of bytes shown so far.
#include "dissect/tcp/sequence_space.hpp"

#include <algorithm>

namespace conform::tcp {

std::uint64_t SequenceSpace::unwrap(std::uint32_t seq) {
  if (!started_) {
    started_ = true;
    base_ = seq;
    last_ = 0;
    return 0;
  }
  // The offset modulo 2^32, placed in the 2^32 window centred on the last
  // offset: sequence numbers move by far less than 2^31 between segments.
  const std::uint32_t low = seq - base_;
  constexpr std::uint64_t kWrap = std::uint64_t{1} << 32;
  std::uint64_t candidate = (last_ & ~(kWrap - 1)) | low;
  if (candidate + kWrap / 2 < last_) candidate += kWrap;
  else if (candidate > last_ + kWrap / 2 && candidate >= kWrap) candidate -= kWrap;
  last_ = std::max(last_, candidate);
  return candidate;
}

SequenceSpace::Seen SequenceSpace::add(std::uint64_t begin, std::uint64_t end) {
  Seen seen;
  if (end <= begin) return seen;
  seen.after_hole = any_ && begin > high_;
  // Bytes of [begin, end) already inside a recorded range.
  auto it = ranges_.upper_bound(begin);
  if (it != ranges_.begin()) --it;
  for (auto r = it; r != ranges_.end() && r->first < end; ++r)
    if (r->second > begin) seen.repeated += std::min(end, r->second) - std::max(begin, r->first);
  const std::uint64_t fresh = (end - begin) - seen.repeated;
  seen.fills_hole = fresh > 0 && any_ && begin < high_;
  // Merge [begin, end) with every range it touches.
  std::uint64_t b = begin, e = end;
  it = ranges_.upper_bound(begin);
  if (it != ranges_.begin() && std::prev(it)->second >= begin) --it;
  while (it != ranges_.end() && it->first <= end) {
    b = std::min(b, it->first);
    e = std::max(e, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace(b, e);
  high_ = std::max(high_, end);
  any_ = true;
  return seen;
}

}  // namespace conform::tcp
