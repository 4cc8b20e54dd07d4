// A libpcap live capture of the loopback interface, limited to the run's
// ports, written to a pcap file with nanosecond timestamps. Headers only
// (the first 128 bytes of each frame): the TCP checks read sequence numbers,
// windows and lengths, never payload, and a small snaplen keeps multi-MB
// transfers from overflowing the kernel's capture buffer.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace tcp_relay {

class LiveCapture {
 public:
  enum class Opened { ok, no_privilege, failed };
  LiveCapture();
  ~LiveCapture();
  LiveCapture(const LiveCapture&) = delete;
  LiveCapture& operator=(const LiveCapture&) = delete;
  /// Opens `lo` with a filter on `ports` (TCP, either direction) and starts
  /// writing to `path` on a thread of its own. Packets are captured from the
  /// moment this returns ok; `problem()` says why it did not.
  Opened open(const std::string& path, const std::vector<std::uint16_t>& ports);
  /// Stops after every packet the kernel already holds is written, and
  /// closes the file. A packet is readable 10 ms after it was captured at
  /// the latest (the kernel hands packets over in blocks): call this at
  /// least that long after the last packet of interest. Returns packets the kernel dropped before libpcap
  /// could read them (0 when the file is whole).
  std::uint64_t finish();
  const std::string& problem() const { return problem_; }
  std::uint64_t packets() const { return packets_; }

 private:
  struct Handles;
  std::unique_ptr<Handles> h_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::uint64_t packets_ = 0;
  std::string problem_;
};

}  // namespace tcp_relay
