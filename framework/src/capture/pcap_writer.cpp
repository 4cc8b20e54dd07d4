// pcap writing through libpcap's dumper, as Wireshark expects it.
#include "capture/pcap_writer.hpp"

#include <pcap/pcap.h>

#include <stdexcept>
#include <vector>

namespace conform {
namespace {

constexpr std::size_t kIpv4HeaderBytes = 20;
constexpr std::size_t kUdpHeaderBytes = 8;
constexpr std::size_t kMaxUdpPayload = 65535 - kIpv4HeaderBytes - kUdpHeaderBytes;

void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v >> 8);
  b[at + 1] = static_cast<std::uint8_t>(v);
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  put16(b, at, static_cast<std::uint16_t>(v >> 16));
  put16(b, at + 2, static_cast<std::uint16_t>(v));
}

// The Internet checksum's running sum (RFC 1071) over big-endian 16-bit words.
std::uint32_t ones_sum(const std::uint8_t* p, std::size_t n, std::uint32_t sum = 0) {
  for (std::size_t i = 0; i + 1 < n; i += 2) sum += (std::uint32_t{p[i]} << 8) | p[i + 1];
  if (n % 2) sum += std::uint32_t{p[n - 1]} << 8;
  return sum;
}

std::uint16_t fold(std::uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

}  // namespace

std::vector<std::uint8_t> build_ipv4_udp(UdpEndpoint from, UdpEndpoint to,
                                         std::span<const std::uint8_t> payload) {
  payload = payload.first(std::min(payload.size(), kMaxUdpPayload));
  const std::size_t udp_len = kUdpHeaderBytes + payload.size();
  const std::size_t total = kIpv4HeaderBytes + udp_len;
  std::vector<std::uint8_t> b(total, 0);
  b[0] = 0x45;
  put16(b, 2, static_cast<std::uint16_t>(total));
  put16(b, 6, 0x4000);  // don't fragment: QUIC sets DF (RFC 9000 §14)
  b[8] = 64;
  b[9] = 17;
  put32(b, 12, from.address);
  put32(b, 16, to.address);
  put16(b, 10, fold(ones_sum(b.data(), kIpv4HeaderBytes)));

  put16(b, 20, from.port);
  put16(b, 22, to.port);
  put16(b, 24, static_cast<std::uint16_t>(udp_len));
  std::copy(payload.begin(), payload.end(), b.begin() + kIpv4HeaderBytes + kUdpHeaderBytes);
  // Pseudo-header: source, destination, protocol, UDP length (RFC 768).
  std::uint32_t sum = ones_sum(b.data() + 12, 8);
  sum += 17 + static_cast<std::uint32_t>(udp_len);
  std::uint16_t udp_sum = fold(ones_sum(b.data() + kIpv4HeaderBytes, udp_len, sum));
  put16(b, 26, udp_sum == 0 ? 0xffff : udp_sum);
  return b;
}

struct PcapWriter::Handles {
  pcap_t* pcap = nullptr;
  pcap_dumper_t* dumper = nullptr;
};

PcapWriter::PcapWriter(const std::string& path) : handles_(std::make_unique<Handles>()) {
  handles_->pcap = pcap_open_dead_with_tstamp_precision(DLT_RAW, 65535, PCAP_TSTAMP_PRECISION_NANO);
  if (!handles_->pcap) throw std::runtime_error(path + ": cannot create a pcap handle");
  handles_->dumper = pcap_dump_open(handles_->pcap, path.c_str());
  if (!handles_->dumper) {
    std::string why = pcap_geterr(handles_->pcap);
    pcap_close(handles_->pcap);
    throw std::runtime_error(path + ": cannot write capture: " + why);
  }
}

PcapWriter::~PcapWriter() {
  if (handles_->dumper) pcap_dump_close(handles_->dumper);
  if (handles_->pcap) pcap_close(handles_->pcap);
}

void PcapWriter::write_udp(std::int64_t time_ns, UdpEndpoint from, UdpEndpoint to,
                           std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> packet = build_ipv4_udp(from, to, payload);
  pcap_pkthdr header{};
  // With nanosecond precision libpcap stores tv_usec as nanoseconds.
  header.ts.tv_sec = time_ns / 1'000'000'000;
  header.ts.tv_usec = time_ns % 1'000'000'000;
  header.caplen = header.len = static_cast<bpf_u_int32>(packet.size());
  pcap_dump(reinterpret_cast<u_char*>(handles_->dumper), &header, packet.data());
}

void PcapWriter::flush() { pcap_dump_flush(handles_->dumper); }

}  // namespace conform
