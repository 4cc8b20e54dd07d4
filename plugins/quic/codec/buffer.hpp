// Byte readers and writers for the wire codec: big-endian integers and
// varints (RFC 9000 §16). A Reader never reads past its span: every read
// returns false instead, so malformed input cannot crash the decoder.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "codec/varint.hpp"

namespace conform::quic {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

class Reader {
 public:
  explicit Reader(ByteView data) : data_(data) {}

  size_t remaining() const { return data_.size() - pos_; }
  size_t position() const { return pos_; }
  bool empty() const { return pos_ == data_.size(); }
  ByteView rest() const { return data_.subspan(pos_); }

  bool u8(uint8_t& v) {
    if (remaining() < 1) return false;
    v = data_[pos_++];
    return true;
  }
  /// An unsigned big-endian integer of `len` bytes (1..8).
  bool uint(size_t len, uint64_t& v) {
    if (remaining() < len) return false;
    v = 0;
    for (size_t i = 0; i < len; ++i) v = (v << 8) | data_[pos_++];
    return true;
  }
  bool u32(uint32_t& v) {
    uint64_t x;
    if (!uint(4, x)) return false;
    v = static_cast<uint32_t>(x);
    return true;
  }
  bool varint(uint64_t& v) {
    if (remaining() < 1) return false;
    const size_t len = size_t{1} << (data_[pos_] >> 6);
    if (remaining() < len) return false;
    v = data_[pos_++] & 0x3f;
    for (size_t i = 1; i < len; ++i) v = (v << 8) | data_[pos_++];
    return true;
  }
  bool bytes(size_t len, ByteView& out) {
    if (remaining() < len) return false;
    out = data_.subspan(pos_, len);
    pos_ += len;
    return true;
  }
  bool skip(size_t len) {
    if (remaining() < len) return false;
    pos_ += len;
    return true;
  }

 private:
  ByteView data_;
  size_t pos_ = 0;
};

/// Appends to a byte vector it does not own.
class Writer {
 public:
  explicit Writer(Bytes& out) : out_(out) {}

  size_t size() const { return out_.size(); }
  void u8(uint8_t v) { out_.push_back(v); }
  void uint(uint64_t v, size_t len) {
    for (size_t i = len; i-- > 0;) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  /// Shortest encoding; the caller keeps v <= kMaxVarint.
  void varint(uint64_t v) { varint_fixed(v, varint_size(v)); }
  void varint_fixed(uint64_t v, size_t len) {
    const size_t at = out_.size();
    out_.resize(at + len);
    write_varint_fixed(out_.data() + at, v, len);
  }
  void bytes(ByteView b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void zeros(size_t n) { out_.insert(out_.end(), n, 0); }

 private:
  Bytes& out_;
};

}  // namespace conform::quic
