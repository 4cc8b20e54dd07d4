// Forwarding both directions of one relayed connection.
#include "relay.hpp"

#include "forwarding.hpp"

#include <thread>

namespace tcp_relay {

void relay_connection(Fd downstream, const RelayShape& shape, SocketRegistry& sockets) {
  auto upstream = connect_loopback(shape.upstream_port, shape.buffers);
  if (!upstream.fd) return;  // the client sees the connection close
  const int down = downstream.get(), up = upstream.fd.get();
  sockets.add(down, "relay-downstream");
  sockets.add(up, "relay-upstream");
  std::thread answers([&] { forward(up, down, shape.piece_bytes, shape.forwarding); });
  forward(down, up, shape.piece_bytes, shape.forwarding);
  answers.join();
  sockets.remove(down);
  sockets.remove(up);
}

}  // namespace tcp_relay
