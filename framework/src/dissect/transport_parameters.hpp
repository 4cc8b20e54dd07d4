// QUIC transport parameters (RFC 9000 §18), as each endpoint declares them
// in the quic_transport_parameters TLS extension (0x39, RFC 9001 §8.2): the
// client's in its ClientHello, the server's in EncryptedExtensions. Checks
// need them to judge flow control and stream limits against what was
// promised.
#pragma once

#include "dissect/bytes.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform::dissect {

/// The parameters of RFC 9000 §18.2 (and max_datagram_frame_size, RFC 9221
/// §3), each absent when not sent; integers as sent (durations in ms, sizes
/// in bytes, stream limits in streams).
struct TransportParameters {
  std::optional<ConnectionId> original_destination_connection_id;  // 0x00
  std::optional<std::uint64_t> max_idle_timeout;                     // 0x01, ms
  std::optional<std::array<std::uint8_t, 16>> stateless_reset_token;  // 0x02
  std::optional<std::uint64_t> max_udp_payload_size;                 // 0x03
  std::optional<std::uint64_t> initial_max_data;                     // 0x04
  std::optional<std::uint64_t> initial_max_stream_data_bidi_local;   // 0x05
  std::optional<std::uint64_t> initial_max_stream_data_bidi_remote;  // 0x06
  std::optional<std::uint64_t> initial_max_stream_data_uni;          // 0x07
  std::optional<std::uint64_t> initial_max_streams_bidi;             // 0x08
  std::optional<std::uint64_t> initial_max_streams_uni;              // 0x09
  std::optional<std::uint64_t> ack_delay_exponent;                   // 0x0a
  std::optional<std::uint64_t> max_ack_delay;                        // 0x0b, ms
  bool disable_active_migration = false;                             // 0x0c
  std::optional<Bytes> preferred_address;                            // 0x0d, raw
  std::optional<std::uint64_t> active_connection_id_limit;           // 0x0e
  std::optional<ConnectionId> initial_source_connection_id;          // 0x0f
  std::optional<ConnectionId> retry_source_connection_id;            // 0x10
  std::optional<std::uint64_t> max_datagram_frame_size;              // 0x20
  /// Parameters this dissector does not name (greased or extensions), by ID.
  std::vector<std::pair<std::uint64_t, Bytes>> others;
};

/// Parses the extension's value. Returns nullopt with `why` set for an
/// encoding RFC 9000 §7.4 and §18 call TRANSPORT_PARAMETER_ERROR: a
/// parameter cut short, a known parameter given twice, an integer parameter
/// whose value is not exactly one varint, a token not 16 bytes, a connection
/// ID above 20 bytes, or a value out of its range (max_udp_payload_size
/// below 1200, ack_delay_exponent above 20, max_ack_delay of 2^14 or more,
/// active_connection_id_limit below 2, stream counts above 2^60).
std::optional<TransportParameters> parse_transport_parameters(std::span<const std::uint8_t> value,
                                                              std::string& why);

/// The value of the quic_transport_parameters extension in a ClientHello
/// (`type` 1) or EncryptedExtensions (`type` 8) message body, or nullopt.
std::optional<std::span<const std::uint8_t>> transport_parameters_extension(
    std::uint8_t type, std::span<const std::uint8_t> body);

}  // namespace conform::dissect
