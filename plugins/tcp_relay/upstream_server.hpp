// The upstream server: on each connection, reads requests of `request_bytes`
// and answers each with `response_bytes`, in one write or in `piece_bytes`
// pieces (one send() each, TCP_NODELAY set, so each piece leaves at once).
#pragma once

#include "socket_registry.hpp"
#include "sockets.hpp"

#include <cstdint>

namespace tcp_relay {

struct ServerShape {
  std::int64_t request_bytes = 0, response_bytes = 0;
  /// 0: the answer in one write.
  std::int64_t piece_bytes = 0;
};

/// Serves `conn` until the peer closes or an error; returns then.
void serve_connection(Fd conn, const ServerShape& shape, SocketRegistry& sockets);

}  // namespace tcp_relay
