// Kernel TCP sockets on 127.0.0.1 for the relay's three parts: listening,
// connecting, buffers set before the handshake (so the window scale the SYN
// offers matches them), and whole writes.
#pragma once

#include "settings.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace tcp_relay {

/// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  int release();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// A socket or the reason it could not be made (errno text, one line).
struct SocketResult {
  Fd fd;
  std::string problem;
};

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks, with
/// `buffers` applied (accepted sockets inherit them).
SocketResult listen_loopback(const RoleBuffers& buffers);
/// The port a bound socket has, host order.
std::uint16_t local_port(int fd);
/// A TCP connection to 127.0.0.1:`port` from a socket with `buffers` applied
/// before connect().
SocketResult connect_loopback(std::uint16_t port, const RoleBuffers& buffers);
/// Sets TCP_NODELAY, so each write leaves at once as the spike's Go programs'
/// writes do (Go sets it on every TCP connection).
void set_no_delay(int fd);

/// Writes all of `bytes`; false on error or a closed peer (never SIGPIPE).
bool write_all(int fd, std::span<const std::uint8_t> bytes);

}  // namespace tcp_relay
