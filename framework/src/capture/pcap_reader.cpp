// The UDP datagrams of a capture, read through libpcap; link layers and IP
// headers are unwrapped here (RFC 791, RFC 8200, RFC 768).
#include "capture/pcap_reader.hpp"
#include "capture/pcap_open.hpp"

#include "common/input_error.hpp"

#include <arpa/inet.h>
#include <pcap/pcap.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <utility>

namespace conform {
namespace {

std::uint16_t get16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t get32(const std::uint8_t* p) { return std::uint32_t{get16(p)} << 16 | get16(p + 2); }

constexpr std::uint16_t kEtherIpv4 = 0x0800;
constexpr std::uint16_t kEtherIpv6 = 0x86dd;
constexpr std::uint8_t kIpProtoUdp = 17;

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

bool supported(int link_type) {
  switch (link_type) {
    case DLT_EN10MB: case DLT_RAW: case DLT_IPV4: case DLT_IPV6: case DLT_LINUX_SLL:
    case DLT_LINUX_SLL2: case DLT_NULL: case DLT_LOOP:
      return true;
    default:
      return false;
  }
}

// The IP packet inside a link-layer frame, or an empty span for anything
// else (ARP, LLDP, ...).
std::span<const std::uint8_t> ip_packet(int link_type, std::span<const std::uint8_t> f) {
  auto by_ethertype = [](std::uint16_t type, std::span<const std::uint8_t> rest) {
    return type == kEtherIpv4 || type == kEtherIpv6 ? rest : std::span<const std::uint8_t>{};
  };
  switch (link_type) {
    case DLT_RAW: case DLT_IPV4: case DLT_IPV6:
      return f;
    case DLT_EN10MB: {
      std::size_t at = 12;
      // 802.1Q and 802.1ad tags sit before the real EtherType.
      while (f.size() >= at + 2 && (get16(f.data() + at) == 0x8100 || get16(f.data() + at) == 0x88a8)) at += 4;
      if (f.size() < at + 2) return {};
      return by_ethertype(get16(f.data() + at), f.subspan(at + 2));
    }
    case DLT_LINUX_SLL:  // 16 bytes; protocol type last (big-endian)
      if (f.size() < 16) return {};
      return by_ethertype(get16(f.data() + 14), f.subspan(16));
    case DLT_LINUX_SLL2:  // 20 bytes; protocol type first
      if (f.size() < 20) return {};
      return by_ethertype(get16(f.data()), f.subspan(20));
    case DLT_NULL:
    case DLT_LOOP: {
      // A 4-byte address family: network order for LOOP, the capturing
      // host's order for NULL (so either). AF_INET is 2 everywhere; AF_INET6
      // is 10 (Linux), 24 (NetBSD, OpenBSD), 28 (FreeBSD) or 30 (macOS).
      if (f.size() < 4) return {};
      std::uint32_t family = get32(f.data());
      if (link_type == DLT_NULL && (family & 0xffff) == 0) family = __builtin_bswap32(family);
      if (family == 2 || family == 10 || family == 24 || family == 28 || family == 30) return f.subspan(4);
      return {};
    }
    default:
      return {};
  }
}

enum class Unwrapped { udp, not_udp, fragment };

Unwrapped udp_in_ipv4(std::span<const std::uint8_t> ip, CapturedDatagram& d, std::span<const std::uint8_t>& udp) {
  if (ip.size() < 20) return Unwrapped::not_udp;
  const std::size_t header_len = (ip[0] & 0x0f) * 4u;
  if (header_len < 20 || ip.size() < header_len || ip[9] != kIpProtoUdp) return Unwrapped::not_udp;
  // More Fragments set or a non-zero offset: a piece of a datagram.
  if (get16(ip.data() + 6) & 0x3fff) return Unwrapped::fragment;
  const std::size_t total = std::max<std::size_t>(get16(ip.data() + 2), header_len);
  d.ttl = ip[8];
  d.from.address = get32(ip.data() + 12);
  d.to.address = get32(ip.data() + 16);
  udp = ip.subspan(header_len, std::min(total, ip.size()) - header_len);
  d.truncated = total > ip.size();
  return Unwrapped::udp;
}

Unwrapped udp_in_ipv6(std::span<const std::uint8_t> ip, CapturedDatagram& d, std::span<const std::uint8_t>& udp) {
  if (ip.size() < 40) return Unwrapped::not_udp;
  const std::size_t total = 40 + get16(ip.data() + 4);
  std::uint8_t next = ip[6];
  std::size_t at = 40;
  // Extension headers (RFC 8200 §4): hop-by-hop, routing, destination
  // options carry their length; a fragment header means a fragment.
  while (next == 0 || next == 43 || next == 60 || next == 44) {
    if (ip.size() < at + 8) return Unwrapped::not_udp;
    if (next == 44) {
      if (get16(ip.data() + at + 2) & 0xfff9) return Unwrapped::fragment;  // offset or M set
      next = ip[at];
      at += 8;
    } else {
      next = ip[at];
      at += (ip[at + 1] + 1u) * 8;
    }
  }
  if (next != kIpProtoUdp || ip.size() < at) return Unwrapped::not_udp;
  d.ttl = ip[7];
  d.from.ipv6 = d.to.ipv6 = true;
  std::copy(ip.begin() + 8, ip.begin() + 24, d.from.address6.begin());
  std::copy(ip.begin() + 24, ip.begin() + 40, d.to.address6.begin());
  udp = ip.subspan(at, std::min(total, ip.size()) - std::min(at, std::min(total, ip.size())));
  d.truncated = total > ip.size();
  return Unwrapped::udp;
}

// The one's-complement sum (RFC 1071), folded, of the pseudo-header the UDP
// checksum covers (RFC 768; RFC 8200 §8.1): what Linux writes in the
// checksum field of a datagram whose checksum the card is to finish
// (CHECKSUM_PARTIAL), and what a capture taken before the card records.
std::uint16_t pseudo_header_sum(const CapturedDatagram& d, std::size_t udp_length) {
  std::uint64_t sum = kIpProtoUdp + udp_length;
  if (d.from.ipv6) {
    for (std::size_t i = 0; i < 16; i += 2) sum += get16(&d.from.address6[i]) + get16(&d.to.address6[i]);
  } else {
    sum += (d.from.address >> 16) + (d.from.address & 0xffff) + (d.to.address >> 16) + (d.to.address & 0xffff);
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(sum);
}

Unwrapped parse_udp(std::span<const std::uint8_t> ip, CapturedDatagram& d) {
  if (ip.empty()) return Unwrapped::not_udp;
  std::span<const std::uint8_t> udp;
  const int version = ip[0] >> 4;
  Unwrapped u = version == 4 ? udp_in_ipv4(ip, d, udp)
                : version == 6 ? udp_in_ipv6(ip, d, udp)
                               : Unwrapped::not_udp;
  if (u != Unwrapped::udp) return u;
  if (udp.size() < 8) {
    if (!d.truncated) return Unwrapped::not_udp;
    d.payload.clear();
    return Unwrapped::udp;
  }
  d.from.port = get16(udp.data());
  d.to.port = get16(udp.data() + 2);
  const std::size_t udp_len = get16(udp.data() + 4);
  // UDP Length 0 is how jumbograms and some GSO captures say "the rest".
  const std::size_t end = udp_len < 8 ? udp.size() : std::min(udp_len, udp.size());
  if (udp_len > udp.size()) d.truncated = true;
  // A field of 0 is "no checksum" over IPv4 (RFC 768), never a sum.
  const std::uint16_t checksum = get16(udp.data() + 6);
  d.checksum_offloaded = udp_len >= 8 && checksum != 0 && checksum == pseudo_header_sum(d, udp_len);
  d.payload.assign(udp.begin() + 8, udp.begin() + end);
  return Unwrapped::udp;
}

}  // namespace

std::string NetEndpoint::str() const {
  char text[INET6_ADDRSTRLEN] = {};
  if (!ipv6) {
    const std::uint32_t n = htonl(address);
    inet_ntop(AF_INET, &n, text, sizeof text);
    return std::string(text) + ":" + std::to_string(port);
  }
  inet_ntop(AF_INET6, address6.data(), text, sizeof text);
  return "[" + std::string(text) + "]:" + std::to_string(port);
}

namespace {

std::uint32_t read_u32(std::istream& in, bool swapped) {
  std::uint32_t v = 0;
  in.read(reinterpret_cast<char*>(&v), 4);
  return swapped ? __builtin_bswap32(v) : v;
}

// A damaged record: where it starts (-1 when the layout is neither pcap
// nor pcapng), and its captured and original lengths when its header holds
// both (a pcap record, a pcapng Enhanced Packet Block).
struct DamagedRecord {
  long offset = -1;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> lengths;
};

// Record `n` (from 1) of `path`, walked only once a record turned out
// damaged (asking the position of every record on the way cost a system
// call each).
DamagedRecord damaged_record(const std::string& path, std::uint64_t n) {
  std::ifstream in(path, std::ios::binary);
  std::uint32_t magic = read_u32(in, false);
  if (!in) return {};
  // Its two lengths, `at` bytes into the record at `offset`.
  auto lengths_at = [&](std::uint64_t offset, std::uint64_t at, bool swapped) -> DamagedRecord {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset + at));
    const std::uint32_t captured = read_u32(in, swapped), original = read_u32(in, swapped);
    if (!in) return {static_cast<long>(offset), std::nullopt};
    return {static_cast<long>(offset), std::pair{captured, original}};
  };
  // A damaged length points past the end of the file: the damage is where
  // the record or block that holds it starts.
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d || magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
    const bool swapped = magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1;
    std::uint64_t offset = 24;  // the file header
    for (std::uint64_t k = 1; k < n; ++k) {
      in.seekg(static_cast<std::streamoff>(offset + 8));
      const std::uint32_t captured = read_u32(in, swapped);
      if (!in || (!ec && offset + 16 + std::uint64_t{captured} > size)) break;
      offset += 16 + std::uint64_t{captured};
    }
    return lengths_at(offset, 8, swapped);
  }
  if (magic != 0x0a0d0d0a) return {};
  // pcapng: blocks of type, length, body; each Section Header Block says
  // its byte order; packets are in Enhanced (6), Simple (3) and obsolete
  // Packet (2) Blocks.
  bool swapped = false;
  std::uint64_t offset = 0, packets = 0;
  for (;;) {
    in.seekg(static_cast<std::streamoff>(offset));
    const std::uint32_t raw_type = read_u32(in, false);
    std::uint32_t raw_length = read_u32(in, false);
    if (!in) return {static_cast<long>(offset), std::nullopt};
    if (raw_type == 0x0a0d0d0a) swapped = read_u32(in, false) == 0x4d3c2b1a;
    const std::uint32_t type = swapped ? __builtin_bswap32(raw_type) : raw_type;
    const std::uint32_t length = swapped ? __builtin_bswap32(raw_length) : raw_length;
    if ((type == 6 || type == 3 || type == 2) && ++packets == n)
      return type == 6 ? lengths_at(offset, 20, swapped) : DamagedRecord{static_cast<long>(offset), std::nullopt};
    if (length < 12 || (!ec && offset + length > size)) return {static_cast<long>(offset), std::nullopt};
    offset += length;
  }
}

}  // namespace

CaptureSummary for_each_datagram(const std::string& path,
                                 const std::function<void(const CapturedDatagram&)>& on_datagram,
                                 const std::function<void(std::uint64_t offset)>& on_offset) {
  const PcapFile capture(path);
  pcap_t* const pcap = capture.get();
  const int link_type = pcap_datalink(pcap);
  const char* link_name = pcap_datalink_val_to_name(link_type);
  if (!supported(link_type))
    throw InputError({path}, std::string("unsupported link type ") + (link_name ? link_name : std::to_string(link_type)));
  CaptureSummary summary;
  summary.link_type = link_name ? link_name : std::to_string(link_type);
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  int rc = 0;
  CapturedDatagram d;  // reused: its payload buffer keeps its capacity
  while ((rc = pcap_next_ex(pcap, &header, &data)) == 1) {
    const std::uint64_t frame = ++summary.records;
    if (on_offset && frame % kOffsetEvery == 0)
      if (FILE* file = pcap_file(pcap)) on_offset(static_cast<std::uint64_t>(std::max(0L, std::ftell(file))));
    d.from = d.to = NetEndpoint{};
    d.truncated = d.checksum_offloaded = false;
    switch (parse_udp(ip_packet(link_type, {data, header->caplen}), d)) {
      case Unwrapped::not_udp: ++summary.not_udp; continue;
      case Unwrapped::fragment: ++summary.fragments; continue;
      case Unwrapped::udp: break;
    }
    if (d.truncated) ++summary.truncated;
    d.frame = frame;
    // With nanosecond precision libpcap gives nanoseconds in tv_usec. A
    // pcapng timestamp can exceed what int64 nanoseconds hold (the fuzzer
    // found one): saturate rather than overflow.
    std::int64_t ns = 0;
    if (__builtin_mul_overflow(std::int64_t{header->ts.tv_sec}, std::int64_t{1'000'000'000}, &ns) ||
        __builtin_add_overflow(ns, std::int64_t{header->ts.tv_usec}, &ns))
      ns = header->ts.tv_sec < 0 ? INT64_MIN : INT64_MAX;
    d.time_ns = ns;
    on_datagram(d);
  }
  if (rc == PCAP_ERROR) {
    const std::string why = pcap_geterr(pcap);
    const DamagedRecord record = damaged_record(path, summary.records + 1);
    summary.damage = "frame " + std::to_string(summary.records + 1) +
                     (record.offset >= 0 ? " at byte " + std::to_string(record.offset) : std::string()) + ": " + why;
    // libpcap's words for a short read at the end of the file (pcap and
    // pcapng alike): "truncated dump file; tried to read ...". Unless the
    // record says it captured more than the packet held: no capture cut
    // mid-write writes that, a damaged length does.
    summary.cut_short = why.find("truncated") != std::string::npos;
    if (summary.cut_short && record.lengths && record.lengths->first > record.lengths->second) {
      summary.cut_short = false;
      *summary.damage += " (its captured length " + std::to_string(record.lengths->first) +
                         " exceeds its original length " + std::to_string(record.lengths->second) + ")";
    }
  }
  return summary;
}

CaptureContents read_capture(const std::string& path) {
  CaptureContents out;
  out.summary = for_each_datagram(path, [&](const CapturedDatagram& d) { out.datagrams.push_back(d); });
  return out;
}

std::string damage_warning(const std::string& path, const CaptureSummary& summary, const std::string& used) {
  if (!summary.damage) return {};
  if (!summary.cut_short) throw InputError({path}, *summary.damage + " (a corrupt record: nothing was " + used + ")");
  return path + ": " + *summary.damage + ": the file ends inside this record, as a capture cut mid-write does; the " +
         std::to_string(summary.records) + (summary.records == 1 ? " frame before it is " : " frames before it are ") +
         used + ", this one is not";
}

std::vector<CapturedDatagram> read_udp_datagrams(const std::string& path) {
  CaptureContents c = read_capture(path);
  if (c.summary.damage) throw InputError({path}, *c.summary.damage);
  return std::move(c.datagrams);
}

}  // namespace conform
