// Forwarding both directions of one relayed connection.
#include "relay.hpp"

#include <cerrno>
#include <sys/socket.h>
#include <thread>
#include <vector>

namespace tcp_relay {
namespace {

// Copies `from` to `to` piece by piece until end of stream, then passes the
// end on (shutdown for writing), as a proxy does.
void forward(int from, int to, std::int64_t piece_bytes) {
  std::vector<std::uint8_t> piece(static_cast<std::size_t>(piece_bytes));
  while (true) {
    ssize_t n = ::recv(from, piece.data(), piece.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (!write_all(to, {piece.data(), static_cast<std::size_t>(n)})) break;
  }
  ::shutdown(to, SHUT_WR);
}

}  // namespace

void relay_connection(Fd downstream, const RelayShape& shape, SocketRegistry& sockets) {
  auto upstream = connect_loopback(shape.upstream_port, shape.buffers);
  if (!upstream.fd) return;  // the client sees the connection close
  const int down = downstream.get(), up = upstream.fd.get();
  sockets.add(down, "relay-downstream");
  sockets.add(up, "relay-upstream");
  std::thread answers([&] { forward(up, down, shape.piece_bytes); });
  forward(down, up, shape.piece_bytes);
  answers.join();
  sockets.remove(down);
  sockets.remove(up);
}

}  // namespace tcp_relay
