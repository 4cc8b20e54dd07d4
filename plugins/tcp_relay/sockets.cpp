// Loopback TCP sockets.
#include "sockets.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tcp_relay {

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

int Fd::release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

namespace {

std::string failed(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// Buffers must be set before listen() or connect(): the window scale offered
// on the SYN is chosen from the receive buffer then (RFC 7323 §2.2).
std::string apply(int fd, const RoleBuffers& b) {
  if (b.receive.fixed_bytes &&
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &*b.receive.fixed_bytes, sizeof(int)) != 0)
    return failed("setsockopt(SO_RCVBUF)");
  if (b.send.fixed_bytes &&
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &*b.send.fixed_bytes, sizeof(int)) != 0)
    return failed("setsockopt(SO_SNDBUF)");
  return {};
}

}  // namespace

SocketResult listen_loopback(const RoleBuffers& buffers) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) return {Fd(), failed("socket")};
  if (auto p = apply(fd.get(), buffers); !p.empty()) return {Fd(), p};
  sockaddr_in a = loopback(0);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return {Fd(), failed("bind")};
  if (::listen(fd.get(), 64) != 0) return {Fd(), failed("listen")};
  return {std::move(fd), {}};
}

std::uint16_t local_port(int fd) {
  sockaddr_in a{};
  socklen_t len = sizeof a;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return 0;
  return ntohs(a.sin_port);
}

SocketResult connect_loopback(std::uint16_t port, const RoleBuffers& buffers) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) return {Fd(), failed("socket")};
  if (auto p = apply(fd.get(), buffers); !p.empty()) return {Fd(), p};
  sockaddr_in a = loopback(port);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    return {Fd(), failed("connect")};
  set_no_delay(fd.get());
  return {std::move(fd), {}};
}

void set_no_delay(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace tcp_relay
