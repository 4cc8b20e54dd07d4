// HTTP/3 frame writing and incremental reading, RFC 9114 §7.1.
#include "h3/frame.hpp"

namespace conform::quic::h3 {

void write_frame(Bytes& out, uint64_t type, ByteView payload) {
  Writer w(out);
  w.varint(type);
  w.varint(payload.size());
  w.bytes(payload);
}

void FrameReader::compact() {
  if (pos_ > 4096 && pos_ * 2 > buf_.size()) {
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
  }
}

FramePiece FrameReader::next() {
  FramePiece piece;
  while (true) {
    const ByteView rest = ByteView(buf_).subspan(pos_);
    if (data_left_ > 0) {
      if (rest.empty()) return piece;
      const size_t n = static_cast<size_t>(std::min<uint64_t>(data_left_, rest.size()));
      piece.kind = FramePiece::data;
      piece.payload.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(n));
      pos_ += n;
      data_left_ -= n;
      compact();
      return piece;
    }
    Reader r(rest);
    uint64_t type, length;
    if (!r.varint(type) || !r.varint(length)) return piece;
    if (type == frame_type::data) {  // its payload streams out on the next turn
      pos_ += r.position();
      data_left_ = length;
      continue;
    }
    if (length > kMaxFrame) {
      piece.kind = FramePiece::error;
      return piece;
    }
    ByteView payload;
    if (!r.bytes(length, payload)) return piece;
    piece.kind = FramePiece::frame;
    piece.type = type;
    piece.payload.assign(payload.begin(), payload.end());
    pos_ += r.position();
    compact();
    return piece;
  }
}

}  // namespace conform::quic::h3
