// CPU pinning and busy threads.
#include "starvation.hpp"

#include <sched.h>

namespace tcp_relay {

std::string pin_to_cpus(std::int64_t cpus) {
  if (cpus <= 0) return {};
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return "sched_getaffinity failed";
  cpu_set_t chosen;
  CPU_ZERO(&chosen);
  std::int64_t taken = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && taken < cpus; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) {
      CPU_SET(cpu, &chosen);
      ++taken;
    }
  if (taken < cpus)
    return "cpus = " + std::to_string(cpus) + ", but this process may use only " +
           std::to_string(taken);
  // pid 0 is the calling thread; threads started afterwards inherit its mask.
  if (sched_setaffinity(0, sizeof chosen, &chosen) != 0) return "sched_setaffinity failed";
  return {};
}

CpuHogs::CpuHogs(std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i)
    threads_.emplace_back([this] {
      // A relaxed load in a loop: pure CPU, no syscalls, like a busy test process.
      volatile std::uint64_t spins = 0;
      while (!stop_.load(std::memory_order_relaxed)) spins = spins + 1;
    });
}

CpuHogs::~CpuHogs() {
  stop_ = true;
  for (auto& t : threads_) t.join();
}

}  // namespace tcp_relay
