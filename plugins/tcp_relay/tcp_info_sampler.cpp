// Sampling TCP_INFO, SO_MEMINFO and the socket queues.
#include "tcp_info_sampler.hpp"

#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <fstream>
#include <sstream>

namespace tcp_relay {
namespace {

constexpr auto kPeriod = std::chrono::milliseconds(250);

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TcpInfoSampler::TcpInfoSampler(const SocketRegistry& sockets, std::int64_t slow_after_ms)
    : sockets_(sockets), slow_after_ms_(slow_after_ms) {}

TcpInfoSampler::~TcpInfoSampler() { stop(); }

void TcpInfoSampler::start() { thread_ = std::thread([this] { loop(); }); }

void TcpInfoSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void TcpInfoSampler::transfer_started(std::int64_t index) {
  started_ns_ = now_ns();
  transfer_ = index;
}

void TcpInfoSampler::transfer_ended() { transfer_ = -1; }

void TcpInfoSampler::loop() {
  std::int64_t sampled_transfer = -1;
  std::int64_t next_due_ms = 0;
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::int64_t t = transfer_;
    if (t < 0) continue;
    const double elapsed_ms = (now_ns() - started_ns_) / 1e6;
    if (elapsed_ms < slow_after_ms_) continue;
    if (t != sampled_transfer) {
      sampled_transfer = t;
      next_due_ms = slow_after_ms_;
    }
    if (elapsed_ms < next_due_ms) continue;
    sample_all(t, elapsed_ms);
    next_due_ms += kPeriod.count();
  }
}

void TcpInfoSampler::sample_all(std::int64_t transfer, double elapsed_ms) {
  for (const auto& s : sockets_.snapshot()) {
    tcp_info info{};
    socklen_t len = sizeof info;
    if (getsockopt(s.fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) continue;
    std::uint32_t mem[SK_MEMINFO_VARS] = {};
    socklen_t mem_len = sizeof mem;
    getsockopt(s.fd, SOL_SOCKET, SO_MEMINFO, mem, &mem_len);
    int unread = 0, unsent = 0;
    ioctl(s.fd, SIOCINQ, &unread);
    ioctl(s.fd, SIOCOUTQ, &unsent);
    std::ostringstream o;
    o << "{\"transfer\": " << transfer << ", \"elapsed_ms\": " << elapsed_ms << ", \"role\": \""
      << s.role << "\", \"fd\": " << s.fd << ", \"state\": " << int{info.tcpi_state}
      << ", \"rcv_space\": " << info.tcpi_rcv_space << ", \"rcv_ssthresh\": " << info.tcpi_rcv_ssthresh
      << ", \"rcv_mss\": " << info.tcpi_rcv_mss << ", \"peer_window\": " << info.tcpi_snd_wnd
      << ", \"snd_cwnd\": " << info.tcpi_snd_cwnd << ", \"rtt_us\": " << info.tcpi_rtt
      << ", \"rttvar_us\": " << info.tcpi_rttvar << ", \"retransmits\": " << int{info.tcpi_retransmits}
      << ", \"total_retrans\": " << info.tcpi_total_retrans << ", \"probes\": " << int{info.tcpi_probes}
      << ", \"unacked\": " << info.tcpi_unacked << ", \"notsent_bytes\": " << info.tcpi_notsent_bytes
      << ", \"rwnd_limited_us\": " << info.tcpi_rwnd_limited << ", \"busy_us\": " << info.tcpi_busy_time
      << ", \"rcvbuf\": " << mem[SK_MEMINFO_RCVBUF] << ", \"rmem_alloc\": " << mem[SK_MEMINFO_RMEM_ALLOC]
      << ", \"sndbuf\": " << mem[SK_MEMINFO_SNDBUF] << ", \"drops\": " << mem[SK_MEMINFO_DROPS]
      << ", \"recv_queue\": " << unread << ", \"send_queue\": " << unsent << "}";
    samples_.push_back(o.str());
  }
}

bool TcpInfoSampler::write_json(const std::string& path,
                                const std::vector<TimedTransfer>& transfers) const {
  std::ofstream out(path);
  out << "{\n  \"slow_transfer_ms\": " << slow_after_ms_ << ",\n  \"transfers\": [";
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const auto& t = transfers[i];
    out << (i ? ",\n    " : "\n    ") << "{\"index\": " << t.index << ", \"connection\": "
        << t.connection << ", \"ms\": " << t.ms << ", \"completed\": " << (t.completed ? "true" : "false")
        << "}";
  }
  out << "\n  ],\n  \"samples\": [";
  for (std::size_t i = 0; i < samples_.size(); ++i)
    out << (i ? ",\n    " : "\n    ") << samples_[i];
  out << "\n  ]\n}\n";
  return static_cast<bool>(out);
}

}  // namespace tcp_relay
