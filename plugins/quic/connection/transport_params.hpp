// QUIC transport parameters, RFC 9000 §18: what each endpoint declares in
// its TLS handshake. Units are in the field names; defaults are the RFC's
// defaults for absent parameters (§18.2), not conform's knob defaults.
#pragma once

#include <optional>

#include "codec/buffer.hpp"
#include "codec/connection_id.hpp"
#include "codec/error.hpp"

namespace conform::quic {

struct TransportParameters {
  std::optional<ConnectionId> original_destination_connection_id;  // 0x00, server only
  uint64_t max_idle_timeout_ms = 0;                                 // 0x01, 0 = none
  std::optional<std::array<uint8_t, 16>> stateless_reset_token;     // 0x02, server only
  uint64_t max_udp_payload_size = 65527;                            // 0x03, bytes, >= 1200
  uint64_t initial_max_data = 0;                                    // 0x04, bytes
  uint64_t initial_max_stream_data_bidi_local = 0;                  // 0x05, bytes
  uint64_t initial_max_stream_data_bidi_remote = 0;                 // 0x06, bytes
  uint64_t initial_max_stream_data_uni = 0;                         // 0x07, bytes
  uint64_t initial_max_streams_bidi = 0;                            // 0x08, streams, <= 2^60
  uint64_t initial_max_streams_uni = 0;                             // 0x09, streams, <= 2^60
  uint64_t ack_delay_exponent = 3;                                  // 0x0a, <= 20
  uint64_t max_ack_delay_ms = 25;                                   // 0x0b, < 2^14
  bool disable_active_migration = false;                            // 0x0c
  std::optional<Bytes> preferred_address;                           // 0x0d, server only, kept as sent
  uint64_t active_connection_id_limit = 2;                          // 0x0e, >= 2
  std::optional<ConnectionId> initial_source_connection_id;         // 0x0f
  std::optional<ConnectionId> retry_source_connection_id;           // 0x10, server only
};

/// Encodes every parameter that differs from its RFC default, plus the
/// connection IDs that are set.
Bytes encode_transport_parameters(const TransportParameters& tp);

/// Decodes the peer's parameters. `from_server` tells which side sent them.
/// Errors: TRANSPORT_PARAMETER_ERROR for a malformed or duplicated parameter,
/// a value out of range (§18.2) or a server-only parameter from a client.
/// Unknown parameters are ignored (§18.1).
/// `strict` false (the violations_answered fault): an invalid value, a
/// server-only parameter from a client or a missing
/// initial_source_connection_id is passed over, not an error.
Result<TransportParameters> decode_transport_parameters(ByteView data, bool from_server, bool strict = true);

}  // namespace conform::quic
