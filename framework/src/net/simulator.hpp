// The discrete-event simulator (STYLE.md habit 4): a virtual clock that jumps
// from one event to the next (a datagram's arrival, an endpoint's timer) and
// never sleeps or reads a wall clock, the sans-IO endpoints it drives, the
// links between them and the taps writing each endpoint's capture.
#pragma once

#include "net/datagram_contents.hpp"
#include "net/link.hpp"
#include "net/net_config.hpp"

#include <conform/network.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace conform {

/// Where the simulator writes the capture of a vantage point ("server",
/// "client", "client-2"); may return nullptr for no capture.
using CaptureSource = std::function<CaptureWriter*(std::string_view vantage)>;

/// One thing that happened on the network, for traces and determinism tests.
struct NetEvent {
  /// `cut`: a packet the drop list took out of a datagram that went on;
  /// `picked`: a datagram the reorder, duplicate or corrupt list picked
  /// (`reason` names the list).
  enum class Kind { sent, lost, arrived, timeout, cut, picked };
  Kind kind;
  Instant at;
  /// Node that sent (sent, lost) or received (arrived) the datagram or whose
  /// timer fired: 0 is the server, i + 1 the i-th client.
  int node;
  /// The other end of the datagram; -1 for a timeout or an unroutable one.
  int peer = -1;
  /// Index of the datagram in its direction (from 1); 0 for a timeout.
  std::int64_t index = 0;
  std::size_t bytes = 0;
  /// For `lost`: why; "unroutable" when no endpoint has the address.
  const char* reason = "";
  bool corrupted = false;
  bool duplicate = false;
  /// For `lost`, `cut` and `picked`, when the run's keys read the datagram (a content
  /// selector asked them to): its packets, "Initial pn 0 [ACK CRYPTO]".
  std::string packets{};
  bool operator==(const NetEvent&) const = default;
};

/// "12345 sent server->client #3 1200 B" and the like, one line per event.
std::string to_string(const NetEvent& e);

/// Datagram counts over a simulator's life.
struct NetStats {
  std::int64_t sent = 0, arrived = 0, lost = 0, corrupted = 0, duplicated = 0;
};

class Simulator final : public SimulatedNetwork {
 public:
  /// A network shaped by `config` (a case's `network` table as the loader
  /// read it) whose randomness all derives from `seed`.
  Simulator(NetConfig config, std::uint64_t seed, CaptureSource captures);
  ~Simulator() override;

  std::optional<UdpEndpoint> attach_server(Endpoint& server) override;
  std::optional<UdpEndpoint> attach_client(Endpoint& client) override;
  SimulationEnd run() override;
  SimulationEnd run_until(Instant deadline) override;
  Instant now() const override { return now_; }

  /// A key log line an endpoint of the run wrote: content selectors read
  /// the datagrams with these secrets.
  void key_log(std::string_view line);
  /// Called with every event as it happens (nothing is kept otherwise).
  void set_trace(std::function<void(const NetEvent&)> trace) { trace_ = std::move(trace); }
  const NetStats& stats() const { return stats_; }
  /// "sent 10, arrived 8, lost 2, ..." for the run's log.
  std::string summary() const;
  /// The explicit selectors that picked nothing so far (net/link.hpp).
  std::vector<std::string> idle_selectors() const;

 private:
  struct Node;
  struct InFlight;

  void pump(int node);
  void send(int from, Transmit t);
  void deliver(InFlight d);
  void emit(const NetEvent& e);
  int route(UdpEndpoint to) const;
  Instant next_timer(int& node) const;

  NetConfig config_;
  std::uint64_t seed_;
  CaptureSource captures_;
  /// nodes_[0] is the server (absent until attached), nodes_[i + 1] client i.
  std::vector<std::unique_ptr<Node>> nodes_;
  /// Each node's next_timeout() as last read (never for an absent server).
  std::vector<Instant> timers_;
  /// Arrivals in flight as a min-heap on (time, sequence number), so equal
  /// times keep the order in which they were scheduled.
  std::vector<InFlight> heap_;
  std::uint64_t next_seq_ = 0;
  Instant now_;
  /// Datagrams sent at now_ so far, and why the run is stalled if it is
  /// (for good: a stalled network ends every later run at once).
  std::int64_t datagrams_now_ = 0;
  std::string stall_;
  NetStats stats_;
  std::function<void(const NetEvent&)> trace_;
  /// Reads every datagram sent, when a selector names packets by content.
  std::unique_ptr<DatagramReader> reader_;
};

}  // namespace conform
