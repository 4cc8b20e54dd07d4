// The keys of a case's `network` table. Each path between the server and a
// client has one link per direction; every key applies to both directions
// and to every client's path.
#include "net/network_spec.hpp"

namespace conform {

const std::vector<ValueSpec>& network_spec() {
  using V = Value;
  using L = std::vector<std::string>;
  static const std::vector<ValueSpec> spec = {
      {"rtt_ms", ValueType::floating, V{10.0},
       "round-trip propagation delay of the path, milliseconds; each way gets half"},
      {"mtu", ValueType::integer, V{std::int64_t{1500}},
       "path MTU, bytes of IP packet (UDP payload + 28); larger datagrams are lost"},
      {"bandwidth_mbps", ValueType::floating, V{0.0},
       "bottleneck rate each way, megabits per second of IP packets; 0: unlimited"},
      {"queue_bytes", ValueType::integer, V{std::int64_t{0}},
       "drop-tail limit each way, bytes of IP packets not yet serialised; 0: unlimited"},
      {"loss_rate", ValueType::floating, V{0.0}, "Bernoulli loss probability per datagram, 0..1"},
      {"ge_enter_bad", ValueType::floating, V{0.0},
       "Gilbert-Elliott burst loss: probability per datagram of moving from the good to the bad state"},
      {"ge_leave_bad", ValueType::floating, V{1.0},
       "Gilbert-Elliott: probability per datagram of moving from the bad back to the good state"},
      {"ge_loss_bad", ValueType::floating, V{1.0}, "Gilbert-Elliott: loss probability in the bad state"},
      {"ge_loss_good", ValueType::floating, V{0.0}, "Gilbert-Elliott: loss probability in the good state"},
      {"jitter_ms", ValueType::floating, V{0.0},
       "uniform extra one-way delay in [0, jitter], milliseconds; may reorder datagrams"},
      {"drop", ValueType::string_list, V{L{}},
       "datagrams to lose: \"client:3\" (the 3rd the client sends), \"server:initial:1\" (the "
       "server's 1st datagram carrying an Initial), \"client-2:handshake:1\""},
      {"reorder", ValueType::string_list, V{L{}},
       "datagrams to hold back by reorder_delay_ms (selectors as for drop)"},
      {"reorder_delay_ms", ValueType::floating, V{5.0},
       "extra delay of each datagram named in reorder, milliseconds"},
      {"duplicate", ValueType::string_list, V{L{}},
       "datagrams delivered twice (selectors as for drop)"},
      {"duplicate_rate", ValueType::floating, V{0.0}, "probability per datagram of delivering it twice"},
      {"corrupt", ValueType::string_list, V{L{}},
       "datagrams delivered with corrupt_bits flipped bits (selectors as for drop)"},
      {"corrupt_rate", ValueType::floating, V{0.0}, "probability per datagram of flipping bits in it"},
      {"corrupt_bits", ValueType::integer, V{std::int64_t{1}}, "bits flipped in a corrupted datagram"},
      {"budget_ms", ValueType::floating, V{60000.0},
       "virtual time after which a simulated run is stopped as TIMEOUT, milliseconds"},
  };
  return spec;
}

}  // namespace conform
