// The simulated network a plugin running in virtual time plugs its sans-IO
// endpoints into: one server and N clients, each client on a path of its own
// (one link per direction) shaped and impaired as the case's `network` table
// says, with a capture at every endpoint.
#pragma once

#include <conform/endpoint.hpp>
#include <conform/time.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace conform {

/// Why SimulatedNetwork::run or run_until returned.
struct SimulationEnd {
  enum class Reason {
    /// Nothing left to do: no datagram in flight and no endpoint timer armed.
    quiescent,
    /// run_until's deadline was reached with work still pending.
    deadline,
    /// The case's virtual-time budget (`network.budget_ms`) ran out: a stuck
    /// run. Report it as RunOutcome::Status::timeout.
    budget_exhausted,
    /// Virtual time cannot move on: an endpoint's timer stays due at the
    /// same instant (10,000 expiries), or a million datagrams are sent at
    /// one instant (an endpoint that always has another, two echoing over a
    /// zero-delay path). `detail` names the endpoint; later runs end at once.
    /// Report it as RunOutcome::Status::error.
    stalled,
    /// The network cannot run: no server attached; `detail` says so.
    misconfigured,
  };
  Reason reason = Reason::quiescent;
  /// The virtual time when the run stopped.
  Instant at;
  std::string detail;
};

/// "quiescent", "deadline", "budget exhausted", "stalled", "misconfigured".
inline const char* to_string(SimulationEnd::Reason r) {
  switch (r) {
    case SimulationEnd::Reason::quiescent: return "quiescent";
    case SimulationEnd::Reason::deadline: return "deadline";
    case SimulationEnd::Reason::budget_exhausted: return "budget exhausted";
    case SimulationEnd::Reason::stalled: return "stalled";
    case SimulationEnd::Reason::misconfigured: return "misconfigured";
  }
  return "?";
}

/// The simulator for one run, from RunContext::network(). Addresses: the
/// server is 127.0.0.2:4433; the i-th client (from 0) is 127.0.0.1:(40000+i).
/// Captures: the server's view is `server.pcap`, the first client's
/// `client.pcap`, the next ones `client-2.pcap`, `client-3.pcap`, ... Each
/// holds what that endpoint sent (when it sent it) and what reached it (when
/// it arrived, after loss, reordering, duplication and corruption).
/// Randomness comes only from the case's seed. Not thread-safe.
class SimulatedNetwork {
 public:
  virtual ~SimulatedNetwork() = default;
  /// Attaches the server endpoint, which must outlive the network's runs.
  /// Returns its address, or nothing if a server is already attached.
  virtual std::optional<UdpEndpoint> attach_server(Endpoint& server) = 0;
  /// Attaches one more client (with a path of its own to the server) and
  /// returns its address. May be called between runs: the client starts at
  /// the current virtual time. Returns nothing past 1000 clients.
  virtual std::optional<UdpEndpoint> attach_client(Endpoint& client) = 0;
  /// Runs until quiescent or until the virtual-time budget runs out.
  virtual SimulationEnd run() = 0;
  /// As run(), but also stops once virtual time would pass `deadline`
  /// (then now() == deadline). A later call continues where it stopped.
  virtual SimulationEnd run_until(Instant deadline) = 0;
  /// The current virtual time; starts at 0.
  virtual Instant now() const = 0;
};

}  // namespace conform
