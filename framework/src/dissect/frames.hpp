// The QUIC frames a packet payload carries, one struct per frame type of
// RFC 9000 §19 plus DATAGRAM (RFC 9221 §4), with their fields as decoded
// (integers as sent, not scaled: ACK Delay stays in units of
// 2^ack_delay_exponent microseconds, because the exponent is a transport
// parameter the checks read separately). Data-carrying frames keep where
// their data sits in the packet's plaintext, not a copy of it.
#pragma once

#include "dissect/bytes.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace conform::dissect {

/// A run of consecutive PADDING bytes (type 0x00, §19.1), kept as one entry
/// as Wireshark shows it.
struct PaddingFrame { std::uint64_t count = 0; };
/// PING (0x01, §19.2).
struct PingFrame {};

/// One range of acknowledged packet numbers, inclusive.
struct AckRange {
  std::uint64_t smallest = 0;
  std::uint64_t largest = 0;
};
struct EcnCounts {
  std::uint64_t ect0 = 0, ect1 = 0, ce = 0;
};
/// ACK (0x02, or 0x03 with ECN counts; §19.3). `ranges` are the
/// acknowledged packet numbers, highest first, as decoded from First ACK
/// Range and the (Gap, ACK Range Length) pairs (§19.3.1).
struct AckFrame {
  std::uint64_t largest = 0;
  std::uint64_t ack_delay = 0;  // raw field; microseconds × 2^-ack_delay_exponent
  std::vector<AckRange> ranges;
  std::optional<EcnCounts> ecn;

  /// Whether packet number `pn` is in one of the ranges.
  bool acknowledges(std::uint64_t pn) const {
    for (const auto& r : ranges)
      if (r.smallest <= pn && pn <= r.largest) return true;
    return false;
  }
};

/// RESET_STREAM (0x04, §19.4).
struct ResetStreamFrame { std::uint64_t stream_id = 0, error_code = 0, final_size = 0; };
/// STOP_SENDING (0x05, §19.5).
struct StopSendingFrame { std::uint64_t stream_id = 0, error_code = 0; };
/// CRYPTO (0x06, §19.6); the data is at `data_at` in the plaintext payload.
struct CryptoFrame { std::uint64_t offset = 0, length = 0; std::size_t data_at = 0; };
/// NEW_TOKEN (0x07, §19.7).
struct NewTokenFrame { Bytes token; };
/// STREAM (0x08-0x0f, §19.8). `has_length` is the LEN bit: without it the
/// data runs to the end of the packet. `offset` is 0 when the OFF bit is clear.
struct StreamFrame {
  std::uint64_t stream_id = 0, offset = 0, length = 0;
  bool fin = false;
  bool has_offset = false;
  bool has_length = false;
  std::size_t data_at = 0;
};
/// MAX_DATA (0x10, §19.9): bytes.
struct MaxDataFrame { std::uint64_t maximum = 0; };
/// MAX_STREAM_DATA (0x11, §19.10): bytes.
struct MaxStreamDataFrame { std::uint64_t stream_id = 0, maximum = 0; };
/// MAX_STREAMS (0x12 bidirectional, 0x13 unidirectional; §19.11): a count of streams.
struct MaxStreamsFrame { bool bidi = true; std::uint64_t maximum = 0; };
/// DATA_BLOCKED (0x14, §19.12): bytes.
struct DataBlockedFrame { std::uint64_t limit = 0; };
/// STREAM_DATA_BLOCKED (0x15, §19.13): bytes.
struct StreamDataBlockedFrame { std::uint64_t stream_id = 0, limit = 0; };
/// STREAMS_BLOCKED (0x16 bidirectional, 0x17 unidirectional; §19.14).
struct StreamsBlockedFrame { bool bidi = true; std::uint64_t limit = 0; };
/// NEW_CONNECTION_ID (0x18, §19.15).
struct NewConnectionIdFrame {
  std::uint64_t sequence = 0, retire_prior_to = 0;
  ConnectionId connection_id;
  std::array<std::uint8_t, 16> reset_token{};
};
/// RETIRE_CONNECTION_ID (0x19, §19.16).
struct RetireConnectionIdFrame { std::uint64_t sequence = 0; };
/// PATH_CHALLENGE (0x1a, §19.17) and PATH_RESPONSE (0x1b, §19.18).
struct PathChallengeFrame { std::array<std::uint8_t, 8> data{}; };
struct PathResponseFrame { std::array<std::uint8_t, 8> data{}; };
/// CONNECTION_CLOSE (0x1c transport, with the offending frame type; 0x1d
/// application; §19.19). The reason phrase is kept as sent (UTF-8 expected,
/// not checked).
struct ConnectionCloseFrame {
  bool application = false;
  std::uint64_t error_code = 0;
  std::optional<std::uint64_t> frame_type;
  std::string reason;
};
/// HANDSHAKE_DONE (0x1e, §19.20).
struct HandshakeDoneFrame {};
/// DATAGRAM (0x30 without, 0x31 with a Length field; RFC 9221 §4).
struct DatagramFrame { std::uint64_t length = 0; bool has_length = false; std::size_t data_at = 0; };
/// IMMEDIATE_ACK (0x1f, QUIC Acknowledgment Frequency,
/// draft-ietf-quic-ack-frequency §5): asks the peer to acknowledge at once;
/// no fields. quinn 0.11 sends it with PING and PADDING.
struct ImmediateAckFrame {};

/// A frame type this dissector does not know, from an extension
/// (RFC 9000 §19.21): not an error of the sender, which may have negotiated
/// it, but its length is unknown, so parsing stops here; `remaining` counts
/// the bytes from `offset` to the end of the payload.
struct UnknownFrame {
  std::uint64_t type = 0;
  std::size_t offset = 0;  // in the plaintext payload
  std::size_t remaining = 0;
};

/// Bytes that are not a well-formed frame: an unknown type, a field cut
/// short, or a value the RFC forbids (FRAME_ENCODING_ERROR territory).
/// Parsing stops here because frame boundaries are lost; `remaining` counts
/// the bytes from `offset` to the end of the payload, so nothing is dropped
/// without a trace.
struct MalformedFrame {
  std::optional<std::uint64_t> type;  // absent when even the type did not decode
  std::size_t offset = 0;             // in the plaintext payload
  std::size_t remaining = 0;
  std::string reason;
};

using Frame = std::variant<PaddingFrame, PingFrame, AckFrame, ResetStreamFrame, StopSendingFrame,
                           CryptoFrame, NewTokenFrame, StreamFrame, MaxDataFrame, MaxStreamDataFrame,
                           MaxStreamsFrame, DataBlockedFrame, StreamDataBlockedFrame,
                           StreamsBlockedFrame, NewConnectionIdFrame, RetireConnectionIdFrame,
                           PathChallengeFrame, PathResponseFrame, ConnectionCloseFrame,
                           HandshakeDoneFrame, DatagramFrame, ImmediateAckFrame, UnknownFrame, MalformedFrame>;

/// The frame's name as RFC 9000 writes it ("STREAM", "MAX_STREAMS", ...);
/// "UNKNOWN" for UnknownFrame, "MALFORMED" for MalformedFrame.
std::string_view frame_name(const Frame& frame);

/// Whether a frame is ack-eliciting (RFC 9002 §2: all but ACK, PADDING and
/// CONNECTION_CLOSE; a malformed one elicits nothing).
bool ack_eliciting(const Frame& frame);

/// The names of every frame type the dissector knows, in the Frame
/// variant's order, UNKNOWN and MALFORMED left out.
const std::vector<std::string_view>& frame_names();

/// The frame type value that encodes this frame (e.g. 0x0b for a STREAM with
/// OFF and FIN, 0x13 for MAX_STREAMS uni), as tshark's quic.frame_type shows
/// it; a malformed frame gives its type if one was read.
std::optional<std::uint64_t> frame_type(const Frame& frame);

}  // namespace conform::dissect
