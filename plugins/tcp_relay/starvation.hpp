// CPU starvation as the spike met it: every thread of the run pinned to a
// few CPUs, with busy threads competing for them.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace tcp_relay {

/// Pins the calling thread, and so every thread it starts later, to the
/// first `cpus` CPUs of its current affinity mask. Returns an empty string,
/// or why not (fewer CPUs allowed than asked).
std::string pin_to_cpus(std::int64_t cpus);

/// Threads that spin until destroyed, on whatever CPUs their creator may use.
class CpuHogs {
 public:
  explicit CpuHogs(std::int64_t count);
  ~CpuHogs();
  CpuHogs(const CpuHogs&) = delete;
  CpuHogs& operator=(const CpuHogs&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace tcp_relay
