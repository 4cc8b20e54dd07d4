// Case folders for the HTML report's tests, made from the reference
// captures until real QUIC runs exist (captures/README.md):
// - "healthy": captures/ngtcp2/stream-limit.pcap as both client.pcap and
//   server.pcap (a loopback capture sees what both ends see);
// - "cliff": the same client.pcap, and a server.pcap without the client's
//   datagrams from frame kCliffFrame on: as if the network had dropped them,
//   so the client opens 40 streams and only 8 reach the server;
// - "loss": captures/ngtcp2/loss.pcap as client.pcap (retransmissions, PTO probes);
// - "tcp": captures/tcp/linux-tiny-buffer.pcap as loopback.pcap.
// Each QUIC folder has the capture's key log as keys.log.
#pragma once

#include <cstdint>
#include <string>

namespace conform::test {

/// The first frame of stream-limit.pcap that "cliff" drops when the client sent it.
inline constexpr std::uint64_t kCliffFrame = 19;

/// Makes the four folders under `dir`, and copies tests/data/report/report.json
/// (a hand-written JSON report naming them) to `dir`/report.json. Returns its path.
std::string make_report_fixture(const std::string& dir);

}  // namespace conform::test
