// Registering the QUIC checks.
#include "check/quic/catalogue.hpp"

namespace conform::quic_checks {

void add_quic_checks(CheckRegistry& registry) {
  for (auto make : {make_streams_delivered, make_max_streams_extended, make_max_streams_within_bound,
                    make_streams_blocked_sent, make_data_blocked_sent, make_stream_data_blocked_sent,
                    make_blocked_frames_not_early, make_max_data_extended, make_probe_coalesces_spaces,
                    make_probe_advances_crypto, make_probes_carry_crypto, make_pto_backoff,
                    make_client_buffers_early_packets, make_server_buffers_early_packets, make_handshake_time,
                    make_client_initial_padded, make_server_initial_padded, make_datagrams_within_path_mtu,
                    make_amplification_limit, make_initial_keys_discarded, make_connection_closed_with,
                    make_no_connection_error,
                    make_client_anti_deadlock_probe})
    registry.add(make());
  // Stream credit and flow control.
  registry.add(make_credit_not_held_back());
}

}  // namespace conform::quic_checks
