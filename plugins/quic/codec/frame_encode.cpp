// Frame encoding, RFC 9000 §19, and the frame properties senders need
// (type code, ack-eliciting, header overhead).
#include "codec/frame.hpp"

namespace conform::quic {

namespace {

struct Encoder {
  Writer& w;

  void operator()(const PaddingFrame& f) { w.zeros(f.length); }
  void operator()(const PingFrame&) { w.varint(frame_type::ping); }
  void operator()(const AckFrame& a) {
    w.varint(a.has_ecn ? frame_type::ack_ecn : frame_type::ack);
    w.varint(a.ranges.front().largest);
    w.varint(a.ack_delay);
    w.varint(a.ranges.size() - 1);
    w.varint(a.ranges.front().largest - a.ranges.front().smallest);
    // §19.3.1: each gap counts the unacknowledged packets minus one, and
    // each range length the acknowledged ones minus one.
    for (size_t i = 1; i < a.ranges.size(); ++i) {
      w.varint(a.ranges[i - 1].smallest - a.ranges[i].largest - 2);
      w.varint(a.ranges[i].largest - a.ranges[i].smallest);
    }
    if (a.has_ecn) {
      w.varint(a.ect0);
      w.varint(a.ect1);
      w.varint(a.ce);
    }
  }
  void operator()(const ResetStreamFrame& f) {
    w.varint(frame_type::reset_stream);
    w.varint(f.stream_id);
    w.varint(f.error_code);
    w.varint(f.final_size);
  }
  void operator()(const StopSendingFrame& f) {
    w.varint(frame_type::stop_sending);
    w.varint(f.stream_id);
    w.varint(f.error_code);
  }
  void operator()(const CryptoFrame& f) {
    w.varint(frame_type::crypto);
    w.varint(f.offset);
    w.varint(f.data.size());
    w.bytes(f.data);
  }
  void operator()(const NewTokenFrame& f) {
    w.varint(frame_type::new_token);
    w.varint(f.token.size());
    w.bytes(f.token);
  }
  void operator()(const StreamFrame& f) {
    w.varint(type_of(Frame{f}));
    w.varint(f.stream_id);
    if (f.offset != 0) w.varint(f.offset);
    w.varint(f.data.size());
    w.bytes(f.data);
  }
  void operator()(const MaxDataFrame& f) { two(frame_type::max_data, f.maximum); }
  void operator()(const MaxStreamDataFrame& f) {
    w.varint(frame_type::max_stream_data);
    w.varint(f.stream_id);
    w.varint(f.maximum);
  }
  void operator()(const MaxStreamsFrame& f) {
    two(f.bidi ? frame_type::max_streams_bidi : frame_type::max_streams_uni, f.maximum);
  }
  void operator()(const DataBlockedFrame& f) { two(frame_type::data_blocked, f.limit); }
  void operator()(const StreamDataBlockedFrame& f) {
    w.varint(frame_type::stream_data_blocked);
    w.varint(f.stream_id);
    w.varint(f.limit);
  }
  void operator()(const StreamsBlockedFrame& f) {
    two(f.bidi ? frame_type::streams_blocked_bidi : frame_type::streams_blocked_uni, f.limit);
  }
  void operator()(const NewConnectionIdFrame& f) {
    w.varint(frame_type::new_connection_id);
    w.varint(f.sequence);
    w.varint(f.retire_prior_to);
    w.u8(f.cid.len);
    w.bytes(f.cid.view());
    w.bytes(f.reset_token);
  }
  void operator()(const RetireConnectionIdFrame& f) { two(frame_type::retire_connection_id, f.sequence); }
  void operator()(const PathChallengeFrame& f) {
    w.varint(frame_type::path_challenge);
    w.bytes(f.data);
  }
  void operator()(const PathResponseFrame& f) {
    w.varint(frame_type::path_response);
    w.bytes(f.data);
  }
  void operator()(const ConnectionCloseFrame& f) {
    w.varint(f.application ? frame_type::connection_close_app : frame_type::connection_close);
    w.varint(f.error_code);
    if (!f.application) w.varint(f.frame_type);
    w.varint(f.reason.size());
    w.bytes({reinterpret_cast<const uint8_t*>(f.reason.data()), f.reason.size()});
  }
  void operator()(const HandshakeDoneFrame&) { w.varint(frame_type::handshake_done); }

  void two(uint64_t type, uint64_t v) {
    w.varint(type);
    w.varint(v);
  }
};

struct TypeOf {
  uint64_t operator()(const PaddingFrame&) const { return frame_type::padding; }
  uint64_t operator()(const PingFrame&) const { return frame_type::ping; }
  uint64_t operator()(const AckFrame& a) const { return a.has_ecn ? frame_type::ack_ecn : frame_type::ack; }
  uint64_t operator()(const ResetStreamFrame&) const { return frame_type::reset_stream; }
  uint64_t operator()(const StopSendingFrame&) const { return frame_type::stop_sending; }
  uint64_t operator()(const CryptoFrame&) const { return frame_type::crypto; }
  uint64_t operator()(const NewTokenFrame&) const { return frame_type::new_token; }
  uint64_t operator()(const StreamFrame& f) const {
    return frame_type::stream | (f.offset ? 0x04 : 0) | 0x02 | (f.fin ? 0x01 : 0);
  }
  uint64_t operator()(const MaxDataFrame&) const { return frame_type::max_data; }
  uint64_t operator()(const MaxStreamDataFrame&) const { return frame_type::max_stream_data; }
  uint64_t operator()(const MaxStreamsFrame& f) const {
    return f.bidi ? frame_type::max_streams_bidi : frame_type::max_streams_uni;
  }
  uint64_t operator()(const DataBlockedFrame&) const { return frame_type::data_blocked; }
  uint64_t operator()(const StreamDataBlockedFrame&) const { return frame_type::stream_data_blocked; }
  uint64_t operator()(const StreamsBlockedFrame& f) const {
    return f.bidi ? frame_type::streams_blocked_bidi : frame_type::streams_blocked_uni;
  }
  uint64_t operator()(const NewConnectionIdFrame&) const { return frame_type::new_connection_id; }
  uint64_t operator()(const RetireConnectionIdFrame&) const { return frame_type::retire_connection_id; }
  uint64_t operator()(const PathChallengeFrame&) const { return frame_type::path_challenge; }
  uint64_t operator()(const PathResponseFrame&) const { return frame_type::path_response; }
  uint64_t operator()(const ConnectionCloseFrame& f) const {
    return f.application ? frame_type::connection_close_app : frame_type::connection_close;
  }
  uint64_t operator()(const HandshakeDoneFrame&) const { return frame_type::handshake_done; }
};

}  // namespace

uint64_t type_of(const Frame& f) { return std::visit(TypeOf{}, f); }

bool is_ack_eliciting(const Frame& f) {
  return !std::holds_alternative<AckFrame>(f) && !std::holds_alternative<PaddingFrame>(f) &&
         !std::holds_alternative<ConnectionCloseFrame>(f);
}

void encode_frame(Writer& w, const Frame& f) { std::visit(Encoder{w}, f); }

size_t encoded_size(const Frame& f) {
  Bytes tmp;
  Writer w(tmp);
  encode_frame(w, f);
  return tmp.size();
}

size_t stream_frame_overhead(uint64_t stream_id, uint64_t offset, size_t len) {
  return 1 + varint_size(stream_id) + (offset ? varint_size(offset) : 0) + varint_size(len);
}

size_t crypto_frame_overhead(uint64_t offset, size_t len) {
  return 1 + varint_size(offset) + varint_size(len);
}

}  // namespace conform::quic
