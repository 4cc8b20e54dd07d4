// Runs Connections on a real UDP socket: one client connection, or a server
// accepting many, demultiplexed by the Destination Connection ID (RFC 9000
// §5.2). The only place in plugins/quic that reads a clock: a steady clock,
// turned into the core's Instant. Event loop: poll() on the socket until the
// earliest next_timeout(), then datagrams in, timers, transmits out.
#pragma once

#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "connection/connection.hpp"
#include "udp/pcap_log.hpp"
#include "udp/udp_socket.hpp"

namespace conform::quic::udp {

/// The application on one connection (HTTP/3 in conform-quic).
class ConnectionApp {
 public:
  virtual ~ConnectionApp() = default;
  /// Each event the connection emitted, in order.
  virtual void on_event(Instant now, const Event& event) = 0;
};

/// Builds the application of a new connection.
using AppFactory = std::function<std::unique_ptr<ConnectionApp>(Connection&)>;

struct DriverOptions {
  std::string keylog_path;  ///< NSS key log, appended to; empty: none
  std::string pcap_path;    ///< pcap of every datagram sent and received; empty: none
  /// Server: connections accepted before the driver stops on its own once
  /// they closed; 0 runs until stopped.
  uint64_t max_connections = 0;
  /// With a violation configured: how long the peer may stay silent after
  /// it went out before the driver abandons the connection (sends nothing
  /// more and counts it ended: the capture shows no answer). A peer that
  /// goes on talking (a browser loading its page regardless) is left to
  /// end the connection as it would. 0 waits for the idle timeout.
  Duration violation_answer = Duration::nanos(0);
};

/// Wall-clock-free monotonic time for the core: steady_clock since boot.
Instant steady_now();

class UdpDriver {
 public:
  /// A client connecting from an ephemeral port to `server`.
  /// Errors (as text): socket, key log or pcap files, TLS setup.
  static std::unique_ptr<UdpDriver> client(UdpAddress server, const Config& config, AppFactory app,
                                           const DriverOptions& options, std::string& error);
  /// A server listening on `listen` (port 0: any free port).
  static std::unique_ptr<UdpDriver> server(UdpAddress listen, const Config& config, AppFactory app,
                                           const DriverOptions& options, std::string& error);
  ~UdpDriver();

  UdpAddress local_address() const { return self_; }
  /// Runs until `stop` is set; a client also stops when its connection
  /// closed or drains, a server once max_connections connections came and
  /// each closed or drains.
  void run(const std::atomic<bool>& stop);
  /// Client: its connection (closed or not), for the exit status.
  const Connection* client_connection() const;
  /// Client: whether its connection was abandoned after its violation.
  bool client_abandoned() const { return !is_server_ && endpoints_.at(0).abandoned; }
  uint64_t connections_accepted() const { return accepted_; }

 private:
  struct Endpoint {
    std::unique_ptr<Connection> conn;
    std::unique_ptr<ConnectionApp> app;
    UdpAddress peer;
    std::string initial_dcid;  ///< server: the client's first DCID, also routed
    /// When the driver first saw the violation gone out (never before),
    /// and when a datagram of the peer's last arrived.
    Instant violation_at = Instant::never(), heard_at = Instant::never();
    bool abandoned = false;
  };
  /// Marks `e` abandoned once its peer has been silent for
  /// DriverOptions::violation_answer since the violation went out, with no
  /// close; returns when to look again.
  Instant watch_violation(Endpoint& e, Instant now);
  UdpDriver(UdpSocket socket, const Config& config, AppFactory app);
  bool open_files(const DriverOptions& options, std::string& error);
  Endpoint* route(ByteView datagram, UdpAddress from);
  Endpoint* accept(ByteView datagram, UdpAddress from, const std::string& dcid);
  void deliver(Endpoint& e, Instant now);
  void flush(Endpoint& e, Instant now);
  void receive(Instant now);
  /// Server: forgets the connections closed or abandoned.
  void reap();

  UdpSocket socket_;
  UdpAddress self_;
  Config config_;
  AppFactory make_app_;
  std::unique_ptr<PcapLog> pcap_;
  std::ofstream keylog_;
  bool is_server_ = false;
  uint64_t max_connections_ = 0;
  Duration violation_answer_ = Duration::nanos(0);
  uint64_t accepted_ = 0;
  std::map<uint64_t, Endpoint> endpoints_;  ///< by accept order; a client's is 0
  std::map<std::string, uint64_t> by_cid_;  ///< server: DCID bytes -> endpoint
};

}  // namespace conform::quic::udp
