// The client: opens its connections, then for each transfer sends a request
// and reads the whole answer, timing it with the steady clock, optionally
// sleeping before each read to play a reader that cannot keep up.
#pragma once

#include "settings.hpp"
#include "socket_registry.hpp"
#include "tcp_info_sampler.hpp"

#include <string>
#include <vector>

namespace tcp_relay {

struct ClientResult {
  std::vector<TimedTransfer> transfers;
  /// Empty when every transfer completed; else why the client stopped.
  std::string problem;
};

/// Runs every transfer of `s` against 127.0.0.1:`port`. Stops early at the
/// time limit or on a socket error, saying so in `problem`.
ClientResult run_client(const RunSettings& s, std::uint16_t port, SocketRegistry& sockets,
                        TcpInfoSampler& sampler);

}  // namespace tcp_relay
