#include "connection/violation.hpp"

#include "codec/frame.hpp"
#include "connection/stream_id.hpp"

namespace conform::quic {

std::optional<Bytes> violation_frames(Violation v, bool is_server) {
  Bytes out;
  Writer w(out);
  switch (v) {
    case Violation::none:
    case Violation::reserved_bits_set:
      return std::nullopt;
    case Violation::handshake_done_from_client:
      if (is_server) return std::nullopt;
      w.varint(frame_type::handshake_done);
      break;
    case Violation::new_token_from_client:
      if (is_server) return std::nullopt;
      w.varint(frame_type::new_token);
      w.varint(4);
      for (uint8_t b : {'t', 'o', 'k', 'n'}) w.u8(b);
      break;
    case Violation::unknown_frame_type:
      w.varint(0x3e);
      break;
    case Violation::streams_blocked_beyond_2_60:
      w.varint(frame_type::streams_blocked_uni);
      w.varint((uint64_t{1} << 60) + 1);
      break;
    case Violation::stop_sending_unopened_stream:
      // The 101st bidirectional stream the receiver could open (§2.1).
      w.varint(frame_type::stop_sending);
      w.varint(make_stream_id(100, !is_server, Dir::bidi));
      w.varint(0);
      break;
    case Violation::retire_prior_to_above_sequence:
      w.varint(frame_type::new_connection_id);
      w.varint(1);
      w.varint(2);
      w.u8(8);
      for (int i = 0; i < 8; ++i) w.u8(static_cast<uint8_t>(0xc0 + i));
      for (int i = 0; i < 16; ++i) w.u8(static_cast<uint8_t>(0x50 + i));
      break;
  }
  return out;
}

}  // namespace conform::quic
