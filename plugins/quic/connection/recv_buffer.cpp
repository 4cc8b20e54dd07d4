// Out-of-order reassembly with final-size checks, RFC 9000 §2.2 and §4.5.
#include "connection/recv_buffer.hpp"

#include <algorithm>
#include <cstring>

namespace conform::quic {

Status<> RecvBuffer::insert(uint64_t offset, ByteView data, bool fin) {
  const uint64_t end = offset + data.size();
  if (fin) {
    if ((final_size_ && *final_size_ != end) || highest_ > end)
      return TransportError(TransportErrorCode::final_size_error, "final size changed");
    final_size_ = end;
  } else if (final_size_ && end > *final_size_) {
    return TransportError(TransportErrorCode::final_size_error, "data beyond the final size");
  }
  highest_ = std::max(highest_, end);
  // Keep only the pieces not already received or read: duplicates and
  // overlaps (retransmissions) must not be stored twice.
  uint64_t pos = std::max(offset, read_offset_);
  while (pos < end) {
    const uint64_t covered = received_.contiguous_end(pos);
    if (covered > pos) {
      pos = covered;
      continue;
    }
    auto next = received_.ranges().upper_bound(pos);
    const uint64_t piece_end = next == received_.ranges().end() ? end : std::min(end, next->first);
    const auto* from = data.data() + (pos - offset);
    chunks_.emplace(pos, Bytes(from, from + (piece_end - pos)));
    received_.insert(pos, piece_end);
    pos = piece_end;
  }
  return {};
}

uint64_t RecvBuffer::readable() const {
  return received_.contiguous_end(read_offset_) - read_offset_;
}

size_t RecvBuffer::read(std::span<uint8_t> out) {
  size_t copied = 0;
  while (copied < out.size() && !chunks_.empty() && chunks_.begin()->first == read_offset_) {
    auto node = chunks_.begin();
    Bytes& chunk = node->second;
    const size_t n = std::min(out.size() - copied, chunk.size());
    std::memcpy(out.data() + copied, chunk.data(), n);
    copied += n;
    read_offset_ += n;
    if (n == chunk.size()) {
      chunks_.erase(node);
    } else {
      Bytes rest(chunk.begin() + static_cast<ptrdiff_t>(n), chunk.end());
      chunks_.erase(node);
      chunks_.emplace(read_offset_, std::move(rest));
    }
  }
  received_.remove_below(read_offset_);
  return copied;
}

}  // namespace conform::quic
