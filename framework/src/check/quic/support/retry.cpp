#include "check/quic/support/retry.hpp"

#include <algorithm>

namespace conform::quic_checks {
namespace {

bool has_initial(const dissect::Datagram& d, bool with_token, const dissect::Bytes& token) {
  return std::any_of(d.packets.begin(), d.packets.end(), [&](const dissect::Packet& p) {
    return p.type == dissect::PacketType::initial && (p.extras().token == token) == with_token;
  });
}

}  // namespace

std::optional<dissect::Bytes> retry_token(const dissect::Connection& c) {
  for (const auto& d : c.datagrams)
    for (const auto& p : d.packets)
      if (p.type == dissect::PacketType::retry) return p.extras().token;
  return std::nullopt;
}

bool discarded_by_retry(const dissect::Datagram& d, const std::optional<dissect::Bytes>& token) {
  return token && has_initial(d, false, *token);
}

bool answers_retry(const dissect::Datagram& d, const std::optional<dissect::Bytes>& token) {
  return token && has_initial(d, true, *token);
}

}  // namespace conform::quic_checks
