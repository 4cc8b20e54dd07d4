// A case's `network` table turned into typed, checked link settings, with
// every problem reported as a value naming its key.
#pragma once

#include "net/selector.hpp"

#include <conform/time.hpp>
#include <conform/value.hpp>

#include <string>
#include <vector>

namespace conform {

/// Gilbert-Elliott two-state burst loss: each datagram is lost with the loss
/// probability of the current state, then the state moves on.
struct GilbertElliott {
  double enter_bad = 0;
  double leave_bad = 1;
  double loss_bad = 1;
  double loss_good = 0;
  bool enabled() const { return enter_bad > 0 || loss_good > 0; }
};

/// The settings of every link (each direction of every client's path).
struct NetConfig {
  Duration one_way_delay = Duration::milliseconds(5);
  /// Bytes of IP packet (UDP payload + 28).
  std::int64_t mtu = 1500;
  /// Bits per second; 0: unlimited (no serialisation delay).
  double bandwidth_bps = 0;
  /// Drop-tail limit in bytes of IP packets; 0: unlimited.
  std::int64_t queue_bytes = 0;
  double loss_rate = 0;
  GilbertElliott burst;
  /// Each datagram gets an extra delay drawn uniformly in [0, jitter].
  Duration jitter;
  std::vector<DatagramSelector> drop;
  std::vector<DatagramSelector> reorder;
  Duration reorder_delay = Duration::milliseconds(5);
  std::vector<DatagramSelector> duplicate;
  double duplicate_rate = 0;
  std::vector<DatagramSelector> corrupt;
  double corrupt_rate = 0;
  std::int64_t corrupt_bits = 1;
  /// Virtual time at which a run is stopped as stuck.
  Duration budget = Duration::seconds(60);
};

/// One problem with a `network` table: the key and what is wrong.
struct NetConfigProblem {
  std::string key;
  std::string message;
};

/// Reads `network` (keys missing from it keep NetConfig's defaults, which
/// equal network_spec()'s) into `out`; returns the problems, empty if none.
std::vector<NetConfigProblem> read_net_config(const ValueMap& network, NetConfig& out);

}  // namespace conform
