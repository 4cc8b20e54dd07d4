// The send side of a byte stream (STREAM data, RFC 9000 §2.2, or CRYPTO
// data, §7.5): bytes the application wrote, which of them were sent, lost
// and acknowledged. Lost ranges are sent again before new data.
#pragma once

#include <optional>

#include "codec/buffer.hpp"
#include "connection/range_set.hpp"

namespace conform::quic {

class SendBuffer {
 public:
  void write(ByteView data);
  void finish() { fin_ = true; }
  bool fin_requested() const { return fin_; }
  /// Total bytes written: the final size once finished.
  uint64_t written() const { return base_ + data_.size(); }
  /// Highest offset + 1 ever sent (flow-control usage, §4.1).
  uint64_t highest_sent() const { return highest_sent_; }

  struct Chunk {
    uint64_t offset = 0;
    ByteView data;
    bool fin = false;
  };
  /// The next chunk to send, at most `max_len` bytes, new data not beyond
  /// `limit` (the flow-control limit). nullopt when nothing is sendable.
  std::optional<Chunk> peek(size_t max_len, uint64_t limit) const;
  /// PTO probes (RFC 9002 §6.2.4): the first bytes at or after `from` not
  /// yet acknowledged (sent, lost or never sent), at most `max_len`;
  /// nullopt when every byte from `from` on is acknowledged. No flow
  /// control limit: for CRYPTO data.
  std::optional<Chunk> peek_unacked(uint64_t from, size_t max_len) const;
  /// Marks a chunk returned by peek or peek_unacked (possibly shortened) as sent.
  void on_sent(uint64_t offset, size_t len, bool fin);
  void on_acked(uint64_t offset, size_t len, bool fin);
  void on_lost(uint64_t offset, size_t len, bool fin);
  /// Unsent new data exists but `limit` stops it: the sender is blocked.
  bool blocked_at(uint64_t limit) const { return next_ < written() && next_ >= limit && lost_.empty(); }
  /// Every byte and the FIN acknowledged.
  bool all_acked() const { return fin_ && fin_acked_ && acked_.contiguous_end(0) >= written(); }

 private:
  Bytes data_;          // bytes from offset base_ on
  uint64_t base_ = 0;   // everything below is acknowledged and freed
  uint64_t next_ = 0;   // next new byte to send
  uint64_t highest_sent_ = 0;
  RangeSet lost_;
  RangeSet acked_;
  bool fin_ = false, fin_sent_ = false, fin_acked_ = false, fin_lost_ = false;
};

}  // namespace conform::quic
