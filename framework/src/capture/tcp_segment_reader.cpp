// The TCP segments of a capture, read through libpcap. Kept apart from the
// UDP reader: the two share only libpcap, and each parses its own headers.
#include "capture/tcp_segment_reader.hpp"
#include "capture/pcap_open.hpp"

#include "common/input_error.hpp"

#include <pcap/pcap.h>

#include <memory>
#include <span>

namespace conform {
namespace {

constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
constexpr std::uint8_t kProtocolTcp = 6;
constexpr std::uint8_t kOptionEnd = 0, kOptionNop = 1, kOptionWindowScale = 3;

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t be32(const std::uint8_t* p) { return std::uint32_t{be16(p)} << 16 | be16(p + 2); }

// The IPv4 packet inside a link-layer frame, or an empty span.
std::span<const std::uint8_t> ipv4_packet(int link_type, std::span<const std::uint8_t> frame) {
  switch (link_type) {
    case DLT_RAW: return frame;
    case DLT_EN10MB:
      if (frame.size() < 14 || be16(frame.data() + 12) != kEtherTypeIpv4) return {};
      return frame.subspan(14);
    case DLT_LINUX_SLL:  // 16-byte cooked header, protocol in its last two bytes
      if (frame.size() < 16 || be16(frame.data() + 14) != kEtherTypeIpv4) return {};
      return frame.subspan(16);
    default: return {};
  }
}

// The Window Scale option among the TCP options, if present (RFC 7323 §2.2:
// kind 3, length 3, shift count).
std::optional<std::uint8_t> window_scale_option(std::span<const std::uint8_t> options) {
  std::size_t i = 0;
  while (i < options.size()) {
    const std::uint8_t kind = options[i];
    if (kind == kOptionEnd) break;
    if (kind == kOptionNop) { ++i; continue; }
    if (i + 1 >= options.size() || options[i + 1] < 2) break;  // malformed: stop reading
    const std::size_t len = options[i + 1];
    if (i + len > options.size()) break;
    if (kind == kOptionWindowScale && len == 3) return options[i + 2];
    i += len;
  }
  return std::nullopt;
}

std::optional<TcpSegment> parse_tcp(std::span<const std::uint8_t> ip, std::uint32_t wire_ip_bytes) {
  if (ip.size() < 20 || (ip[0] >> 4) != 4 || ip[9] != kProtocolTcp) return std::nullopt;
  const std::size_t ip_header = (ip[0] & 0x0f) * 4u;
  const std::uint16_t fragment = be16(ip.data() + 6);
  if ((fragment & 0x1fff) != 0) return std::nullopt;  // not the first fragment
  // The IP total length is 0 for segments larger than 64 KB that the kernel
  // hands to a capture before segmentation (BIG TCP); then the frame's wire
  // length is the truth.
  std::uint32_t total = be16(ip.data() + 2);
  if (total == 0) total = wire_ip_bytes;
  if (ip_header < 20 || ip.size() < ip_header + 20 || total < ip_header + 20) return std::nullopt;
  const std::uint8_t* tcp = ip.data() + ip_header;
  const std::size_t tcp_header = (tcp[12] >> 4) * 4u;
  if (tcp_header < 20 || total < ip_header + tcp_header) return std::nullopt;
  TcpSegment s;
  s.src_address = be32(ip.data() + 12);
  s.dst_address = be32(ip.data() + 16);
  s.src_port = be16(tcp);
  s.dst_port = be16(tcp + 2);
  s.seq = be32(tcp + 4);
  s.ack = be32(tcp + 8);
  s.flags = tcp[13];
  s.raw_window = be16(tcp + 14);
  s.payload_bytes = static_cast<std::uint32_t>(total - ip_header - tcp_header);
  const std::size_t kept_options = std::min(ip.size() - ip_header, tcp_header) - 20;
  s.window_scale = window_scale_option({tcp + 20, kept_options});
  return s;
}

}  // namespace

std::vector<TcpSegment> read_tcp_segments(const std::string& path, bool allow_cut_end) {
  const PcapFile capture(path);
  pcap_t* const pcap = capture.get();
  const int link_type = pcap_datalink(pcap);
  if (link_type != DLT_RAW && link_type != DLT_EN10MB && link_type != DLT_LINUX_SLL)
    throw InputError({path}, std::string("unsupported link type ") +
                                 (pcap_datalink_val_to_name(link_type) ?: "?"));
  std::vector<TcpSegment> out;
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  std::uint64_t frame = 0;
  int rc = 0;
  while ((rc = pcap_next_ex(pcap, &header, &data)) == 1) {
    ++frame;
    std::span<const std::uint8_t> whole{data, header->caplen};
    auto ip = ipv4_packet(link_type, whole);
    if (ip.empty()) continue;
    const std::uint32_t link_bytes = static_cast<std::uint32_t>(whole.size() - ip.size());
    auto segment = parse_tcp(ip, header->len > link_bytes ? header->len - link_bytes : 0);
    if (!segment) continue;
    segment->frame = frame;
    // With nanosecond precision libpcap stores nanoseconds in tv_usec.
    segment->time_ns = std::int64_t{header->ts.tv_sec} * 1'000'000'000 + header->ts.tv_usec;
    out.push_back(*segment);
  }
  if (rc == PCAP_ERROR) {
    const std::string why = pcap_geterr(pcap);
    // libpcap's words for a short read at the end of the file.
    if (allow_cut_end && why.find("truncated") != std::string::npos) return out;
    throw InputError({path}, "frame " + std::to_string(frame + 1) + ": " + why);
  }
  return out;
}

}  // namespace conform
