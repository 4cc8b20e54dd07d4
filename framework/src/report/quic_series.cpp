// Stream and handshake series of a QUIC case.
#include "report/quic_series.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>

namespace conform::report {
namespace {

using dissect::Direction;

bool client_initiated(std::uint64_t id) { return (id & 0x1) == 0; }
bool bidirectional(std::uint64_t id) { return (id & 0x2) == 0; }
// The capture of the endpoint that sends in `direction`, else the other one.
const VantageCapture* sender_capture(const VantageCapture* client, const VantageCapture* server, bool client_sends) {
  const VantageCapture* own = client_sends ? client : server;
  return own && own->connection() ? own : (client_sends ? server : client);
}

template <class F>
void for_each_frame_sent(const VantageCapture* v, bool by_client, F&& f) {
  if (!v || !v->connection()) return;
  const Direction want = by_client ? Direction::client_to_server : Direction::server_to_client;
  for (const auto& d : v->connection()->datagrams) {
    if (d.direction != want) continue;
    for (const auto& p : d.packets)
      for (const auto& frame : p.frames) f(d, p, frame);
  }
}

// The cumulative count of new stream IDs of `kind` sent by the initiator, as `v` shows them.
std::vector<Step> first_appearances(const VantageCapture* v, bool client, unsigned kind) {
  std::vector<Step> out;
  std::set<std::uint64_t> seen;
  for_each_frame_sent(v, client, [&](const dissect::Datagram& d, const dissect::Packet&, const dissect::Frame& f) {
    const auto* s = std::get_if<dissect::StreamFrame>(&f);
    std::optional<std::uint64_t> id;
    if (s) id = s->stream_id;
    if (const auto* r = std::get_if<dissect::ResetStreamFrame>(&f)) id = r->stream_id;
    if (!id || (*id & 0x3) != kind || !seen.insert(*id).second) return;
    out.push_back({d.time_ns, seen.size()});
  });
  return out;
}

std::optional<std::uint64_t> initial_limit(const VantageCapture* client, const VantageCapture* server,
                                           bool peer_is_client, bool bidi) {
  for (const VantageCapture* v : {client, server}) {
    if (!v || !v->connection()) continue;
    const auto& params = peer_is_client ? v->connection()->client_parameters : v->connection()->server_parameters;
    if (params) return bidi ? params->initial_max_streams_bidi : params->initial_max_streams_uni;
  }
  return std::nullopt;
}

std::int64_t first_time(const VantageCapture* client, const VantageCapture* server) {
  std::int64_t t = INT64_MAX;
  for (const VantageCapture* v : {client, server})
    if (v && v->connection() && !v->connection()->datagrams.empty())
      t = std::min(t, v->connection()->datagrams.front().time_ns);
  return t == INT64_MAX ? 0 : t;
}

}  // namespace

std::optional<StreamSeries> stream_series(const VantageCapture* client, const VantageCapture* server) {
  // The kind of stream with the most IDs is the one the case is about.
  std::array<std::set<std::uint64_t>, 4> ids;
  for (bool by_client : {true, false})
    for (const VantageCapture* v : {client, server})
      for_each_frame_sent(v, by_client, [&](const dissect::Datagram&, const dissect::Packet&, const dissect::Frame& f) {
        if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) ids[s->stream_id & 0x3].insert(s->stream_id);
      });
  // The stream ID's two low bits are its kind (RFC 9000 §2.1).
  const auto most = std::max_element(ids.begin(), ids.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  if (most->empty()) return std::nullopt;
  const unsigned kind = static_cast<unsigned>(most - ids.begin());

  StreamSeries s;
  s.client_initiated = client_initiated(kind);
  s.bidi = bidirectional(kind);
  const VantageCapture* own = sender_capture(client, server, s.client_initiated);
  s.opened = first_appearances(own, s.client_initiated, kind);
  const VantageCapture* peer = s.client_initiated ? server : client;
  if (client && server && peer->connection())
    s.delivered = first_appearances(peer, s.client_initiated, kind);

  // The limit the peer granted: what it declared, then what it raised it to.
  const bool peer_is_client = !s.client_initiated;
  if (auto initial = initial_limit(client, server, peer_is_client, s.bidi))
    s.limit.push_back({first_time(client, server), *initial});
  for_each_frame_sent(sender_capture(client, server, peer_is_client), peer_is_client,
                      [&](const dissect::Datagram& d, const dissect::Packet&, const dissect::Frame& f) {
                        const auto* m = std::get_if<dissect::MaxStreamsFrame>(&f);
                        if (!m || m->bidi != s.bidi) return;
                        if (s.limit.empty() || m->maximum > s.limit.back().value) s.limit.push_back({d.time_ns, m->maximum});
                      });
  return s;
}

namespace {

unsigned stage_of(dissect::PacketType type) {
  switch (type) {
    case dissect::PacketType::initial: return 1;
    case dissect::PacketType::handshake: return 2;
    case dissect::PacketType::zero_rtt:
    case dissect::PacketType::one_rtt: return 3;
    default: return 0;
  }
}

bool ping_only(const dissect::Packet& p) {
  bool ping = false;
  for (const auto& f : p.frames) {
    if (std::holds_alternative<dissect::PingFrame>(f)) ping = true;
    else if (!std::holds_alternative<dissect::PaddingFrame>(f)) return false;
  }
  return ping;
}

void follow_endpoint(const VantageCapture* v, bool client, std::vector<Step>& stages,
                     std::vector<HandshakeSeries::Probe>& probes) {
  std::map<dissect::PacketSpace, std::uint64_t> crypto_sent;  // bytes sent so far per space
  unsigned stage = 0;
  for_each_frame_sent(v, client, [&](const dissect::Datagram& d, const dissect::Packet& p, const dissect::Frame& f) {
    const unsigned s = std::max(stage_of(p.type), std::holds_alternative<dissect::HandshakeDoneFrame>(f) ? 4u : 0u);
    if (s > stage) {
      stage = s;
      stages.push_back({d.time_ns, stage});
    }
    const std::string level(dissect::to_string(p.type));
    if (const auto* c = std::get_if<dissect::CryptoFrame>(&f)) {
      auto& sent = crypto_sent[p.space];
      if (c->offset < sent) probes.push_back({d.time_ns, client, stage_of(p.type), d.frame, "CRYPTO resent (" + level + ")"});
      sent = std::max(sent, c->offset + c->length);
    } else if (&f == &p.frames.front() && ping_only(p)) {  // once per packet
      probes.push_back({d.time_ns, client, stage_of(p.type), d.frame, "PING only (" + level + ")"});
    }
  });
}

}  // namespace

HandshakeSeries handshake_series(const VantageCapture* client, const VantageCapture* server) {
  HandshakeSeries h;
  follow_endpoint(sender_capture(client, server, true), true, h.client, h.probes);
  follow_endpoint(sender_capture(client, server, false), false, h.server, h.probes);
  std::stable_sort(h.probes.begin(), h.probes.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  return h;
}

}  // namespace conform::report
