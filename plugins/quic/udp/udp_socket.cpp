// POSIX UDP sockets, non-blocking, driven by poll().
#include "udp/udp_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace conform::quic::udp {

namespace {

sockaddr_in to_sockaddr(UdpAddress a) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(a.ip);
  sa.sin_port = htons(a.port);
  return sa;
}

UdpAddress from_sockaddr(const sockaddr_in& sa) {
  return {ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port)};
}

constexpr int kSocketBuffer = 4 << 20;  // bytes: bursts of a whole flow-control window

}  // namespace

std::optional<UdpAddress> UdpAddress::parse(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string host(text.substr(0, colon));
  const std::string_view port_text = text.substr(colon + 1);
  in_addr addr{};
  if (inet_pton(AF_INET, host.c_str(), &addr) != 1) return std::nullopt;
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535 || port_text.empty())
    return std::nullopt;
  return UdpAddress{ntohl(addr.s_addr), static_cast<uint16_t>(port)};
}

std::string UdpAddress::to_string() const {
  return std::to_string(ip >> 24) + "." + std::to_string((ip >> 16) & 0xff) + "." +
         std::to_string((ip >> 8) & 0xff) + "." + std::to_string(ip & 0xff) + ":" + std::to_string(port);
}

std::optional<UdpSocket> UdpSocket::bind(UdpAddress local, std::string& error) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return std::nullopt;
  }
  UdpSocket s(fd);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kSocketBuffer, sizeof kSocketBuffer);
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &kSocketBuffer, sizeof kSocketBuffer);
  const sockaddr_in sa = to_sockaddr(local);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa) != 0) {
    error = "bind " + local.to_string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return s;
}

bool UdpSocket::connect(UdpAddress peer, std::string& error) {
  const sockaddr_in sa = to_sockaddr(peer);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&sa), sizeof sa) == 0) return true;
  error = "connect " + peer.to_string() + ": " + std::strerror(errno);
  return false;
}

UdpSocket& UdpSocket::operator=(UdpSocket&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) ::close(fd_);
}

UdpAddress UdpSocket::local_address() const {
  sockaddr_in sa{};
  socklen_t len = sizeof sa;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len);
  return from_sockaddr(sa);
}

bool UdpSocket::send(UdpAddress to, ByteView datagram) {
  const sockaddr_in sa = to_sockaddr(to);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const ssize_t n = ::sendto(fd_, datagram.data(), datagram.size(), 0,
                               reinterpret_cast<const sockaddr*>(&sa), sizeof sa);
    if (n >= 0) return true;
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
    pollfd p{fd_, POLLOUT, 0};
    ::poll(&p, 1, 100);
  }
  return false;
}

std::optional<size_t> UdpSocket::receive(std::span<uint8_t> buf, UdpAddress& from) {
  sockaddr_in sa{};
  socklen_t len = sizeof sa;
  while (true) {
    const ssize_t n = ::recvfrom(fd_, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&sa), &len);
    if (n >= 0) {
      from = from_sockaddr(sa);
      return static_cast<size_t>(n);
    }
    if (errno != EINTR) return std::nullopt;
  }
}

}  // namespace conform::quic::udp
