// The round trip a suite states for a check.
#include "check/quic/support/round_trip.hpp"

#include <conform/value.hpp>

#include <map>
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

std::vector<RttSample> rtt_samples(const dissect::Connection& c, dissect::Side sender) {
  const auto from_sender = sender == dissect::Side::client ? dissect::Direction::client_to_server
                                                           : dissect::Direction::server_to_client;
  std::vector<RttSample> samples;
  std::map<std::pair<dissect::PacketSpace, std::uint64_t>, std::int64_t> sent;
  std::map<dissect::PacketSpace, std::uint64_t> largest;
  for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    for (const auto& p : d.packets) {
      if (d.direction == from_sender) {
        if (p.packet_number) sent.emplace(std::pair{p.space, *p.packet_number}, d.time_ns);
        continue;
      }
      for (const auto& f : p.frames) {
        const auto* ack = std::get_if<dissect::AckFrame>(&f);
        if (!ack) continue;
        const auto it = sent.find({p.space, ack->largest});
        const auto known = largest.find(p.space);
        if (it == sent.end() || (known != largest.end() && known->second >= ack->largest)) continue;
        largest[p.space] = ack->largest;
        samples.push_back({i, d.time_ns - it->second});
      }
    }
  }
  return samples;
}

}  // namespace conform::quic_checks
