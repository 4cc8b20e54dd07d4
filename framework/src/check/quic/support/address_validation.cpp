#include "check/quic/support/address_validation.hpp"

#include <vector>

namespace conform::quic_checks {

std::optional<std::size_t> address_validated_at(const dissect::Connection& c) {
  std::vector<dissect::Bytes> retry_tokens;
  for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    if (d.direction == dissect::Direction::server_to_client) {
      for (const auto& p : d.packets)
        if (p.type == dissect::PacketType::retry) retry_tokens.push_back(p.extras().token);
      continue;
    }
    for (const auto& p : d.packets) {
      if (p.type == dissect::PacketType::handshake && p.decrypted()) return i;
      if (p.type == dissect::PacketType::initial && !p.extras().token.empty())
        for (const auto& t : retry_tokens)
          if (t == p.extras().token) return i;
    }
  }
  return std::nullopt;
}

}  // namespace conform::quic_checks
