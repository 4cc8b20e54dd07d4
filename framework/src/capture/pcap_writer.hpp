// A pcap file of one vantage point (libpcap, DLT_RAW, nanosecond timestamps),
// with IPv4/UDP headers synthesised around each datagram.
#pragma once

#include <conform/capture_writer.hpp>

#include <memory>
#include <string>
#include <vector>

namespace conform {

class PcapWriter final : public CaptureWriter {
 public:
  /// Creates (truncates) `path`. Throws std::runtime_error naming the file
  /// when it cannot be opened.
  explicit PcapWriter(const std::string& path);
  ~PcapWriter() override;
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  void write_udp(std::int64_t time_ns, UdpEndpoint from, UdpEndpoint to,
                 std::span<const std::uint8_t> payload) override;
  /// Pushes buffered records to the file.
  void flush();

 private:
  struct Handles;
  std::unique_ptr<Handles> handles_;
};

/// The IPv4 packet (20-byte header, no options, TTL 64, DF set) carrying one
/// UDP datagram, with both checksums computed (RFC 791, RFC 768).
std::vector<std::uint8_t> build_ipv4_udp(UdpEndpoint from, UdpEndpoint to,
                                         std::span<const std::uint8_t> payload);

}  // namespace conform
