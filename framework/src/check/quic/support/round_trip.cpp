// The round trip a suite states for a check.
#include "check/quic/support/round_trip.hpp"

#include <conform/value.hpp>

#include <variant>

namespace conform::quic_checks {

StatedRoundTrip stated_round_trip(const CheckInput& input) {
  if (const double param = value_or<double>(input.params, "rtt_ms", -1); param > 0) return {param, "parameter rtt_ms"};
  double network = -1;
  if (auto it = input.settings.network.find("rtt_ms"); it != input.settings.network.end()) {
    if (const auto* v = std::get_if<double>(&it->second)) network = *v;
    if (const auto* v = std::get_if<std::int64_t>(&it->second)) network = double(*v);
  }
  if (network > 0) return {network, "network rtt_ms"};
  return {};
}

std::optional<std::int64_t> handshake_round_trip(const dissect::Connection& c) {
  std::optional<std::int64_t> first, replied;
  for (const auto& d : c.datagrams) {
    const bool client = d.direction == dissect::Direction::client_to_server;
    if (client && !first) first = d.time_ns;
    else if (!client && first && !replied) replied = d.time_ns;
    else if (client && replied) return d.time_ns - *first;
  }
  return std::nullopt;
}

}  // namespace conform::quic_checks
