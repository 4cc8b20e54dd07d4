// The UDP datagrams of a capture, read through libpcap.
#include "capture/pcap_reader.hpp"

#include "common/input_error.hpp"

#include <pcap/pcap.h>

#include <memory>
#include <optional>

namespace conform {
namespace {

std::uint16_t get16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t get32(const std::uint8_t* p) {
  return std::uint32_t{get16(p)} << 16 | get16(p + 2);
}

// The IPv4 packet inside a link-layer frame, or nullopt for other payloads.
std::optional<std::span<const std::uint8_t>> ip_packet(int link_type,
                                                        std::span<const std::uint8_t> frame) {
  if (link_type == DLT_RAW) return frame;
  if (link_type == DLT_EN10MB) {
    if (frame.size() < 14 || get16(frame.data() + 12) != 0x0800) return std::nullopt;
    return frame.subspan(14);
  }
  return std::nullopt;
}

std::optional<CapturedDatagram> parse_udp(std::span<const std::uint8_t> ip) {
  if (ip.size() < 20 || (ip[0] >> 4) != 4 || ip[9] != 17) return std::nullopt;
  std::size_t header_len = (ip[0] & 0x0f) * 4u;
  std::size_t total = std::min<std::size_t>(get16(ip.data() + 2), ip.size());
  if (header_len < 20 || total < header_len + 8) return std::nullopt;
  const std::uint8_t* udp = ip.data() + header_len;
  std::size_t udp_len = std::min<std::size_t>(get16(udp + 4), total - header_len);
  if (udp_len < 8) return std::nullopt;
  CapturedDatagram d;
  d.from = {get32(ip.data() + 12), get16(udp)};
  d.to = {get32(ip.data() + 16), get16(udp + 2)};
  d.payload.assign(udp + 8, udp + udp_len);
  return d;
}

}  // namespace

std::vector<CapturedDatagram> read_udp_datagrams(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE] = {};
  std::unique_ptr<pcap_t, decltype(&pcap_close)> pcap(
      pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err),
      &pcap_close);
  if (!pcap) throw InputError({path}, std::string("cannot read capture: ") + err);
  const int link_type = pcap_datalink(pcap.get());
  if (link_type != DLT_RAW && link_type != DLT_EN10MB)
    throw InputError({path}, std::string("unsupported link type ") +
                                 (pcap_datalink_val_to_name(link_type) ?: "?"));
  std::vector<CapturedDatagram> out;
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  std::uint64_t frame = 0;
  int rc = 0;
  while ((rc = pcap_next_ex(pcap.get(), &header, &data)) == 1) {
    ++frame;
    auto ip = ip_packet(link_type, {data, header->caplen});
    if (!ip) continue;
    auto datagram = parse_udp(*ip);
    if (!datagram) continue;
    datagram->frame = frame;
    datagram->time_ns = std::int64_t{header->ts.tv_sec} * 1'000'000'000 + header->ts.tv_usec;
    out.push_back(std::move(*datagram));
  }
  if (rc == PCAP_ERROR)
    throw InputError({path}, "frame " + std::to_string(frame + 1) + ": " + pcap_geterr(pcap.get()));
  return out;
}

}  // namespace conform
