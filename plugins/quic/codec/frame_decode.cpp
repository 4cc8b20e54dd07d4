// Frame decoding, RFC 9000 §19. Each frame is read field by field through a
// bounds-checked Reader; any shortfall is FRAME_ENCODING_ERROR (§12.4).
#include <algorithm>
#include <initializer_list>

#include "codec/frame.hpp"

namespace conform::quic {

namespace {

constexpr uint64_t kMaxStreams = uint64_t{1} << 60;  // §19.11

TransportError encoding_error(uint64_t type, const char* what) {
  return TransportError(TransportErrorCode::frame_encoding_error, what, type);
}

Result<Frame> decode_ack(Reader& r, uint64_t type) {
  AckFrame a;
  uint64_t largest, range_count, first_range;
  if (!r.varint(largest) || !r.varint(a.ack_delay) || !r.varint(range_count) ||
      !r.varint(first_range))
    return encoding_error(type, "truncated ACK");
  if (first_range > largest) return encoding_error(type, "ACK first range below zero");
  // Each further range takes at least 2 bytes: bound the count before
  // reserving so a hostile count cannot allocate.
  if (range_count > r.remaining() / 2) return encoding_error(type, "ACK range count too large");
  a.ranges.reserve(static_cast<size_t>(range_count) + 1);
  uint64_t smallest = largest - first_range;
  a.ranges.push_back({smallest, largest});
  for (uint64_t i = 0; i < range_count; ++i) {
    uint64_t gap, len;
    if (!r.varint(gap) || !r.varint(len)) return encoding_error(type, "truncated ACK range");
    // §19.3.1: next largest = previous smallest - gap - 2.
    if (smallest < gap + 2) return encoding_error(type, "ACK gap below zero");
    const uint64_t next_largest = smallest - gap - 2;
    if (len > next_largest) return encoding_error(type, "ACK range below zero");
    smallest = next_largest - len;
    a.ranges.push_back({smallest, next_largest});
  }
  if (type == frame_type::ack_ecn) {
    a.has_ecn = true;
    if (!r.varint(a.ect0) || !r.varint(a.ect1) || !r.varint(a.ce))
      return encoding_error(type, "truncated ECN counts");
  }
  return Frame{std::move(a)};
}

Result<Frame> decode_stream(Reader& r, uint64_t type) {
  StreamFrame s;
  s.fin = type & 0x01;
  uint64_t len = 0;
  if (!r.varint(s.stream_id)) return encoding_error(type, "truncated STREAM");
  if ((type & 0x04) && !r.varint(s.offset)) return encoding_error(type, "truncated STREAM offset");
  if (type & 0x02) {
    if (!r.varint(len)) return encoding_error(type, "truncated STREAM length");
  } else {
    len = r.remaining();
  }
  if (len > r.remaining()) return encoding_error(type, "STREAM data past the packet");
  r.bytes(static_cast<size_t>(len), s.data);
  if (s.offset + len > kMaxVarint)
    return TransportError(TransportErrorCode::frame_encoding_error, "STREAM beyond 2^62-1", type);
  return Frame{s};
}

Result<Frame> decode_close(Reader& r, uint64_t type) {
  ConnectionCloseFrame c;
  c.application = type == frame_type::connection_close_app;
  uint64_t reason_len;
  if (!r.varint(c.error_code)) return encoding_error(type, "truncated CONNECTION_CLOSE");
  if (!c.application && !r.varint(c.frame_type)) return encoding_error(type, "truncated CONNECTION_CLOSE");
  ByteView reason;
  if (!r.varint(reason_len) || reason_len > r.remaining() ||
      !r.bytes(static_cast<size_t>(reason_len), reason))
    return encoding_error(type, "truncated CONNECTION_CLOSE reason");
  c.reason.assign(reason.begin(), reason.end());
  return Frame{std::move(c)};
}

Result<Frame> decode_new_cid(Reader& r, uint64_t type) {
  NewConnectionIdFrame f;
  uint8_t len;
  ByteView cid, token;
  if (!r.varint(f.sequence) || !r.varint(f.retire_prior_to) || !r.u8(len))
    return encoding_error(type, "truncated NEW_CONNECTION_ID");
  if (len < 1 || len > 20) return encoding_error(type, "NEW_CONNECTION_ID length");
  if (f.retire_prior_to > f.sequence) return encoding_error(type, "retire_prior_to > sequence");
  if (!r.bytes(len, cid) || !r.bytes(16, token)) return encoding_error(type, "truncated NEW_CONNECTION_ID");
  f.cid = ConnectionId(cid);
  std::copy(token.begin(), token.end(), f.reset_token.begin());
  return Frame{f};
}

}  // namespace

Result<Frame> decode_frame(Reader& r) {
  uint64_t type;
  if (!r.varint(type)) return encoding_error(0, "truncated frame type");
  auto need = [&](std::initializer_list<uint64_t*> fields) {
    for (uint64_t* f : fields)
      if (!r.varint(*f)) return false;
    return true;
  };
  switch (type) {
    case frame_type::padding: {
      PaddingFrame p;
      while (!r.empty() && r.rest()[0] == 0) { r.skip(1); ++p.length; }
      return Frame{p};
    }
    case frame_type::ping: return Frame{PingFrame{}};
    case frame_type::ack:
    case frame_type::ack_ecn: return decode_ack(r, type);
    case frame_type::reset_stream: {
      ResetStreamFrame f;
      if (!need({&f.stream_id, &f.error_code, &f.final_size})) return encoding_error(type, "truncated RESET_STREAM");
      return Frame{f};
    }
    case frame_type::stop_sending: {
      StopSendingFrame f;
      if (!need({&f.stream_id, &f.error_code})) return encoding_error(type, "truncated STOP_SENDING");
      return Frame{f};
    }
    case frame_type::crypto: {
      CryptoFrame f;
      uint64_t len;
      if (!need({&f.offset, &len}) || len > r.remaining()) return encoding_error(type, "truncated CRYPTO");
      if (f.offset + len > kMaxVarint) return encoding_error(type, "CRYPTO beyond 2^62-1");
      r.bytes(static_cast<size_t>(len), f.data);
      return Frame{f};
    }
    case frame_type::new_token: {
      NewTokenFrame f;
      uint64_t len;
      if (!need({&len}) || len == 0 || len > r.remaining()) return encoding_error(type, "bad NEW_TOKEN");
      r.bytes(static_cast<size_t>(len), f.token);
      return Frame{f};
    }
    case frame_type::max_data: {
      MaxDataFrame f;
      if (!need({&f.maximum})) return encoding_error(type, "truncated MAX_DATA");
      return Frame{f};
    }
    case frame_type::max_stream_data: {
      MaxStreamDataFrame f;
      if (!need({&f.stream_id, &f.maximum})) return encoding_error(type, "truncated MAX_STREAM_DATA");
      return Frame{f};
    }
    case frame_type::max_streams_bidi:
    case frame_type::max_streams_uni: {
      MaxStreamsFrame f{type == frame_type::max_streams_bidi, 0};
      if (!need({&f.maximum})) return encoding_error(type, "truncated MAX_STREAMS");
      if (f.maximum > kMaxStreams) return encoding_error(type, "MAX_STREAMS over 2^60");
      return Frame{f};
    }
    case frame_type::data_blocked: {
      DataBlockedFrame f;
      if (!need({&f.limit})) return encoding_error(type, "truncated DATA_BLOCKED");
      return Frame{f};
    }
    case frame_type::stream_data_blocked: {
      StreamDataBlockedFrame f;
      if (!need({&f.stream_id, &f.limit})) return encoding_error(type, "truncated STREAM_DATA_BLOCKED");
      return Frame{f};
    }
    case frame_type::streams_blocked_bidi:
    case frame_type::streams_blocked_uni: {
      StreamsBlockedFrame f{type == frame_type::streams_blocked_bidi, 0};
      if (!need({&f.limit})) return encoding_error(type, "truncated STREAMS_BLOCKED");
      if (f.limit > kMaxStreams) return encoding_error(type, "STREAMS_BLOCKED over 2^60");
      return Frame{f};
    }
    case frame_type::new_connection_id: return decode_new_cid(r, type);
    case frame_type::retire_connection_id: {
      RetireConnectionIdFrame f;
      if (!need({&f.sequence})) return encoding_error(type, "truncated RETIRE_CONNECTION_ID");
      return Frame{f};
    }
    case frame_type::path_challenge:
    case frame_type::path_response: {
      ByteView d;
      if (!r.bytes(8, d)) return encoding_error(type, "truncated PATH frame");
      std::array<uint8_t, 8> data{};
      std::copy(d.begin(), d.end(), data.begin());
      if (type == frame_type::path_challenge) return Frame{PathChallengeFrame{data}};
      return Frame{PathResponseFrame{data}};
    }
    case frame_type::connection_close:
    case frame_type::connection_close_app: return decode_close(r, type);
    case frame_type::handshake_done: return Frame{HandshakeDoneFrame{}};
    default:
      if (type >= 0x08 && type <= 0x0f) return decode_stream(r, type);
      return encoding_error(type, "unknown frame type");
  }
}

}  // namespace conform::quic
