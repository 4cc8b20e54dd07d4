// Reading the UDP datagrams of a capture (pcap or pcapng, through libpcap),
// with their Wireshark frame numbers and timestamps, over the link types a
// QUIC capture comes in: Ethernet (with VLAN tags), raw IP, Linux cooked
// (SLL and SLL2, `tcpdump -i any`), BSD loopback (NULL and LOOP); IPv4 and
// IPv6.
#pragma once

#include <conform/capture_writer.hpp>

#include <array>
#include <compare>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// An IPv4 or IPv6 address and a UDP port. For IPv4 `address` holds the
/// address in host byte order, as UdpEndpoint does, so code written for
/// conform's own IPv4 captures reads it unchanged; for IPv6 `address` is 0
/// and `address6` holds the 16 bytes in network order.
struct NetEndpoint {
  std::uint32_t address = 0;
  std::uint16_t port = 0;
  bool ipv6 = false;
  std::array<std::uint8_t, 16> address6{};

  /// "127.0.0.1:4433" or "[::1]:4433" (RFC 5952 text).
  std::string str() const;
  friend auto operator<=>(const NetEndpoint&, const NetEndpoint&) = default;
};

/// One UDP datagram as captured.
struct CapturedDatagram {
  /// Wireshark frame number: the record's position in the file, from 1.
  std::uint64_t frame = 0;
  /// Capture timestamp, nanoseconds since the Unix epoch (or, for conform's
  /// own captures, since the case began).
  std::int64_t time_ns = 0;
  NetEndpoint from{};
  NetEndpoint to{};
  std::vector<std::uint8_t> payload;
  /// The capture kept fewer bytes than the datagram had (snap length):
  /// `payload` is its beginning only.
  bool truncated = false;
  /// The UDP checksum field holds only the pseudo-header's sum, what a
  /// sender that offloads checksumming leaves for the network card to
  /// finish: the capture recorded the datagram on the machine that sent
  /// it, before it left (docs/offline.md, "Vantage").
  bool checksum_offloaded = false;
  /// IPv4 Time to Live or IPv6 Hop Limit as captured: each router on the
  /// way lowers it by one (RFC 791, RFC 8200 §3).
  std::uint8_t ttl = 0;
};

/// What a capture held besides UDP datagrams, so nothing is skipped silently.
struct CaptureSummary {
  std::string link_type;           // libpcap's name, e.g. "EN10MB"
  std::uint64_t records = 0;       // every record in the file
  std::uint64_t not_udp = 0;       // IP but not UDP (TCP, ICMP, ...) or not IP at all
  std::uint64_t fragments = 0;     // IP fragments: not reassembled
  std::uint64_t truncated = 0;     // UDP datagrams cut by the snap length
  /// Set when the file ends in the middle of a record or is damaged after
  /// some records: "frame 3 at byte 1260: <what libpcap says>", the frame
  /// and byte offset of the record that could not be read. The datagrams
  /// before it are still returned.
  std::optional<std::string> damage;
  /// The damage is only that the file ends inside its last record, as a
  /// capture cut mid-write does; false for a corrupt record.
  bool cut_short = false;
};

struct CaptureContents {
  std::vector<CapturedDatagram> datagrams;
  CaptureSummary summary;
};

/// Calls `on_datagram` with each UDP datagram of `path`, in file order,
/// without keeping them: memory stays flat whatever the capture's size (the
/// datagram passed is reused for the next one). Returns the summary; throws
/// as read_capture does. `on_offset`, when given, hears how far into the
/// file the reading is (bytes) every kOffsetEvery records, for a progress
/// line.
CaptureSummary for_each_datagram(const std::string& path,
                                 const std::function<void(const CapturedDatagram&)>& on_datagram,
                                 const std::function<void(std::uint64_t offset)>& on_offset = nullptr);
inline constexpr std::uint64_t kOffsetEvery = 4096;

/// The UDP datagrams of `path`, in file order, with a summary of the rest.
/// Throws InputError naming the file when it cannot be opened as a capture
/// or its link type is not one listed above; damage after the header is
/// reported in the summary instead.
CaptureContents read_capture(const std::string& path);

/// The warning to print for damage to `path` that `summary` tells of, where
/// what was read is `used` ("judged", "shown"); empty for a whole file.
/// Throws InputError naming the file, frame and byte offset for a corrupt
/// record: whatever follows it cannot be trusted, and using only what came
/// before would pass a capture nobody saw whole. A file that ends inside
/// its last record (a capture cut mid-write) loses only that record: the
/// warning says so.
std::string damage_warning(const std::string& path, const CaptureSummary& summary, const std::string& used);

/// The UDP datagrams of `path`, in file order; records that are not UDP
/// are skipped (their frame numbers still count). Throws InputError naming
/// the file (and the frame for a damaged record) when it cannot be read.
std::vector<CapturedDatagram> read_udp_datagrams(const std::string& path);

}  // namespace conform
