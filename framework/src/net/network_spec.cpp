// The keys of a case's `network` table.
#include "net/network_spec.hpp"

namespace conform {

const std::vector<ValueSpec>& network_spec() {
  static const std::vector<ValueSpec> spec = {
      {"rtt_ms", ValueType::floating, Value{10.0}, "round-trip time of the path, milliseconds"},
      {"mtu", ValueType::integer, Value{std::int64_t{1500}},
       "path MTU, bytes of IP packet; larger datagrams are lost"},
      {"bandwidth_mbps", ValueType::floating, Value{0.0},
       "bottleneck rate each way, megabits per second; 0: unlimited"},
      {"queue_bytes", ValueType::integer, Value{std::int64_t{0}},
       "drop-tail queue limit each way, bytes; 0: unlimited"},
      {"loss_rate", ValueType::floating, Value{0.0}, "Bernoulli loss probability per datagram"},
      {"jitter_ms", ValueType::floating, Value{0.0}, "uniform extra one-way delay, milliseconds"},
  };
  return spec;
}

}  // namespace conform
