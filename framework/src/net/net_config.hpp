// The settings of a case's `network` table: the path between client and
// server that the simulator (virtual time) or the loopback relay (real time)
// models. NetConfig holds them typed, with their defaults; net_settings()
// binds each to its TOML key, type, unit, range and doc, so a setting is
// declared once (here and in its row) and the loader, the links and the
// generated docs read that declaration.
#pragma once

#include "common/value_range.hpp"
#include "net/selector.hpp"

#include <conform/time.hpp>
#include <conform/value.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

/// The settings of every link (each direction of every client's path). The
/// defaults here are the suite's defaults.
struct NetConfig {
  Duration one_way_delay = Duration::milliseconds(5);
  /// Bytes of IP packet (UDP payload + 28).
  std::int64_t mtu = 1500;
  /// Bits per second; 0: unlimited (no serialisation delay).
  double bandwidth_bps = 0;
  /// Drop-tail limit in bytes of IP packets; 0: unlimited.
  std::int64_t queue_bytes = 0;
  double loss_rate = 0;
  /// Gilbert-Elliott two-state burst loss: each datagram is lost with the
  /// loss probability of the current state, then the state moves on.
  double ge_enter_bad = 0;
  double ge_leave_bad = 1;
  double ge_loss_bad = 1;
  double ge_loss_good = 0;
  /// Each datagram gets an extra delay drawn uniformly in [0, jitter].
  Duration jitter;
  std::vector<DatagramSelector> drop;
  std::vector<DatagramSelector> reorder;
  Duration reorder_delay = Duration::milliseconds(5);
  /// Probability per datagram of a reorder hold, besides those in `reorder`.
  double reorder_rate = 0;
  std::vector<DatagramSelector> duplicate;
  double duplicate_rate = 0;
  /// How much later than the original the copy of a duplicated datagram arrives.
  Duration duplicate_delay;
  std::vector<DatagramSelector> corrupt;
  double corrupt_rate = 0;
  std::int64_t corrupt_bits = 1;
  /// Virtual time at which a run is stopped as stuck.
  Duration budget = Duration::seconds(60);

  /// What one sender's direction sets apart (`server_mtu = 1280`: what the
  /// server sends crosses a 1280-byte path, what clients send does not): a
  /// copy of these settings with those keys changed; none when no such key
  /// is given.
  std::shared_ptr<NetConfig> client_sends, server_sends;

  bool burst_loss() const { return ge_enter_bad > 0 || ge_loss_good > 0; }
  /// The explicit selector lists by their keys, in this order: drop,
  /// reorder, duplicate, corrupt.
  struct NamedSelectors {
    const char* key;
    const std::vector<DatagramSelector>* list;
  };
  std::array<NamedSelectors, 4> selector_lists() const {
    return {{{"drop", &drop}, {"reorder", &reorder}, {"duplicate", &duplicate}, {"corrupt", &corrupt}}};
  }
  /// Whether any list holds a selector; whether one reads the packets.
  bool has_selectors() const;
  bool selectors_read_contents() const;
  /// The settings of the direction `group` ("client" or "server") sends on.
  const NetConfig& sent_by(std::string_view group) const;
  /// Those settings to change, made from these the first time (a copy
  /// shared with another NetConfig is copied first).
  NetConfig& edit_sent_by(std::string_view group);
};

/// One key of a `network` table bound to the NetConfig field it sets.
struct NetSetting {
  /// Name, type, default (read from a default NetConfig), range and doc.
  ValueSpec spec;
  /// The unit of the value as written: "ms", "bytes", "Mbit/s"; "" for a
  /// probability, a count or a list.
  std::string unit;
  /// Writes a value of spec.type (in range) into its field; returns "" or
  /// why the value cannot be used (a selector that does not parse).
  std::function<std::string(const Value&, NetConfig&)> set;
  /// "client" or "server" for a key of one direction (`server_mtu`), whose
  /// twin of the other direction and base key (`mtu`) share its doc.
  std::string sender{};
  std::string base_key{};
};

/// Every setting, in the order the docs list them.
const std::vector<NetSetting>& net_settings();

/// The settings' specs (what a `network` table may hold, for the loader and
/// `conform plugins`).
const std::vector<ValueSpec>& network_spec();

/// One problem with a `network` table: the key and what is wrong.
struct NetConfigProblem {
  std::string key;
  std::string message;
};

/// Reads `network` into `out` (keys missing from it keep NetConfig's
/// defaults): each key must name a setting and hold a value of its type in
/// its range. Returns the problems in the settings' order, empty if none.
std::vector<NetConfigProblem> read_net_config(const ValueMap& network, NetConfig& out);

}  // namespace conform
