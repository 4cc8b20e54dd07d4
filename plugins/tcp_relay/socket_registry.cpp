// The registry of live sockets.
#include "socket_registry.hpp"

#include <algorithm>
#include <sys/socket.h>

namespace tcp_relay {

void SocketRegistry::add(int fd, std::string role) {
  std::lock_guard lock(mutex_);
  sockets_.push_back({fd, std::move(role)});
}

void SocketRegistry::remove(int fd) {
  std::lock_guard lock(mutex_);
  std::erase_if(sockets_, [fd](const RegisteredSocket& s) { return s.fd == fd; });
}

std::vector<RegisteredSocket> SocketRegistry::snapshot() const {
  std::lock_guard lock(mutex_);
  return sockets_;
}

void SocketRegistry::shutdown_all() const {
  std::lock_guard lock(mutex_);
  for (const auto& s : sockets_) ::shutdown(s.fd, SHUT_RDWR);
}

}  // namespace tcp_relay
