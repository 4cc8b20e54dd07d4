// HTTP/3 frames (RFC 9114 §7): a varint type, a varint length and the
// payload, carried on request streams and the control stream; and the codes
// HTTP/3 puts in stream and connection errors (§8.1).
#pragma once

#include <cstdint>
#include <vector>

#include "codec/buffer.hpp"

namespace conform::quic::h3 {

namespace frame_type {
inline constexpr uint64_t data = 0x00;
inline constexpr uint64_t headers = 0x01;
inline constexpr uint64_t cancel_push = 0x03;
inline constexpr uint64_t settings = 0x04;
inline constexpr uint64_t push_promise = 0x05;
inline constexpr uint64_t goaway = 0x07;
inline constexpr uint64_t max_push_id = 0x0d;
}  // namespace frame_type

/// Unidirectional stream types (RFC 9114 §6.2, RFC 9204 §4.2).
namespace stream_type {
inline constexpr uint64_t control = 0x00;
inline constexpr uint64_t push = 0x01;
inline constexpr uint64_t qpack_encoder = 0x02;
inline constexpr uint64_t qpack_decoder = 0x03;
}  // namespace stream_type

/// SETTINGS identifiers (RFC 9114 §7.2.4.1, RFC 9204 §5).
namespace setting {
inline constexpr uint64_t qpack_max_table_capacity = 0x01;
inline constexpr uint64_t max_field_section_size = 0x06;
inline constexpr uint64_t qpack_blocked_streams = 0x07;
}  // namespace setting

/// Error codes (RFC 9114 §8.1, RFC 9204 §6).
namespace error {
inline constexpr uint64_t no_error = 0x100;
inline constexpr uint64_t general_protocol_error = 0x101;
inline constexpr uint64_t internal_error = 0x102;
inline constexpr uint64_t stream_creation_error = 0x103;
inline constexpr uint64_t closed_critical_stream = 0x104;
inline constexpr uint64_t frame_unexpected = 0x105;
inline constexpr uint64_t frame_error = 0x106;
inline constexpr uint64_t excessive_load = 0x107;
inline constexpr uint64_t settings_error = 0x109;
inline constexpr uint64_t missing_settings = 0x10a;
inline constexpr uint64_t message_error = 0x10e;
inline constexpr uint64_t qpack_decompression_failed = 0x200;
}  // namespace error

/// Appends one frame.
void write_frame(Bytes& out, uint64_t type, ByteView payload);

/// One step of a FrameReader.
struct FramePiece {
  enum Kind : uint8_t { need_more, frame, data, error } kind = need_more;
  uint64_t type = 0;  ///< frame: its type.
  Bytes payload;      ///< frame: the whole payload; data: the next DATA bytes.
};

/// Splits a stream's bytes into frames. DATA payloads come out as they
/// arrive (a body can be large); any other frame only whole, and at most
/// kMaxFrame bytes, beyond which the reader fails with H3_EXCESSIVE_LOAD
/// (RFC 9114 §10.5: an endpoint limits what it buffers).
class FrameReader {
 public:
  static constexpr uint64_t kMaxFrame = 64 * 1024;

  void feed(ByteView bytes) { buf_.insert(buf_.end(), bytes.begin(), bytes.end()); }
  FramePiece next();
  /// No partial frame is pending (a stream may end here).
  bool at_boundary() const { return data_left_ == 0 && pos_ == buf_.size(); }

 private:
  void compact();
  Bytes buf_;
  size_t pos_ = 0;
  uint64_t data_left_ = 0;  ///< DATA payload bytes still to come
};

}  // namespace conform::quic::h3
