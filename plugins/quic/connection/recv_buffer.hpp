// Reassembly of a byte stream received out of order: STREAM data (RFC 9000
// §2.2) and CRYPTO data (§7.5). Tracks the final size (§4.5).
#pragma once

#include <map>
#include <optional>

#include "codec/buffer.hpp"
#include "codec/error.hpp"
#include "connection/range_set.hpp"

namespace conform::quic {

class RecvBuffer {
 public:
  /// Stores [offset, offset + data.size()), ignoring bytes already held or
  /// read. Errors: FINAL_SIZE_ERROR when `fin` contradicts a known final size
  /// or data lies beyond it (§4.5).
  Status<> insert(uint64_t offset, ByteView data, bool fin);
  /// Copies contiguous bytes from the read offset into `out`; returns how many.
  size_t read(std::span<uint8_t> out);
  /// Contiguous bytes available now.
  uint64_t readable() const;
  uint64_t read_offset() const { return read_offset_; }
  /// Largest offset + 1 of anything received (flow-control accounting, §4.1).
  uint64_t highest_received() const { return highest_; }
  std::optional<uint64_t> final_size() const { return final_size_; }
  /// FIN received and every byte read.
  bool finished() const { return final_size_ && read_offset_ == *final_size_; }

 private:
  std::map<uint64_t, Bytes> chunks_;
  RangeSet received_;
  uint64_t read_offset_ = 0;
  uint64_t highest_ = 0;
  std::optional<uint64_t> final_size_;
};

}  // namespace conform::quic
