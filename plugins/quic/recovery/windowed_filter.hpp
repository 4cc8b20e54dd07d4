// A windowed maximum over round trips: the largest value seen in the last
// `window` rounds (draft-ietf-ccwg-bbr keeps the bottleneck bandwidth
// estimate this way, as the maximum delivery rate of recent rounds). Exact:
// it keeps the best value of each round that could still become the
// maximum, so at most `window` entries.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>

namespace conform::quic {

class WindowedMaxFilter {
 public:
  /// `window` in rounds, >= 1: a value of round r counts through round r + window - 1.
  explicit WindowedMaxFilter(uint64_t window) : window_(window) {}

  /// A value measured in round `round` (rounds never decrease).
  void update(double value, uint64_t round) {
    while (!entries_.empty() && entries_.front().first + window_ <= round) entries_.pop_front();
    while (!entries_.empty() && entries_.back().second <= value) entries_.pop_back();
    if (entries_.empty() || entries_.back().first != round) entries_.emplace_back(round, value);
  }
  /// The maximum of the window as of the last update; 0 when empty.
  double best() const { return entries_.empty() ? 0 : entries_.front().second; }
  void reset() { entries_.clear(); }

 private:
  uint64_t window_;
  std::deque<std::pair<uint64_t, double>> entries_;  ///< (round, value), values decreasing
};

}  // namespace conform::quic
