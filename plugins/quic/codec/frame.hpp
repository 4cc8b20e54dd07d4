// QUIC v1 frames, RFC 9000 §19: one struct per frame type, a variant over
// them, and the decoder/encoder. Decoded frames borrow their byte fields
// (CRYPTO/STREAM data, tokens, reasons) from the packet buffer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "codec/buffer.hpp"
#include "codec/connection_id.hpp"
#include "codec/error.hpp"

namespace conform::quic {

/// Frame type codes, RFC 9000 §19 / Table 3 (STREAM is 0x08..0x0f).
namespace frame_type {
inline constexpr uint64_t padding = 0x00, ping = 0x01, ack = 0x02, ack_ecn = 0x03,
                          reset_stream = 0x04, stop_sending = 0x05, crypto = 0x06,
                          new_token = 0x07, stream = 0x08, max_data = 0x10,
                          max_stream_data = 0x11, max_streams_bidi = 0x12,
                          max_streams_uni = 0x13, data_blocked = 0x14,
                          stream_data_blocked = 0x15, streams_blocked_bidi = 0x16,
                          streams_blocked_uni = 0x17, new_connection_id = 0x18,
                          retire_connection_id = 0x19, path_challenge = 0x1a,
                          path_response = 0x1b, connection_close = 0x1c,
                          connection_close_app = 0x1d, handshake_done = 0x1e;
}

/// A run of PADDING bytes (§19.1), decoded as one frame.
struct PaddingFrame { size_t length = 1; };
struct PingFrame {};                                           // §19.2
/// One acknowledged range [smallest, largest], inclusive.
struct AckRange { uint64_t smallest = 0, largest = 0; };
/// ACK (§19.3). `ranges` is in descending order, ranges[0] holds Largest
/// Acknowledged. `ack_delay` is the raw field; multiply by
/// 2^ack_delay_exponent microseconds (§18.2) to get time.
struct AckFrame {
  std::vector<AckRange> ranges;
  uint64_t ack_delay = 0;
  bool has_ecn = false;
  uint64_t ect0 = 0, ect1 = 0, ce = 0;
  uint64_t largest() const { return ranges.empty() ? 0 : ranges.front().largest; }
};
struct ResetStreamFrame { uint64_t stream_id = 0, error_code = 0, final_size = 0; };   // §19.4
struct StopSendingFrame { uint64_t stream_id = 0, error_code = 0; };                   // §19.5
struct CryptoFrame { uint64_t offset = 0; ByteView data; };                          // §19.6
struct NewTokenFrame { ByteView token; };                                             // §19.7
/// STREAM (§19.8). `offset + data.size()` stays within 2^62 - 1.
struct StreamFrame { uint64_t stream_id = 0, offset = 0; ByteView data; bool fin = false; };
struct MaxDataFrame { uint64_t maximum = 0; };                                        // §19.9
struct MaxStreamDataFrame { uint64_t stream_id = 0, maximum = 0; };                   // §19.10
/// MAX_STREAMS (§19.11): a cumulative count of streams, at most 2^60.
struct MaxStreamsFrame { bool bidi = true; uint64_t maximum = 0; };
struct DataBlockedFrame { uint64_t limit = 0; };                                      // §19.12
struct StreamDataBlockedFrame { uint64_t stream_id = 0, limit = 0; };                 // §19.13
struct StreamsBlockedFrame { bool bidi = true; uint64_t limit = 0; };                 // §19.14
struct NewConnectionIdFrame {                                                         // §19.15
  uint64_t sequence = 0, retire_prior_to = 0;
  ConnectionId cid;
  std::array<uint8_t, 16> reset_token{};
};
struct RetireConnectionIdFrame { uint64_t sequence = 0; };                            // §19.16
struct PathChallengeFrame { std::array<uint8_t, 8> data{}; };                         // §19.17
struct PathResponseFrame { std::array<uint8_t, 8> data{}; };                          // §19.18
/// CONNECTION_CLOSE (§19.19): type 0x1c (transport, with the offending frame
/// type) or 0x1d (application).
struct ConnectionCloseFrame {
  bool application = false;
  uint64_t error_code = 0, frame_type = 0;
  std::string reason;
};
struct HandshakeDoneFrame {};                                                         // §19.20

using Frame = std::variant<PaddingFrame, PingFrame, AckFrame, ResetStreamFrame, StopSendingFrame,
                           CryptoFrame, NewTokenFrame, StreamFrame, MaxDataFrame,
                           MaxStreamDataFrame, MaxStreamsFrame, DataBlockedFrame,
                           StreamDataBlockedFrame, StreamsBlockedFrame, NewConnectionIdFrame,
                           RetireConnectionIdFrame, PathChallengeFrame, PathResponseFrame,
                           ConnectionCloseFrame, HandshakeDoneFrame>;

/// The wire type code of a frame (STREAM reports 0x08 | its flags as written).
uint64_t type_of(const Frame& f);

/// True for frames that make the receiver acknowledge (RFC 9002 §2):
/// everything except ACK, PADDING and CONNECTION_CLOSE.
bool is_ack_eliciting(const Frame& f);

/// Decodes one frame. Errors (RFC 9000 §12.4, §19): FRAME_ENCODING_ERROR for
/// a truncated or malformed frame or an unknown type, with the frame type
/// set; the values a frame carries are range-checked here (e.g. MAX_STREAMS
/// over 2^60, a STREAM running past 2^62 - 1) so callers see only valid ones.
Result<Frame> decode_frame(Reader& r);

/// Appends the frame. STREAM frames are written with an explicit Length and
/// an Offset field when the offset is not 0.
void encode_frame(Writer& w, const Frame& f);
/// Bytes encode_frame appends for `f`.
size_t encoded_size(const Frame& f);

/// Bytes a STREAM frame header takes for these fields (type, id, offset,
/// length), so a sender can fit data into the room left in a packet.
size_t stream_frame_overhead(uint64_t stream_id, uint64_t offset, size_t len);
/// Same for CRYPTO (type, offset, length).
size_t crypto_frame_overhead(uint64_t offset, size_t len);

}  // namespace conform::quic
