// libpcap's dumper over a dead handle, nanosecond timestamps, LINKTYPE_RAW.
#include "udp/pcap_log.hpp"

#include <pcap/pcap.h>

#include <ctime>

namespace conform::quic::udp {

namespace {

void be16(Bytes& b, size_t at, uint32_t v) {
  b[at] = static_cast<uint8_t>(v >> 8);
  b[at + 1] = static_cast<uint8_t>(v);
}

// RFC 791 header checksum: one's complement of the one's-complement sum.
uint16_t ipv4_checksum(const uint8_t* header) {
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) sum += (uint32_t{header[i]} << 8) | header[i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

constexpr size_t kMaxPayload = 65535 - 28;

}  // namespace

struct PcapLog::Handles {
  pcap_t* pcap = nullptr;
  pcap_dumper_t* dumper = nullptr;
};

std::unique_ptr<PcapLog> PcapLog::create(const std::string& path, std::string& error) {
  std::unique_ptr<PcapLog> log(new PcapLog);
  log->h_ = std::make_unique<Handles>();
  log->h_->pcap = pcap_open_dead_with_tstamp_precision(DLT_RAW, 65535, PCAP_TSTAMP_PRECISION_NANO);
  if (!log->h_->pcap) {
    error = path + ": cannot create a pcap handle";
    return nullptr;
  }
  log->h_->dumper = pcap_dump_open(log->h_->pcap, path.c_str());
  if (!log->h_->dumper) {
    error = path + ": " + pcap_geterr(log->h_->pcap);
    return nullptr;
  }
  return log;
}

PcapLog::~PcapLog() {
  if (h_->dumper) pcap_dump_close(h_->dumper);
  if (h_->pcap) pcap_close(h_->pcap);
}

void PcapLog::record(UdpAddress from, UdpAddress to, ByteView payload) {
  payload = payload.first(std::min(payload.size(), kMaxPayload));
  Bytes pkt(28 + payload.size(), 0);
  pkt[0] = 0x45;  // IPv4, 20-byte header
  be16(pkt, 2, static_cast<uint32_t>(pkt.size()));
  be16(pkt, 6, 0x4000);  // DF: QUIC datagrams are not fragmented (RFC 9000 §14)
  pkt[8] = 64;
  pkt[9] = 17;  // UDP
  for (int i = 0; i < 4; ++i) {
    pkt[12 + i] = static_cast<uint8_t>(from.ip >> (24 - 8 * i));
    pkt[16 + i] = static_cast<uint8_t>(to.ip >> (24 - 8 * i));
  }
  be16(pkt, 10, ipv4_checksum(pkt.data()));
  be16(pkt, 20, from.port);
  be16(pkt, 22, to.port);
  be16(pkt, 24, static_cast<uint32_t>(8 + payload.size()));
  std::copy(payload.begin(), payload.end(), pkt.begin() + 28);

  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  pcap_pkthdr hdr{};
  hdr.ts.tv_sec = ts.tv_sec;
  hdr.ts.tv_usec = ts.tv_nsec;  // nanoseconds: the handle's precision
  hdr.caplen = hdr.len = static_cast<bpf_u_int32>(pkt.size());
  pcap_dump(reinterpret_cast<u_char*>(h_->dumper), &hdr, pkt.data());
  pcap_dump_flush(h_->dumper);
}

}  // namespace conform::quic::udp
