// A listening socket whose accepted connections each get a thread of their
// own, all joined when the acceptor stops: the shape of the upstream server
// and of the relay.
#pragma once

#include "sockets.hpp"

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tcp_relay {

class Acceptor {
 public:
  using Handler = std::function<void(Fd)>;
  Acceptor(Fd listener, Handler handler);
  ~Acceptor();
  Acceptor(const Acceptor&) = delete;
  Acceptor& operator=(const Acceptor&) = delete;

  std::uint16_t port() const { return port_; }
  void start();
  /// Stops accepting and waits for every connection's handler to return;
  /// handlers blocked on a socket must be unblocked first (SocketRegistry::shutdown_all).
  void stop();

 private:
  Fd listener_;
  Handler handler_;
  std::uint16_t port_ = 0;
  std::thread accept_thread_;
  std::mutex mutex_;
  std::vector<std::thread> connections_;
};

}  // namespace tcp_relay
