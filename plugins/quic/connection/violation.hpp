// The violation injector: what the in-house endpoint sends that RFC 9000
// forbids, to see whether the peer answers with the CONNECTION_CLOSE the
// RFC names (suites/violations). One violation per connection, sent once,
// in the first 1-RTT packet after the handshake is confirmed (RFC 9001
// §4.1.2: at a client, HANDSHAKE_DONE received; at a server, the handshake
// complete). Each name says what is sent and by whom; the RFC clause and
// the code the receiver MUST answer with live in the suite's cases.
#pragma once

#include <cstdint>
#include <optional>

#include "codec/buffer.hpp"

namespace conform::quic {

enum class Violation : uint8_t {
  none,
  /// HANDSHAKE_DONE from a client (§19.20).
  handshake_done_from_client,
  /// NEW_TOKEN from a client (§19.7).
  new_token_from_client,
  /// A frame of type 0x3e, which no RFC defines (§12.4).
  unknown_frame_type,
  /// STREAMS_BLOCKED (uni) carrying 2^60 + 1 (§19.14).
  streams_blocked_beyond_2_60,
  /// STOP_SENDING for a bidirectional stream of the receiver's it has not
  /// opened (§19.5).
  stop_sending_unopened_stream,
  /// NEW_CONNECTION_ID whose Retire Prior To (2) is above its Sequence
  /// Number (1) (§19.15).
  retire_prior_to_above_sequence,
  /// A 1-RTT packet whose reserved header bits are set (§17.3.1).
  reserved_bits_set,
};

/// What the receiver of a violation does (the `violations_answered` knob).
enum class ViolationAnswer : uint8_t {
  /// Closes with the code its check found (RFC 9000 §10.2, §20.1).
  rfc,
  /// The fault: the offending frame is dropped (a decoding error drops
  /// the rest of its packet), the reserved bits are not looked at, and the
  /// connection goes on.
  ignored,
};

/// The frame bytes of a violation sent by `is_server`'s endpoint, or
/// nothing when it is not made of frames (reserved_bits_set) or is the
/// other side's to commit (HANDSHAKE_DONE, NEW_TOKEN: a client's).
std::optional<Bytes> violation_frames(Violation v, bool is_server);

}  // namespace conform::quic
