// Accepting connections, one thread each.
#include "acceptor.hpp"

#include <cerrno>
#include <sys/socket.h>

namespace tcp_relay {

Acceptor::Acceptor(Fd listener, Handler handler)
    : listener_(std::move(listener)), handler_(std::move(handler)), port_(local_port(listener_.get())) {}

Acceptor::~Acceptor() { stop(); }

void Acceptor::start() {
  accept_thread_ = std::thread([this] {
    while (true) {
      int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // the listener was shut down
      }
      set_no_delay(fd);
      std::lock_guard lock(mutex_);
      connections_.emplace_back(handler_, Fd(fd));
    }
  });
}

void Acceptor::stop() {
  if (!accept_thread_.joinable()) return;
  // shutdown() wakes a thread blocked in accept() on Linux; close() would not.
  ::shutdown(listener_.get(), SHUT_RDWR);
  accept_thread_.join();
  std::lock_guard lock(mutex_);
  for (auto& t : connections_) t.join();
  connections_.clear();
}

}  // namespace tcp_relay
