// Finding the packets a check needs but no key decrypted.
#include "check/quic/support/key_visibility.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {
namespace {


// The client random names the connection as the key log does, so a reader
// can search the key log for it; addresses may be rewritten (conform check
// moves a connection to conform's own addresses).
std::string why(const CaptureFacts& capture, const dissect::Connection& c, KeysNeeded level,
                dissect::Direction direction, std::size_t sent) {
  const std::string conn = c.client_random ? "the connection of client random " + dissect::to_hex(*c.client_random)
                                           : std::string("a connection whose ClientHello is not in the capture");
  const std::string what = fmt::format("none of its {} {} packets from the {} decrypt", sent, to_string(level),
                                       direction == dissect::Direction::client_to_server ? "client" : "server");
  if (level != KeysNeeded::initial && !c.secrets_found)
    return fmt::format("{}: no {} keys in the key log for {}: {}", capture.file, to_string(level), conn, what);
  return fmt::format("{}: the {} keys for {} do not decrypt its packets: {}", capture.file, to_string(level), conn,
                     what);
}

}  // namespace

const char* to_string(KeysNeeded level) {
  switch (level) {
    case KeysNeeded::initial: return "Initial";
    case KeysNeeded::handshake: return "Handshake";
    case KeysNeeded::one_rtt: return "1-RTT";
  }
  return "?";
}

std::optional<std::string> undecryptable(const std::vector<const CaptureFacts*>& captures, KeysNeeded level) {
  // The packets of each level are those its keys protect (RFC 9001 §4):
  // counted once per connection (ConnectionFacts::protected_packets).
  for (const auto* capture : captures)
    for (const auto& c : capture->connections)
      for (auto l = KeysNeeded::initial; l <= level; l = KeysNeeded(int(l) + 1))
        for (auto direction : {dissect::Direction::client_to_server, dissect::Direction::server_to_client}) {
          const auto& n = c.protected_packets[static_cast<std::size_t>(l)][static_cast<std::size_t>(direction)];
          if (n.sent > 0 && n.decrypted == 0) return why(*capture, *c.connection, l, direction, n.sent);
        }
  return std::nullopt;
}

}  // namespace conform::quic_checks
