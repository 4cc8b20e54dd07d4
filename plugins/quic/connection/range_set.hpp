// A set of disjoint half-open ranges [start, end) of integers, kept merged:
// the received packet numbers of a space (RFC 9000 §13.2) and the received
// byte ranges of a stream (§2.2) are both this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace conform::quic {

class RangeSet {
 public:
  /// Adds [start, end); returns the number of values that were new.
  uint64_t insert(uint64_t start, uint64_t end);
  bool contains(uint64_t v) const;
  /// Removes every value below `v` (e.g. packet numbers too old to ack).
  void remove_below(uint64_t v);
  /// Removes [start, end) (e.g. lost bytes that were sent again).
  void remove(uint64_t start, uint64_t end);
  bool empty() const { return ranges_.empty(); }
  size_t size() const { return ranges_.size(); }
  /// End of the first range if it starts at `from`, else `from`: how far the
  /// contiguous prefix reaches.
  uint64_t contiguous_end(uint64_t from) const;
  /// Ranges keyed by start, values are ends; ascending.
  const std::map<uint64_t, uint64_t>& ranges() const { return ranges_; }

 private:
  std::map<uint64_t, uint64_t> ranges_;
};

}  // namespace conform::quic
