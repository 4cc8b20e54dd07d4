// Send-side bookkeeping of a byte stream: sent, lost, acknowledged ranges.
#include "connection/send_buffer.hpp"

#include <algorithm>

namespace conform::quic {

void SendBuffer::write(ByteView data) { data_.insert(data_.end(), data.begin(), data.end()); }

std::optional<SendBuffer::Chunk> SendBuffer::peek(size_t max_len, uint64_t limit) const {
  if (!lost_.empty()) {
    // Retransmissions were already counted against flow control.
    const auto& [start, end] = *lost_.ranges().begin();
    const size_t len = static_cast<size_t>(std::min<uint64_t>(end - start, max_len));
    if (len == 0) return std::nullopt;
    const bool fin = fin_ && start + len == written();
    return Chunk{start, ByteView(data_).subspan(start - base_, len), fin};
  }
  const uint64_t stop = std::min(written(), std::max(limit, next_));
  const size_t len = static_cast<size_t>(std::min<uint64_t>(stop - next_, max_len));
  const bool fin = fin_ && next_ + len == written() && (!fin_sent_ || fin_lost_);
  if (len == 0 && !fin) return std::nullopt;
  return Chunk{next_, ByteView(data_).subspan(next_ - base_, len), fin};
}

std::optional<SendBuffer::Chunk> SendBuffer::peek_unacked(uint64_t from, size_t max_len) const {
  uint64_t pos = std::max(from, base_);
  pos = acked_.contiguous_end(pos);  // skip an acknowledged range that covers pos
  if (pos >= written() || max_len == 0) return std::nullopt;
  const auto next = acked_.ranges().upper_bound(pos);
  const uint64_t stop = next == acked_.ranges().end() ? written() : std::min(next->first, written());
  const size_t len = static_cast<size_t>(std::min<uint64_t>(stop - pos, max_len));
  return Chunk{pos, ByteView(data_).subspan(pos - base_, len), false};
}

void SendBuffer::on_sent(uint64_t offset, size_t len, bool fin) {
  const uint64_t end = offset + len;
  lost_.remove(offset, end);
  next_ = std::max(next_, end);
  highest_sent_ = std::max(highest_sent_, end);
  if (fin) {
    fin_sent_ = true;
    fin_lost_ = false;
  }
}

void SendBuffer::on_acked(uint64_t offset, size_t len, bool fin) {
  if (len) acked_.insert(offset, offset + len);
  if (fin) fin_acked_ = true;
  // Free the acknowledged prefix; compact only when it is worth the copy.
  const uint64_t done = acked_.contiguous_end(0);
  if (done > base_ && (done - base_) * 2 >= data_.size()) {
    data_.erase(data_.begin(), data_.begin() + static_cast<ptrdiff_t>(done - base_));
    base_ = done;
  }
}

void SendBuffer::on_lost(uint64_t offset, size_t len, bool fin) {
  // Only what is still unacknowledged needs sending again.
  for (uint64_t pos = std::max(offset, base_); pos < offset + len;) {
    const uint64_t covered = acked_.contiguous_end(pos);
    if (covered > pos) {
      pos = covered;
      continue;
    }
    auto next = acked_.ranges().upper_bound(pos);
    const uint64_t stop = next == acked_.ranges().end() ? offset + len : std::min(offset + len, next->first);
    lost_.insert(pos, stop);
    pos = stop;
  }
  if (fin && !fin_acked_) fin_lost_ = true;
}

}  // namespace conform::quic
