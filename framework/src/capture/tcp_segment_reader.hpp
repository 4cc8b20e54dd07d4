// Reading the TCP segments of a capture (pcap or pcapng, through libpcap):
// the header fields flow analysis needs (RFC 9293 §3.1), with Wireshark frame
// numbers and timestamps. Payload bytes are not kept, so captures may be
// header-only (a small snaplen): lengths come from the IPv4 header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// TCP header flag bits (RFC 9293 §3.1).
namespace tcp_flag {
inline constexpr std::uint8_t fin = 0x01, syn = 0x02, rst = 0x04, psh = 0x08, ack = 0x10;
}

/// One TCP segment over IPv4 as captured.
struct TcpSegment {
  /// Wireshark frame number: the record's position in the file, from 1.
  std::uint64_t frame = 0;
  /// Capture timestamp, nanoseconds since the Unix epoch (or since the case
  /// began, for captures conform synthesises).
  std::int64_t time_ns = 0;
  /// Addresses and ports, host byte order.
  std::uint32_t src_address = 0, dst_address = 0;
  std::uint16_t src_port = 0, dst_port = 0;
  std::uint32_t seq = 0, ack = 0;
  std::uint8_t flags = 0;
  /// The window field as sent, before any scaling (RFC 7323 §2.3).
  std::uint16_t raw_window = 0;
  /// Payload bytes the segment carries on the wire (from the IP total
  /// length, whatever the snaplen kept).
  std::uint32_t payload_bytes = 0;
  /// The Window Scale option's shift count, if the segment carries one
  /// (RFC 7323 §2.2; only meaningful on SYN segments).
  std::optional<std::uint8_t> window_scale;

  bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
};

/// The TCP-over-IPv4 segments of `path`, in file order. Records that are not
/// TCP over IPv4, IPv4 fragments after the first, and records cut before the
/// end of the TCP header are skipped (their frame numbers still count). Link
/// types: raw IP, Ethernet (what a capture of Linux's `lo` gives) and Linux
/// cooked (SLL, the `any` interface). Throws InputError naming the file (and
/// the frame for an unreadable record) when the file cannot be read; with
/// `allow_cut_end`, a file that ends inside its last record (a capture cut
/// mid-write) gives the segments before that record instead, and the
/// caller reports the cut.
std::vector<TcpSegment> read_tcp_segments(const std::string& path, bool allow_cut_end = false);

}  // namespace conform
