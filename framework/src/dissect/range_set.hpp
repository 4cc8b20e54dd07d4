// A set of integers (byte offsets, packet numbers) kept as merged half-open
// ranges [start, end): which stream or CRYPTO bytes were seen, sent or
// acknowledged (RFC 9000 §2.2, §19.6), which packet numbers an ACK covered
// (§19.3). Used by the stream views and by the checks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

namespace conform::dissect {

class RangeSet {
 public:
  /// Adds [start, end); returns how many of its values were not in the set.
  std::uint64_t add(std::uint64_t start, std::uint64_t end) {
    if (start >= end) return 0;
    std::uint64_t fresh = end - start;
    auto it = ranges_.upper_bound(start);
    if (it != ranges_.begin()) {
      auto prev = std::prev(it);
      if (prev->second >= start) {
        if (prev->second >= end) return 0;
        fresh -= prev->second - start;
        start = prev->first;
        it = ranges_.erase(prev);
      }
    }
    while (it != ranges_.end() && it->first <= end) {
      fresh -= std::min(it->second, end) - it->first;
      end = std::max(end, it->second);
      it = ranges_.erase(it);
    }
    ranges_[start] = end;
    return fresh;
  }
  void add(const RangeSet& other) {
    for (const auto& [s, e] : other.ranges_) add(s, e);
  }
  bool contains(std::uint64_t value) const {
    auto it = ranges_.upper_bound(value);
    return it != ranges_.begin() && std::prev(it)->second > value;
  }
  /// Values of [start, end) in the set.
  std::uint64_t overlap(std::uint64_t start, std::uint64_t end) const {
    std::uint64_t n = 0;
    auto it = ranges_.upper_bound(start);
    if (it != ranges_.begin()) --it;
    for (; it != ranges_.end() && it->first < end; ++it) {
      const std::uint64_t s = std::max(start, it->first), e = std::min(end, it->second);
      if (s < e) n += e - s;
    }
    return n;
  }
  bool overlaps(const RangeSet& other) const {
    for (const auto& [s, e] : other.ranges_)
      if (overlap(s, e)) return true;
    return false;
  }
  /// Every value of `other` is in this set.
  bool covers(const RangeSet& other) const {
    for (const auto& [s, e] : other.ranges_)
      if (overlap(s, e) != e - s) return false;
    return true;
  }
  /// The values of this set not in `other`.
  RangeSet minus(const RangeSet& other) const {
    RangeSet out;
    for (const auto& range : ranges_) {
      std::uint64_t s = range.first;
      const std::uint64_t e = range.second;
      auto it = other.ranges_.upper_bound(s);
      if (it != other.ranges_.begin()) --it;
      for (; it != other.ranges_.end() && it->first < e && s < e; ++it) {
        if (it->second <= s) continue;
        if (it->first > s) out.add(s, it->first);
        s = std::max(s, it->second);
      }
      if (s < e) out.add(s, e);
    }
    return out;
  }
  /// Values from 0 without a gap.
  std::uint64_t prefix() const {
    auto it = ranges_.find(0);
    return it == ranges_.end() ? 0 : it->second;
  }
  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& [s, e] : ranges_) n += e - s;
    return n;
  }
  /// The values in both.
  RangeSet intersect(const RangeSet& other) const { return minus(minus(other)); }
  bool empty() const { return ranges_.empty(); }
  const std::map<std::uint64_t, std::uint64_t>& ranges() const { return ranges_; }

 private:
  std::map<std::uint64_t, std::uint64_t> ranges_;
};

}  // namespace conform::dissect
