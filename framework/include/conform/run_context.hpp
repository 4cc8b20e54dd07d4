// What the framework hands a plugin for one run of one case: the case's
// settings, where its artifacts go, and the writers for captures and secrets.
#pragma once

#include <conform/capture_writer.hpp>
#include <conform/demand.hpp>
#include <conform/network.hpp>
#include <conform/relay.hpp>
#include <conform/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conform {

/// The fully resolved settings of one run: defaults filled in, matrix values
/// and mutant overrides applied, every value of the type its spec declares.
struct CaseSettings {
  /// Expanded case id, e.g. `max-streams-uni/fanout[frames=200]`.
  std::string id;
  std::string scenario;
  /// Scenario parameters.
  ValueMap params;
  /// Knobs per role ("client", "server", ...): every knob of the plugin, for
  /// each role the plugin plays.
  std::map<std::string, ValueMap> knobs;
  /// The case's `network` table (settings of the simulator or relay).
  ValueMap network;
  /// Seed of this run; every random choice of the plugin derives from it.
  std::uint64_t seed = 0;
  /// What the run asks for, as its scenario declares it (ScenarioSpec::
  /// demand) from `params`; empty when the scenario declares nothing and
  /// for `conform check`, which runs no scenario. Since ABI version 6.
  std::optional<RunDemand> demand;
};

/// Services of the framework for one run. Valid until Plugin::run returns.
class RunContext {
 public:
  virtual ~RunContext() = default;
  virtual const CaseSettings& settings() const = 0;
  /// The case's artifact folder (absolute path); a plugin may add files.
  virtual const std::string& artifact_dir() const = 0;
  /// The capture of one vantage point ("client", "server"), written to
  /// `<artifact_dir>/<vantage>.pcap`. Repeated calls return the same writer.
  virtual CaptureWriter& capture(std::string_view vantage) = 0;
  /// Hands over a capture file the plugin recorded itself (for instance a
  /// libpcap live capture of the loopback interface, whose link type and
  /// timestamps are the kernel's) as the capture of `vantage`: the file at
  /// `path` is moved to `<artifact_dir>/<vantage>.pcap`. Any pcap or pcapng
  /// file libpcap reads is accepted. Returns an empty string on success, else
  /// one line saying why not: the file is missing or not a capture, or
  /// `vantage` already has a capture (through capture() or an earlier
  /// adoption). After adoption, capture(vantage) must not be called.
  /// Since ABI version 3.
  virtual std::string adopt_capture(std::string_view vantage, const std::string& path) = 0;
  /// Appends one NSS key log line (`LABEL <client_random hex> <secret hex>`)
  /// to `<artifact_dir>/keys.log` and flushes it, so secrets survive a crash.
  virtual void key_log(std::string_view line) = 0;
  /// A line for `conform run --verbose` and the case's `log.txt`.
  virtual void log(std::string_view line) = 0;
  /// The simulated network of this run, built on first call from
  /// `settings().network` and `settings().seed`, writing its captures through
  /// capture(). Repeated calls return the same network. For plugins whose
  /// TimeModel is `simulated`.
  virtual SimulatedNetwork& network() = 0;
  /// The loopback relay of this run to the server at 127.0.0.1:`server_port`,
  /// started on first call, shaped by `settings().network` and seeded by
  /// `settings().seed`, writing its captures through capture(). Repeated
  /// calls return the same relay (and ignore `server_port`). For plugins
  /// whose TimeModel is `real`; a run uses the network or the relay.
  virtual LoopbackRelay& relay(std::uint16_t server_port) = 0;
  /// True once conform asked this run to stop early (PluginInfo::
  /// stop_grace_ms): a plugin whose run waits on programs of its own polls it
  /// and ends them. Since ABI version 9.
  virtual bool stop_requested() const = 0;
};

}  // namespace conform
