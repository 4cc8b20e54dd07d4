// The loopback UDP relay: the real-time counterpart of the simulator, for
// plugins that run real processes. Clients send to the relay's port on
// 127.0.0.1 as if it were the server; the relay forwards each datagram to the
// server's port on 127.0.0.1 from a socket of that client's own, and the
// server's answers back, through the same links (delay, bandwidth, queue,
// MTU, loss, reordering, duplication, corruption, jitter) the `network` table
// gives the simulator, and writes the same per-endpoint captures. Selectors
// that name packets by content read each datagram, as it arrives at the
// relay, with the secrets of the key logs the programs are writing
// (follow_key_log). It binds and sends to 127.0.0.1 only, ever, and needs
// no privilege.
#pragma once

#include "net/datagram_contents.hpp"
#include "net/key_log_follower.hpp"
#include "net/link.hpp"
#include "net/net_config.hpp"
#include "net/simulator.hpp"

#include <conform/relay.hpp>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace conform {

class UdpRelay final : public LoopbackRelay {
 public:
  /// A relay to the server listening on 127.0.0.1:`server_port`, shaped by
  /// `config` with randomness from `seed`. Binds its client-facing socket on
  /// 127.0.0.1:`listen_port` (0: any free port) now; forwards nothing until
  /// start(). On failure error() says why and start() does nothing.
  UdpRelay(NetConfig config, std::uint64_t seed, std::uint16_t server_port, CaptureSource captures,
           std::uint16_t listen_port = 0);
  ~UdpRelay() override;
  UdpRelay(const UdpRelay&) = delete;
  UdpRelay& operator=(const UdpRelay&) = delete;

  /// Empty if the relay is ready; otherwise what failed ("bind 127.0.0.1:...: ...").
  const std::string& error() const override { return error_; }
  /// The explicit selectors that picked nothing so far; call once stopped.
  std::vector<std::string> idle_selectors() const;
  const std::string& unsupported() const override { return unsupported_; }
  void follow_key_log(const std::string& path) override;
  std::string unread_by_selectors() const override;
  /// The port clients send to, on 127.0.0.1.
  std::uint16_t port() const override { return port_; }
  /// Starts forwarding on a thread of its own. Time 0 of the captures is now.
  void start();
  void drain(std::uint32_t at_most_ms) override;
  /// Stops forwarding for good (datagrams still held by the links are
  /// dropped) and joins the thread; the captures are no longer written
  /// after it returns.
  void stop() override;
  /// Datagram counts; read them after stop().
  const NetStats& stats() const { return stats_; }

 private:
  struct Session;
  struct Held;

  void open(std::uint16_t listen_port);
  void loop();
  Instant clock() const;
  void read_clients(Instant now);
  void read_server(Session& s, Instant now);
  void schedule(LinkOutcome out, int to_fd, std::uint16_t to_port, CaptureWriter* tap,
                UdpEndpoint from, UdpEndpoint to);
  void release(Instant until);
  Session& session_for(std::uint16_t client_port);
  /// What the datagram is, when a selector reads packets; else nothing.
  std::optional<DatagramContents> read_contents(Instant now, UdpEndpoint from, UdpEndpoint to,
                                                const std::vector<std::uint8_t>& payload);

  NetConfig config_;
  std::uint64_t seed_;
  std::uint16_t server_port_;
  CaptureSource captures_;
  CaptureWriter* server_tap_ = nullptr;
  int listen_fd_ = -1;
  int wake_fd_ = -1;
  std::uint16_t port_ = 0;
  std::string error_;
  std::string unsupported_;
  KeyLogFollower key_logs_;
  std::unique_ptr<DatagramReader> reader_;  ///< when a selector reads packets
  /// Datagrams with a packet the key logs could not read yet, by sender:
  /// [0] clients', [1] the server's.
  std::array<std::uint64_t, 2> unread_{};
  std::vector<std::unique_ptr<Session>> sessions_;
  std::vector<Held> held_;
  /// Where recvfrom puts each datagram: one of the largest UDP size.
  std::vector<std::uint8_t> buffer_;
  std::uint64_t next_seq_ = 0;
  std::int64_t start_ns_ = 0;
  NetStats stats_;
  std::atomic<bool> stopping_{false};
  /// drain(): the requests made, and the last request whose loop pass
  /// (begun after it) ended with nothing held.
  std::atomic<std::uint64_t> drain_asked_{0};
  std::uint64_t drained_ = 0;
  std::mutex drain_mutex_;
  std::condition_variable drained_cv_;
  std::thread thread_;
};

}  // namespace conform
