// Writing one vantage point's view of the wire as a pcap file (nanosecond
// timestamps, raw IPv4), so Wireshark and tshark open it as an ordinary capture.
#pragma once

#include <cstdint>
#include <span>

namespace conform {

/// An IPv4 address and UDP port, host byte order. The framework uses
/// 127.0.0.1 for client sides and 127.0.0.2 for server sides.
struct UdpEndpoint {
  std::uint32_t address;
  std::uint16_t port;
};

/// 127.0.0.1 (client side) and 127.0.0.2 (server side).
inline constexpr std::uint32_t kClientAddress = 0x7f000001;
inline constexpr std::uint32_t kServerAddress = 0x7f000002;

/// Appends datagrams to one capture file. Obtained from RunContext; owned by
/// the framework, which flushes and closes it when the case ends.
class CaptureWriter {
 public:
  virtual ~CaptureWriter() = default;
  /// Records one UDP datagram seen at `time_ns` (nanoseconds since the start of
  /// the case, virtual or real) with synthesised IPv4/UDP headers whose lengths
  /// and checksums are correct. Payloads above 65507 bytes are truncated to fit
  /// one IPv4 packet.
  virtual void write_udp(std::int64_t time_ns, UdpEndpoint from, UdpEndpoint to,
                         std::span<const std::uint8_t> payload) = 0;
};

}  // namespace conform
