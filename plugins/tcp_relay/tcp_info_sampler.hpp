// The kernel's view of each connection during a slow transfer, as `ss
// -tinmoe` showed it in the spike: TCP_INFO (receive space, peer window, RTT,
// retransmits, congestion window), SO_MEMINFO (the buffers' real sizes and
// drops) and the queues, sampled every 250 ms while a transfer runs longer
// than a threshold, and written as a JSON sidecar next to the capture. The
// checks never read it: it explains a failure, the capture judges it.
#pragma once

#include "socket_registry.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace tcp_relay {

/// One client transfer as the client timed it.
struct TimedTransfer {
  std::int64_t index = 0, connection = 0;
  double ms = 0;
  bool completed = false;
};

class TcpInfoSampler {
 public:
  TcpInfoSampler(const SocketRegistry& sockets, std::int64_t slow_after_ms);
  ~TcpInfoSampler();
  void start();
  /// The client calls these around each transfer.
  void transfer_started(std::int64_t index);
  void transfer_ended();
  void stop();
  /// Writes `{ "slow_transfer_ms", "transfers": [...], "samples": [...] }`.
  bool write_json(const std::string& path, const std::vector<TimedTransfer>& transfers) const;
  std::size_t sample_count() const { return samples_.size(); }

 private:
  void loop();
  void sample_all(std::int64_t transfer, double elapsed_ms);

  const SocketRegistry& sockets_;
  const std::int64_t slow_after_ms_;
  std::atomic<bool> stop_{false};
  /// The running transfer's index, -1 between transfers.
  std::atomic<std::int64_t> transfer_{-1};
  std::atomic<std::int64_t> started_ns_{0};
  std::thread thread_;
  /// JSON objects, one per socket per sample.
  std::vector<std::string> samples_;
};

}  // namespace tcp_relay
