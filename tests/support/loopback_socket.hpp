// A UDP socket bound to 127.0.0.1 on a port the kernel picks: a test's
// stand-in for a peer (and the fixture plugin's, which includes this header
// by its relative path, having no test include folder).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace conform::test {

inline sockaddr_in loopback_address(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return a;
}

struct LoopbackSocket {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  std::uint16_t port = 0;

  LoopbackSocket() {
    sockaddr_in a = loopback_address(0);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~LoopbackSocket() { close(fd); }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;

  void send_to(std::uint16_t to_port, const std::vector<std::uint8_t>& payload) const {
    const sockaddr_in to = loopback_address(to_port);
    sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
  }

  /// Datagrams (payload, source port) until `count` arrived or `quiet_ms`
  /// passed without one.
  std::vector<std::pair<std::vector<std::uint8_t>, std::uint16_t>> receive(std::size_t count,
                                                                           int quiet_ms = 2000) const {
    std::vector<std::pair<std::vector<std::uint8_t>, std::uint16_t>> out;
    pollfd p{fd, POLLIN, 0};
    while (out.size() < count && poll(&p, 1, quiet_ms) > 0) {
      std::vector<std::uint8_t> buf(65536);
      sockaddr_in src{};
      socklen_t len = sizeof src;
      const auto n = recvfrom(fd, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&src), &len);
      buf.resize(static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
      out.emplace_back(std::move(buf), ntohs(src.sin_port));
    }
    return out;
  }
};

}  // namespace conform::test
