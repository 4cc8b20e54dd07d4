// The knobs of one endpoint: every transport parameter it declares (RFC 9000
// §18.2) and the behaviours a suite can switch off or distort to prove its
// checks fail (ARCHITECTURE.md principle 4). A plain struct: the plugin maps
// the case's TOML knobs onto it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codec/frame.hpp"
#include "connection/stream_limits.hpp"
#include "recovery/recovery.hpp"
#include "tls/tls_session.hpp"

namespace conform::quic {

enum class OpenWhenBlocked : uint8_t {
  wait,  ///< Opening at the limit returns StreamError::blocked; retry on StreamsAvailable.
  fail,  ///< Returns StreamError::limit_reached, as a stack that gives up would.
};

/// Where a traced frame went (the `frame_trace` hook).
enum class TraceDir : uint8_t { sent, received };

struct Config {
  bool is_server = false;

  // Transport parameters we declare (RFC 9000 §18.2), in their units.
  uint64_t max_idle_timeout_ms = 30'000;
  uint64_t max_udp_payload_size = 1472;  ///< bytes, >= 1200
  uint64_t initial_max_data = 1 << 20;   ///< bytes
  uint64_t initial_max_stream_data_bidi_local = 256 << 10;
  uint64_t initial_max_stream_data_bidi_remote = 256 << 10;
  uint64_t initial_max_stream_data_uni = 256 << 10;
  uint64_t initial_max_streams_bidi = 100;  ///< streams
  uint64_t initial_max_streams_uni = 100;   ///< streams
  uint64_t ack_delay_exponent = 3;
  uint64_t max_ack_delay_ms = 25;
  bool disable_active_migration = true;
  uint64_t active_connection_id_limit = 2;

  // Behaviours under test.
  bool emit_max_streams = true;  ///< false: never raise the peer's stream limit (the investigation's bug)
  MaxStreamsPolicy max_streams_policy = MaxStreamsPolicy::half_window;
  bool emit_streams_blocked = true;  ///< STREAMS_BLOCKED when an open is refused (§19.14)
  bool emit_data_blocked = true;     ///< DATA_BLOCKED and STREAM_DATA_BLOCKED (§19.12-13)
  OpenWhenBlocked open_stream_when_blocked = OpenWhenBlocked::wait;
  /// false: open streams beyond the peer's MAX_STREAMS, a violation that a
  /// correct peer answers with STREAM_LIMIT_ERROR (to test peers, §4.6).
  bool respect_peer_max_streams = true;
  /// false: send stream data beyond the peer's MAX_DATA / MAX_STREAM_DATA,
  /// which a correct peer answers with FLOW_CONTROL_ERROR (§4.1).
  bool respect_peer_flow_control = true;
  TlsGroups tls_groups = TlsGroups::x25519;
  /// Server: answer every new client with Retry first and require its token
  /// (address validation, RFC 9000 §8.1.2).
  bool retry = false;
  /// Start a key update (RFC 9001 §6) after this many 1-RTT packets sent in
  /// a key phase; 0 never starts one (peer-initiated updates are followed).
  uint64_t key_update_interval_packets = 0;
  /// Largest datagram we send before the peer's max_udp_payload_size is
  /// known, and the Initial datagram size (>= 1200, RFC 9000 §14.1), bytes.
  size_t initial_mtu = 1200;

  // TLS.
  std::vector<std::string> alpn = {"conform"};
  std::string server_name = "localhost";
  std::shared_ptr<const TestCertificate> certificate;  ///< Server only.

  /// Seeds connection IDs, so a run is a function of its seed.
  uint64_t seed = 1;
  /// NSS key log lines for the capture's keys.log.
  std::function<void(std::string_view)> keylog;
  /// Sees each packet's plaintext frames just before protection and may
  /// append or rewrite bytes, to send what a broken peer would (tests and
  /// mutants). Empty in normal runs.
  std::function<void(Space, Bytes& payload)> tamper_payload;
  /// Every frame sent or received, for tests and qlog; may be empty.
  std::function<void(TraceDir, Space, const Frame&)> frame_trace;
};

}  // namespace conform::quic
