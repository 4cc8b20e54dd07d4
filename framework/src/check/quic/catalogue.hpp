// The QUIC checks of the catalogue (framework/src/check/quic/, one check a
// file), each made by its factory; docs/checks.md describes them.
#pragma once

#include "check/registry.hpp"

namespace conform::quic_checks {

/// Adds every QUIC check to `registry`.
void add_quic_checks(CheckRegistry& registry);

std::unique_ptr<Check> make_streams_delivered();
std::unique_ptr<Check> make_max_streams_extended();
std::unique_ptr<Check> make_max_streams_within_bound();
std::unique_ptr<Check> make_streams_blocked_sent();
std::unique_ptr<Check> make_data_blocked_sent();
std::unique_ptr<Check> make_stream_data_blocked_sent();
std::unique_ptr<Check> make_blocked_frames_not_early();
std::unique_ptr<Check> make_max_data_extended();
std::unique_ptr<Check> make_probe_coalesces_spaces();
std::unique_ptr<Check> make_probe_advances_crypto();
std::unique_ptr<Check> make_probes_carry_crypto();
std::unique_ptr<Check> make_pto_backoff();
std::unique_ptr<Check> make_client_buffers_early_packets();
std::unique_ptr<Check> make_server_buffers_early_packets();
std::unique_ptr<Check> make_handshake_time();
std::unique_ptr<Check> make_client_initial_padded();
std::unique_ptr<Check> make_server_initial_padded();
std::unique_ptr<Check> make_datagrams_within_path_mtu();
std::unique_ptr<Check> make_amplification_limit();
std::unique_ptr<Check> make_initial_keys_discarded();
std::unique_ptr<Check> make_connection_closed_with();
std::unique_ptr<Check> make_no_connection_error();
std::unique_ptr<Check> make_client_anti_deadlock_probe();
// Stream credit and flow control (suites/rfc9000/credit_updates.toml).
std::unique_ptr<Check> make_credit_not_held_back();

}  // namespace conform::quic_checks
