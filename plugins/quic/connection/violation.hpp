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

/// What the endpoint sends; each value's spelling and meaning are its row of
/// kViolations below.
enum class Violation : uint8_t {
  none,
  handshake_done_from_client,
  new_token_from_client,
  unknown_frame_type,
  streams_blocked_beyond_2_60,
  stop_sending_unopened_stream,
  retire_prior_to_above_sequence,
  reserved_bits_set,
  reserved_bits_set_long_header,
  max_streams_beyond_2_60,
  max_stream_data_receive_only,
  reset_stream_send_only,
  stream_on_send_only,
  stream_on_unopened_stream,
  max_stream_data_unopened_stream,
  new_connection_id_zero_length,
  path_challenge_in_handshake,
  packet_without_frames,
  key_update,
  key_update_in_handshake,
  no_common_alpn,
  transport_parameters_extension_missing,
  h3_control_stream_without_settings_first,
  h3_data_on_control_stream,
  h3_second_settings,
  h3_data_before_headers,
  ack_delay_exponent_above_20,
  max_ack_delay_2_14,
  max_udp_payload_size_below_1200,
  stateless_reset_token_from_client,
  original_destination_connection_id_from_client,
  retry_source_connection_id_from_client,
  preferred_address_from_client,
  initial_source_connection_id_missing,
};

/// One violation as the `violation` knob spells it and as its documentation
/// (docs/plugins.md, generated) describes it.
struct ViolationDoc {
  Violation value;
  const char* name;
  const char* what;
};

/// Every violation, in the order the knob's documentation lists them.
/// Sections are RFC 9000's unless named.
inline constexpr ViolationDoc kViolations[] = {
    {Violation::none, "none", "nothing"},
    {Violation::handshake_done_from_client, "handshake_done_from_client", "HANDSHAKE_DONE from a client (§19.20)"},
    {Violation::new_token_from_client, "new_token_from_client", "NEW_TOKEN from a client (§19.7)"},
    {Violation::unknown_frame_type, "unknown_frame_type", "a frame of type 0x3e, which no RFC defines (§12.4)"},
    {Violation::streams_blocked_beyond_2_60, "streams_blocked_beyond_2_60", "STREAMS_BLOCKED (uni) carrying 2^60 + 1 (§19.14)"},
    {Violation::stop_sending_unopened_stream, "stop_sending_unopened_stream",
     "STOP_SENDING for a bidirectional stream of the receiver's it has not opened (§19.5)"},
    {Violation::retire_prior_to_above_sequence, "retire_prior_to_above_sequence",
     "NEW_CONNECTION_ID whose Retire Prior To (2) is above its Sequence Number (1) (§19.15)"},
    {Violation::reserved_bits_set, "reserved_bits_set", "a 1-RTT packet whose reserved header bits are set (§17.3.1)"},
    {Violation::reserved_bits_set_long_header, "reserved_bits_set_long_header",
     "its first Handshake packet with CRYPTO, its reserved header bits set (§17.2)"},
    {Violation::max_streams_beyond_2_60, "max_streams_beyond_2_60", "MAX_STREAMS (uni) carrying 2^60 + 1 (§19.11)"},
    {Violation::max_stream_data_receive_only, "max_stream_data_receive_only",
     "MAX_STREAM_DATA for a unidirectional stream of its own, which the receiver can only receive on (§19.10)"},
    {Violation::reset_stream_send_only, "reset_stream_send_only",
     "RESET_STREAM for a unidirectional stream of the receiver's, which the receiver can only send on (§19.4)"},
    {Violation::stream_on_send_only, "stream_on_send_only", "STREAM for a unidirectional stream of the receiver's (§19.8)"},
    {Violation::stream_on_unopened_stream, "stream_on_unopened_stream",
     "STREAM for a bidirectional stream of the receiver's it has not opened (§19.8)"},
    {Violation::max_stream_data_unopened_stream, "max_stream_data_unopened_stream",
     "MAX_STREAM_DATA for a bidirectional stream of the receiver's it has not opened (§19.10)"},
    {Violation::new_connection_id_zero_length, "new_connection_id_zero_length",
     "NEW_CONNECTION_ID whose connection ID is zero bytes long (§19.15)"},
    {Violation::path_challenge_in_handshake, "path_challenge_in_handshake",
     "PATH_CHALLENGE in its first Handshake packet with CRYPTO (§12.4)"},
    {Violation::packet_without_frames, "packet_without_frames", "a 1-RTT packet with no frames, alone in its datagram (§12.4)"},
    {Violation::key_update, "key_update", "a TLS KeyUpdate message in a 1-RTT CRYPTO frame (RFC 9001 §6)"},
    {Violation::key_update_in_handshake, "key_update_in_handshake",
     "a TLS KeyUpdate message right after its Finished, in the Handshake space (RFC 9001 §6)"},
    {Violation::no_common_alpn, "no_common_alpn",
     "a client offering only ALPN conform-violation, which no server speaks (RFC 9001 §8.1)"},
    {Violation::transport_parameters_extension_missing, "transport_parameters_extension_missing",
     "its first TLS message (a client's ClientHello, a server's EncryptedExtensions) without the "
     "quic_transport_parameters extension (RFC 9001 §8.2)"},
    // HTTP/3, committed by conform-quic's HTTP/3 (h3/h3_connection.hpp), the
    // external plugin's conform profile.
    {Violation::h3_control_stream_without_settings_first, "h3_control_stream_without_settings_first",
     "its HTTP/3 control stream opening with GOAWAY, SETTINGS after it (RFC 9114 §6.2.1; conform-quic only)"},
    {Violation::h3_data_on_control_stream, "h3_data_on_control_stream",
     "a DATA frame on its HTTP/3 control stream after SETTINGS (RFC 9114 §7.2.1; conform-quic only)"},
    {Violation::h3_second_settings, "h3_second_settings",
     "a second SETTINGS on its HTTP/3 control stream (RFC 9114 §7.2.4; conform-quic only)"},
    {Violation::h3_data_before_headers, "h3_data_before_headers",
     "a DATA frame before the HEADERS of its request or response (RFC 9114 §4.1; conform-quic only)"},
    // Transport parameters of its first flight (§18.2, §7.4).
    {Violation::ack_delay_exponent_above_20, "ack_delay_exponent_above_20",
     "transport parameter ack_delay_exponent 21 (above 20 is invalid, §18.2)"},
    {Violation::max_ack_delay_2_14, "max_ack_delay_2_14", "transport parameter max_ack_delay 2^14 ms (2^14 or more is invalid, §18.2)"},
    {Violation::max_udp_payload_size_below_1200, "max_udp_payload_size_below_1200",
     "transport parameter max_udp_payload_size 1199 (below 1200 is invalid, §18.2)"},
    {Violation::stateless_reset_token_from_client, "stateless_reset_token_from_client",
     "a client's stateless_reset_token, a server-only transport parameter (§18.2)"},
    {Violation::original_destination_connection_id_from_client, "original_destination_connection_id_from_client",
     "a client's original_destination_connection_id, a server-only transport parameter (§18.2)"},
    {Violation::retry_source_connection_id_from_client, "retry_source_connection_id_from_client",
     "a client's retry_source_connection_id, a server-only transport parameter (§18.2)"},
    {Violation::preferred_address_from_client, "preferred_address_from_client",
     "a client's preferred_address, a server-only transport parameter (§18.2)"},
    {Violation::initial_source_connection_id_missing, "initial_source_connection_id_missing",
     "no initial_source_connection_id transport parameter (§7.3)"},
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

/// Whether break_transport_parameters changes what an endpoint of this role
/// sends (a server-only parameter "from a client" breaks nothing a server
/// sends).
bool breaks_transport_parameters(Violation v, bool is_server);

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
