// The framework's RunContext for one run: captures as pcap files, the key
// log and the log file, all inside the run's artifact folder.
#pragma once

#include "capture/pcap_writer.hpp"
#include "net/simulator.hpp"
#include "net/udp_relay.hpp"

#include <conform/run_context.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace conform {

class CaseContext final : public RunContext {
 public:
  /// Creates `artifact_dir` if needed. Throws std::runtime_error naming the
  /// folder when it cannot.
  /// `net` is `settings.network` as the loader read it.
  CaseContext(CaseSettings settings, NetConfig net, std::string artifact_dir);
  ~CaseContext() override;

  const CaseSettings& settings() const override { return settings_; }
  const std::string& artifact_dir() const override { return artifact_dir_; }
  /// Throws std::logic_error for a vantage whose capture was adopted.
  CaptureWriter& capture(std::string_view vantage) override;
  std::string adopt_capture(std::string_view vantage, const std::string& path) override;
  void key_log(std::string_view line) override;
  void log(std::string_view line) override;
  SimulatedNetwork& network() override;
  LoopbackRelay& relay(std::uint16_t server_port) override;
  bool stop_requested() const override;
  /// Stops the relay, logs the network's summary if the run used one, then flushes and closes
  /// every capture; later capture() calls reopen none.
  void close_captures();

 private:
  CaseSettings settings_;
  NetConfig net_;
  std::string artifact_dir_;
  /// capture() may be called from the relay's thread as well as the plugin's.
  std::mutex captures_mutex_;
  std::map<std::string, std::unique_ptr<PcapWriter>, std::less<>> captures_;
  /// Vantages whose capture the plugin handed over as a file.
  std::set<std::string, std::less<>> adopted_;
  /// Declared after captures_ so it goes first: its taps point into them.
  std::unique_ptr<Simulator> network_;
  std::unique_ptr<UdpRelay> relay_;
  std::ofstream key_log_;
  /// Key log lines written before the simulator was made, for it.
  std::vector<std::string> early_key_lines_;
  std::ofstream log_;
};

}  // namespace conform
