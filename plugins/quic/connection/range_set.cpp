// Merged interval sets for acknowledgement and reassembly bookkeeping.
#include "connection/range_set.hpp"

#include <algorithm>

namespace conform::quic {

uint64_t RangeSet::insert(uint64_t start, uint64_t end) {
  if (start >= end) return 0;
  uint64_t added = end - start;
  // Find the first range that could touch [start, end): the one before start
  // if it reaches start, else the first starting at or after start.
  auto it = ranges_.upper_bound(start);
  if (it != ranges_.begin() && std::prev(it)->second >= start) --it;
  uint64_t new_start = start, new_end = end;
  while (it != ranges_.end() && it->first <= new_end) {
    const uint64_t overlap_lo = std::max(it->first, start), overlap_hi = std::min(it->second, end);
    if (overlap_hi > overlap_lo) added -= overlap_hi - overlap_lo;
    new_start = std::min(new_start, it->first);
    new_end = std::max(new_end, it->second);
    it = ranges_.erase(it);
  }
  ranges_.emplace(new_start, new_end);
  return added;
}

bool RangeSet::contains(uint64_t v) const {
  auto it = ranges_.upper_bound(v);
  if (it == ranges_.begin()) return false;
  return std::prev(it)->second > v;
}

void RangeSet::remove_below(uint64_t v) {
  while (!ranges_.empty() && ranges_.begin()->second <= v) ranges_.erase(ranges_.begin());
  if (!ranges_.empty() && ranges_.begin()->first < v) {
    const uint64_t end = ranges_.begin()->second;
    ranges_.erase(ranges_.begin());
    ranges_.emplace(v, end);
  }
}

void RangeSet::remove(uint64_t start, uint64_t end) {
  if (start >= end) return;
  auto it = ranges_.upper_bound(start);
  if (it != ranges_.begin() && std::prev(it)->second > start) --it;
  while (it != ranges_.end() && it->first < end) {
    const uint64_t s = it->first, e = it->second;
    it = ranges_.erase(it);
    if (s < start) ranges_.emplace(s, start);
    if (e > end) ranges_.emplace(end, e);
  }
}

uint64_t RangeSet::contiguous_end(uint64_t from) const {
  auto it = ranges_.upper_bound(from);
  if (it == ranges_.begin()) return from;
  --it;
  return it->second > from ? it->second : from;
}

}  // namespace conform::quic
