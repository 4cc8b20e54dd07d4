// The upstream server's loop.
#include "upstream_server.hpp"

#include <cerrno>
#include <sys/socket.h>
#include <vector>

namespace tcp_relay {
namespace {

// Reads and discards exactly `bytes`; false at end of stream or on error.
bool read_request(int fd, std::int64_t bytes, std::vector<std::uint8_t>& scratch) {
  while (bytes > 0) {
    ssize_t n = ::recv(fd, scratch.data(), std::min<std::size_t>(scratch.size(), bytes), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes -= n;
  }
  return true;
}

bool write_answer(int fd, std::span<const std::uint8_t> answer, std::int64_t piece_bytes) {
  if (piece_bytes <= 0) return write_all(fd, answer);
  const auto piece = static_cast<std::size_t>(piece_bytes);
  for (std::size_t at = 0; at < answer.size(); at += piece)
    if (!write_all(fd, answer.subspan(at, std::min(piece, answer.size() - at)))) return false;
  return true;
}

}  // namespace

void serve_connection(Fd conn, const ServerShape& shape, SocketRegistry& sockets) {
  const int fd = conn.get();
  sockets.add(fd, "server");
  std::vector<std::uint8_t> scratch(64 * 1024);
  const std::vector<std::uint8_t> answer(static_cast<std::size_t>(shape.response_bytes), 'r');
  while (read_request(fd, shape.request_bytes, scratch) &&
         write_answer(fd, answer, shape.piece_bytes)) {
  }
  sockets.remove(fd);
}

}  // namespace tcp_relay
