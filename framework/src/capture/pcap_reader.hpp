// Reading the UDP datagrams of a capture (pcap or pcapng, through libpcap),
// with their Wireshark frame numbers and timestamps.
#pragma once

#include <conform/capture_writer.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace conform {

/// One UDP datagram as captured.
struct CapturedDatagram {
  /// Wireshark frame number: the record's position in the file, from 1.
  std::uint64_t frame = 0;
  /// Capture timestamp, nanoseconds since the Unix epoch (or, for conform's
  /// own captures, since the case began).
  std::int64_t time_ns = 0;
  UdpEndpoint from{};
  UdpEndpoint to{};
  std::vector<std::uint8_t> payload;
};

/// The UDP-over-IPv4 datagrams of `path`, in file order; records that are
/// not UDP over IPv4 are skipped (their frame numbers still count). Link
/// types: raw IP and Ethernet. Throws InputError naming the file (and the
/// frame for a truncated record) when the file cannot be read.
std::vector<CapturedDatagram> read_udp_datagrams(const std::string& path);

}  // namespace conform
