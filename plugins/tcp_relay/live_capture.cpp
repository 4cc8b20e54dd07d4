// Live capture on `lo` through libpcap.
#include "live_capture.hpp"

#include <pcap/pcap.h>

namespace tcp_relay {

namespace {
constexpr int kSnapLen = 128;
// Far more than a burst of header-only records needs: the writer thread may
// be starved of CPU by the very hogs the case runs.
constexpr int kKernelBufferBytes = 64 << 20;
// Not immediate mode: the kernel hands libpcap a block of packets when it
// fills or kBlockMs after its first packet, so the writer wakes about 100
// times a second instead of once per segment. Woken per segment it competed
// with the transfers it records (a relayed transfer has twice the segments):
// a relayed 1 MiB answer took 0.73 ms instead of 0.48 ms on 2 loaded CPUs.
constexpr int kBlockMs = 10;
}  // namespace

struct LiveCapture::Handles {
  pcap_t* pcap = nullptr;
  pcap_dumper_t* dumper = nullptr;
};

LiveCapture::LiveCapture() = default;
LiveCapture::~LiveCapture() { finish(); }

LiveCapture::Opened LiveCapture::open(const std::string& path, const std::vector<std::uint16_t>& ports) {
  char err[PCAP_ERRBUF_SIZE] = {};
  h_ = std::make_unique<Handles>();
  h_->pcap = pcap_create("lo", err);
  if (!h_->pcap) {
    problem_ = err;
    return Opened::failed;
  }
  pcap_set_snaplen(h_->pcap, kSnapLen);
  pcap_set_buffer_size(h_->pcap, kKernelBufferBytes);
  pcap_set_immediate_mode(h_->pcap, 0);
  pcap_set_timeout(h_->pcap, kBlockMs);
  pcap_set_tstamp_precision(h_->pcap, PCAP_TSTAMP_PRECISION_NANO);
  const int rc = pcap_activate(h_->pcap);
  if (rc < 0) {
    problem_ = std::string("cannot capture on lo: ") + pcap_geterr(h_->pcap);
    const bool denied = rc == PCAP_ERROR_PERM_DENIED;
    pcap_close(h_->pcap);
    h_->pcap = nullptr;
    return denied ? Opened::no_privilege : Opened::failed;
  }
  std::string filter = "tcp and (";
  for (std::size_t i = 0; i < ports.size(); ++i)
    filter += (i ? " or port " : "port ") + std::to_string(ports[i]);
  filter += ")";
  bpf_program program{};
  if (pcap_compile(h_->pcap, &program, filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0 ||
      pcap_setfilter(h_->pcap, &program) != 0) {
    problem_ = "capture filter '" + filter + "': " + pcap_geterr(h_->pcap);
    pcap_freecode(&program);
    return Opened::failed;
  }
  pcap_freecode(&program);
  h_->dumper = pcap_dump_open(h_->pcap, path.c_str());
  if (!h_->dumper) {
    problem_ = path + ": " + pcap_geterr(h_->pcap);
    return Opened::failed;
  }
  thread_ = std::thread([this] {
    while (!stop_) {
      int n = pcap_dispatch(h_->pcap, -1, pcap_dump, reinterpret_cast<u_char*>(h_->dumper));
      if (n > 0) packets_ += static_cast<std::uint64_t>(n);
      if (n < 0) break;
    }
  });
  return Opened::ok;
}

std::uint64_t LiveCapture::finish() {
  if (!h_ || !h_->pcap) return 0;
  stop_ = true;
  // pcap_dispatch on a TPACKET_V3 ring waits for a packet however long its
  // timeout; pcap_breakloop wakes it (libpcap >= 1.10 signals its poll).
  pcap_breakloop(h_->pcap);
  if (thread_.joinable()) thread_.join();
  std::uint64_t dropped = 0;
  if (h_->dumper) {
    // Drain what the kernel still holds, without waiting for more.
    pcap_setnonblock(h_->pcap, 1, nullptr);
    int n = 0;
    while ((n = pcap_dispatch(h_->pcap, -1, pcap_dump, reinterpret_cast<u_char*>(h_->dumper))) > 0)
      packets_ += static_cast<std::uint64_t>(n);
    pcap_stat stats{};
    if (pcap_stats(h_->pcap, &stats) == 0) dropped = stats.ps_drop + stats.ps_ifdrop;
    pcap_dump_close(h_->dumper);
    h_->dumper = nullptr;
  }
  pcap_close(h_->pcap);
  h_->pcap = nullptr;
  return dropped;
}

}  // namespace tcp_relay
