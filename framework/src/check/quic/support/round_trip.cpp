// The round trip a suite states for a check.
#include "check/quic/support/round_trip.hpp"

#include "check/quic/support/timeline_queries.hpp"

#include <conform/value.hpp>

#include <algorithm>
#include <limits>
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

namespace {

// `sender`'s RTT samples in capture order, stopping after `limit`.
std::vector<RttSample> samples_of(const dissect::Connection& c, dissect::Side sender, std::size_t limit) {
  const auto from_sender = sender == dissect::Side::client ? dissect::Direction::client_to_server
                                                           : dissect::Direction::server_to_client;
  std::vector<RttSample> samples;
  std::map<std::pair<dissect::PacketSpace, std::uint64_t>, std::int64_t> sent;
  std::map<dissect::PacketSpace, std::uint64_t> largest;
  for (std::size_t i = 0; i < c.datagrams.size() && samples.size() < limit; ++i) {
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

}  // namespace

namespace {

// Without an ACK of each endpoint: from the client's first datagram to its
// first after the server's first reply that is not the rest of its first
// flight (Initial CRYPTO beyond what it had sent).
std::optional<std::int64_t> first_answer(const dissect::Connection& c) {
  std::optional<std::int64_t> first;
  bool replied = false;
  std::uint64_t sent_to = 0;
  for (const auto& d : c.datagrams) {
    const bool client = d.direction == dissect::Direction::client_to_server;
    if (!client) {
      replied = replied || first.has_value();
      continue;
    }
    if (!first) first = d.time_ns;
    const std::uint64_t end = crypto_end(d, dissect::PacketSpace::initial);
    if (replied && end <= sent_to) return d.time_ns - *first;
    sent_to = std::max(sent_to, end);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> handshake_round_trip(const dissect::Connection& c) {
  // Each endpoint's first ACK of a packet of its peer that the capture saw:
  // the leg from the capture point to that endpoint and back. The two legs
  // make one round trip wherever the capture was taken, and neither counts
  // the rest of a first flight of several datagrams (a ClientHello too
  // large for one) or a Retry's round trip as part of it.
  const auto client_leg = samples_of(c, dissect::Side::server, 1);
  const auto server_leg = samples_of(c, dissect::Side::client, 1);
  if (client_leg.empty() || server_leg.empty()) return first_answer(c);
  return client_leg.front().ns + server_leg.front().ns;
}


std::vector<RttSample> rtt_samples(const dissect::Connection& c, dissect::Side sender) {
  return samples_of(c, sender, std::numeric_limits<std::size_t>::max());
}

}  // namespace conform::quic_checks
