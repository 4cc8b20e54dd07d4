// The loopback UDP relay a plugin running real processes (TimeModel::real)
// puts between them: the real-time counterpart of SimulatedNetwork.
#pragma once

#include <cstdint>
#include <string>

namespace conform {

/// From RunContext::relay(server_port). Clients send to 127.0.0.1:port()
/// instead of the server; the relay forwards to 127.0.0.1:server_port from a
/// socket of each client's own and carries the answers back, shaping both
/// directions as the case's `network` table says (randomness from the
/// case's seed), and writes `client.pcap` (`client-2.pcap`, ...) and
/// `server.pcap` with the client as 127.0.0.1 and the server as 127.0.0.2,
/// timestamps in nanoseconds since the relay started. Loopback only.
class LoopbackRelay {
 public:
  virtual ~LoopbackRelay() = default;
  /// Empty when forwarding; otherwise why the relay could not start (a bind
  /// failure), and port() is 0.
  virtual const std::string& error() const = 0;
  /// Empty when the relay can shape the path as the `network` table says;
  /// otherwise what it cannot do (a selector naming packets by content
  /// while no key log is followed): the plugin reports the run UNSUPPORTED
  /// with it rather than run a case on a path it did not ask for.
  virtual const std::string& unsupported() const = 0;
  /// A key log file (NSS format) a program writes as it runs, which may not
  /// exist yet: the relay reads the lines appended to it before it reads
  /// each datagram, to apply the selectors that name packets by content
  /// (docs/suites.md, "Selectors"). Call before the client starts, then
  /// ask unsupported() again.
  virtual void follow_key_log(const std::string& path) = 0;
  /// After stop(): empty when every datagram a selector by content had to
  /// judge could be read; otherwise the selector and how many of its
  /// sender's datagrams carried packets whose keys were not yet in the key
  /// logs (a program that writes its key log late): what the selector
  /// picked, or did not, is then not what the case asked for, and the
  /// plugin reports the run as an error rather than judge that path.
  virtual std::string unread_by_selectors() const = 0;
  /// The port on 127.0.0.1 clients send to.
  virtual std::uint16_t port() const = 0;
  /// Waits until every datagram sent to the relay so far has left its links
  /// (none held by a delay, none unread in its sockets), or `at_most_ms`
  /// passed: once the programs have ended, stop() after drain() loses
  /// nothing they sent. Since ABI version 10.
  virtual void drain(std::uint32_t at_most_ms) = 0;
  /// Stops forwarding; datagrams the links still hold are lost. The
  /// framework also stops the relay when Plugin::run returns.
  virtual void stop() = 0;
};

}  // namespace conform
