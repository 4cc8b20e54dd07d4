// The violation injector: what the in-house endpoint sends that RFC 9000,
// RFC 9001 or RFC 9114 forbid, to see whether the peer answers with the CONNECTION_CLOSE the
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
  /// Its first Handshake packet with its reserved header bits set (§17.2).
  reserved_bits_set_long_header,
  /// MAX_STREAMS (uni) carrying 2^60 + 1 (§19.11).
  max_streams_beyond_2_60,
  /// MAX_STREAM_DATA for a unidirectional stream of its own, which the
  /// receiver can only receive on (§19.10).
  max_stream_data_receive_only,
  /// RESET_STREAM for a unidirectional stream of the receiver's, which the
  /// receiver can only send on (§19.4).
  reset_stream_send_only,
  /// STREAM for a unidirectional stream of the receiver's (§19.8).
  stream_on_send_only,
  /// STREAM for a bidirectional stream of the receiver's it has not
  /// opened (§19.8).
  stream_on_unopened_stream,
  /// MAX_STREAM_DATA for a bidirectional stream of the receiver's it has
  /// not opened (§19.10).
  max_stream_data_unopened_stream,
  /// NEW_CONNECTION_ID whose connection ID is zero bytes long (§19.15).
  new_connection_id_zero_length,
  /// PATH_CHALLENGE in a Handshake packet, its first one (§12.4).
  path_challenge_in_handshake,
  /// A 1-RTT packet with no frames, in a datagram of its own (§12.4).
  packet_without_frames,
  // TLS (RFC 9001):
  /// A TLS KeyUpdate message in a 1-RTT CRYPTO frame (§6).
  key_update,
  /// A TLS KeyUpdate message right after its Finished, in the Handshake
  /// space (§6).
  key_update_in_handshake,
  /// A client offering only ALPN "conform-violation", which no server
  /// speaks (§8.1).
  no_common_alpn,
  /// Its first TLS message (a client's ClientHello, a server's
  /// EncryptedExtensions) without the quic_transport_parameters extension
  /// (§8.2).
  transport_parameters_extension_missing,
  // HTTP/3 (RFC 9114), by conform-quic's HTTP/3 (h3/h3_connection.hpp):
  /// Its control stream opens with GOAWAY, SETTINGS after it (§6.2.1).
  h3_control_stream_without_settings_first,
  /// A DATA frame on its control stream after SETTINGS (§7.2.1).
  h3_data_on_control_stream,
  /// A second SETTINGS on its control stream (§7.2.4).
  h3_second_settings,
  /// A DATA frame before the HEADERS of its request or response (§4.1).
  h3_data_before_headers,
  // Transport parameters (§18.2, §7.4), in its first flight:
  /// ack_delay_exponent 21 (values above 20 are invalid).
  ack_delay_exponent_above_20,
  /// max_ack_delay 2^14 ms (2^14 or greater is invalid).
  max_ack_delay_2_14,
  /// max_udp_payload_size 1199 (below 1200 is invalid).
  max_udp_payload_size_below_1200,
  /// A client's stateless_reset_token, a server-only parameter.
  stateless_reset_token_from_client,
  /// A client's original_destination_connection_id, a server-only parameter.
  original_destination_connection_id_from_client,
  /// A client's retry_source_connection_id, a server-only parameter.
  retry_source_connection_id_from_client,
  /// A client's preferred_address, a server-only parameter.
  preferred_address_from_client,
  /// No initial_source_connection_id (§7.3).
  initial_source_connection_id_missing,
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

/// The frame bytes of a violation sent by `is_server`'s endpoint in a
/// 1-RTT packet (or, path_challenge_in_handshake, a Handshake one), or
/// nothing when it is not made of frames (reserved bits, transport
/// parameters) or is the other side's to commit (HANDSHAKE_DONE,
/// NEW_TOKEN, stateless_reset_token: a client's).
std::optional<Bytes> violation_frames(Violation v, bool is_server);

/// Whether the violation is HTTP/3's, which only conform-quic's HTTP/3
/// commits.
bool of_http3(Violation v);

/// Whether the violation is in the transport parameters (applied by
/// break_transport_parameters).
bool in_transport_parameters(Violation v);

/// The TLS KeyUpdate message (RFC 8446 §4.6.3), update_not_requested.
Bytes key_update_message();

/// Removes the quic_transport_parameters extension (0x39) from `message`, a
/// ClientHello or an EncryptedExtensions (RFC 8446 §4) at the start of
/// what TLS wrote, and mends the lengths; false if it found none.
bool remove_transport_parameters_extension(Bytes& message);

struct TransportParameters;
/// Puts the transport parameter violation `v` into `tp`, as `is_server`'s.
void break_transport_parameters(Violation v, bool is_server, TransportParameters& tp);

}  // namespace conform::quic
