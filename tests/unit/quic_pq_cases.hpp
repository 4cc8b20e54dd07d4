// The measured case of ../shared/background/client-packet-buffering-and-
// pq-handshake.md on the in-memory path: 1 ms RTT, path MTU 1500,
// base_mtu 1450, initial_mtu 8940, handshake time from the client's first
// Initial to HANDSHAKE_DONE. Shared by quic_pq_handshake_test.cpp and
// bench/bench_quic_recovery.cpp; docs/pq-handshake.md explains the numbers.
#pragma once

#include <array>

#include "unit/quic_sim_path.hpp"

namespace conform::quic::test {

struct PqCase {
  const char* name;
  TlsGroups group;
  size_t client_initial_mtu;
  bool client_buffering;
};

/// The background's four rows. As there, the server keeps initial_mtu 8940
/// in the last two ("client clamped, server still jumbo").
inline constexpr std::array<PqCase, 4> kPqCases = {{
    {"X25519 ClientHello", TlsGroups::x25519, 8940, false},
    {"CECPQ2 ClientHello", TlsGroups::cecpq2, 8940, false},
    {"CECPQ2, client initial_mtu = base_mtu, no buffering", TlsGroups::cecpq2, 1450, false},
    {"CECPQ2, client initial_mtu = base_mtu, buffering", TlsGroups::cecpq2, 1450, true},
}};

/// `faults`: the two faults the background names (probes restart CRYPTO
/// at offset 0; ACK-only Initial datagrams padded to initial_mtu), as the
/// measured stack had them; false measures this stack as it ships.
inline Config pq_config(const PqCase& c, bool server, bool faults) {
  Config k;
  k.is_server = server;
  k.seed = 11;
  if (server) k.certificate = TestCertificate::generate("localhost", 11);
  k.tls_groups = c.group;
  k.initial_rtt_ms = 1;  // the background's PTO ladder starts at 3 ms
  k.base_mtu = 1450;
  k.initial_mtu = server ? 8940 : c.client_initial_mtu;
  k.max_udp_payload_size = 8940;
  k.client_packet_buffering = c.client_buffering;
  k.probe_restart_crypto_at_zero = faults;
  k.pad_ack_only_to_initial_mtu = faults;
  return k;
}

struct PqResult {
  std::optional<Duration> handshake;
  uint64_t client_probes = 0, server_probes = 0, client_buffered = 0;
};

inline PqResult run_pq_case(const PqCase& c, bool faults) {
  LinkSpec link;
  link.one_way_delay = Duration::micros(500);  // 1 ms RTT
  link.mtu = 1500;
  SimPath path(pq_config(c, false, faults), pq_config(c, true, faults), link, link);
  PqResult r;
  r.handshake = path.handshake_time(Duration::seconds(5));
  r.client_probes = path.client().stats().probe_datagrams;
  r.server_probes = path.server().stats().probe_datagrams;
  r.client_buffered = path.client().stats().packets_buffered;
  return r;
}

}  // namespace conform::quic::test
