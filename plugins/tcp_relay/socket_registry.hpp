// The run's live connected sockets by role, so the TCP_INFO sampler can read
// them while transfers run and teardown can unblock every thread at once.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace tcp_relay {

struct RegisteredSocket {
  int fd = -1;
  /// "client", "relay-downstream", "relay-upstream", "server".
  std::string role;
};

class SocketRegistry {
 public:
  void add(int fd, std::string role);
  /// Call before closing `fd`, so no one reads a reused descriptor.
  void remove(int fd);
  std::vector<RegisteredSocket> snapshot() const;
  /// shutdown(SHUT_RDWR) on every socket: blocked reads and writes return.
  void shutdown_all() const;

 private:
  mutable std::mutex mutex_;
  std::vector<RegisteredSocket> sockets_;
};

}  // namespace tcp_relay
