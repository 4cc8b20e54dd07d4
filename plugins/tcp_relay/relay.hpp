// The relay: for each client connection, one connection to the upstream
// server, and each direction forwarded as it arrives: every read of up to
// `piece_bytes` is written on at once (TCP_NODELAY), the write pattern of a
// streaming proxy that flushes each piece, which the spike found to stall.
// How a piece crosses the relay (copied or spliced) is in forwarding.hpp.
#pragma once

#include "settings.hpp"
#include "socket_registry.hpp"
#include "sockets.hpp"

namespace tcp_relay {

struct RelayShape {
  std::uint16_t upstream_port = 0;
  std::int64_t piece_bytes = 0;
  Forwarding forwarding = Forwarding::splice;
  /// Buffers of the relay's upstream socket.
  RoleBuffers buffers;
};

/// Relays `downstream` to a new upstream connection until both directions
/// end; returns then.
void relay_connection(Fd downstream, const RelayShape& shape, SocketRegistry& sockets);

}  // namespace tcp_relay
