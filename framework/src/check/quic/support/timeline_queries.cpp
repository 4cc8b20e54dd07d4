// One pass over a connection's frames into the queries the QUIC checks ask.
#include "check/quic/support/timeline_queries.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace conform::quic_checks {

std::string_view to_string(StreamDir dir) { return dir == StreamDir::bidi ? "bidi" : "uni"; }
std::string_view to_string(Side side) { return side == Side::client ? "client" : "server"; }

Side side_from(const std::string& name) { return name == "server" ? Side::server : Side::client; }
StreamDir dir_from(const std::string& name) { return name == "bidi" ? StreamDir::bidi : StreamDir::uni; }

namespace {

std::size_t ix(StreamDir d) { return static_cast<std::size_t>(d); }
std::size_t ix(Side s) { return static_cast<std::size_t>(s); }

struct Builder {
  ConnectionFacts& facts;
  std::array<std::unordered_set<std::uint64_t>, 2> opened;  // stream IDs, by initiating side
  std::array<std::unordered_map<std::uint64_t, std::uint64_t>, 2> highest;  // by sending side
  std::array<std::uint64_t, 2> data_total{};

  void open(Side sender, std::uint64_t id, const At& at) {
    if (initiator(id) != sender || !opened[ix(sender)].insert(id).second) return;
    facts.sides[ix(sender)].opened[ix(dir_of(id))].push_back({id, at});
  }

  void add(const dissect::Frame& frame, Side sender, const At& at) {
    SideFacts& s = facts.sides[ix(sender)];
    using namespace dissect;
    if (const auto* f = std::get_if<StreamFrame>(&frame)) {
      open(sender, f->stream_id, at);
      std::uint64_t& high = highest[ix(sender)][f->stream_id];
      const std::uint64_t end = f->offset + f->length;
      if (end > high) {
        data_total[ix(sender)] += end - high;
        high = end;
        s.data_sent.push_back({at, data_total[ix(sender)]});
      }
    } else if (const auto* r = std::get_if<ResetStreamFrame>(&frame)) {
      open(sender, r->stream_id, at);
      std::uint64_t& high = highest[ix(sender)][r->stream_id];
      // The final size counts against connection flow control (§4.5).
      if (r->final_size > high) {
        data_total[ix(sender)] += r->final_size - high;
        high = r->final_size;
        s.data_sent.push_back({at, data_total[ix(sender)]});
      }
    } else if (const auto* b = std::get_if<StreamDataBlockedFrame>(&frame)) {
      open(sender, b->stream_id, at);
      s.stream_data_blocked.push_back({at, b->stream_id, b->limit});
    } else if (const auto* m = std::get_if<MaxStreamsFrame>(&frame)) {
      s.max_streams[ix(m->bidi ? StreamDir::bidi : StreamDir::uni)].push_back({at, m->maximum});
    } else if (const auto* sb = std::get_if<StreamsBlockedFrame>(&frame)) {
      s.streams_blocked[ix(sb->bidi ? StreamDir::bidi : StreamDir::uni)].push_back({at, sb->limit});
    } else if (const auto* md = std::get_if<MaxDataFrame>(&frame)) {
      s.max_data.push_back({at, md->maximum});
    } else if (const auto* db = std::get_if<DataBlockedFrame>(&frame)) {
      s.data_blocked.push_back({at, db->limit});
    } else if (const auto* msd = std::get_if<MaxStreamDataFrame>(&frame)) {
      s.max_stream_data.push_back({at, msd->stream_id, msd->maximum});
    } else if (const auto* cc = std::get_if<ConnectionCloseFrame>(&frame)) {
      s.closes.push_back({at, *cc});
    } else if (const auto* bad = std::get_if<MalformedFrame>(&frame)) {
      s.malformed.emplace_back(at, *bad);
    }
  }
};

}  // namespace

const dissect::StreamView* ConnectionFacts::stream(std::uint64_t id) const {
  auto it = std::lower_bound(streams.begin(), streams.end(), id,
                             [](const dissect::StreamView& v, std::uint64_t i) { return v.id < i; });
  return it != streams.end() && it->id == id ? &*it : nullptr;
}

const dissect::TransportParameters* ConnectionFacts::parameters(Side s) const {
  const auto& p = s == Side::client ? connection->client_parameters : connection->server_parameters;
  return p ? &*p : nullptr;
}

At ConnectionFacts::at(std::size_t datagram) const {
  const auto& d = connection->datagrams.at(datagram);
  return {d.frame, d.time_ns, datagram};
}

At ConnectionFacts::at_frame(std::uint64_t frame) const {
  const auto& ds = connection->datagrams;
  auto it = std::lower_bound(ds.begin(), ds.end(), frame,
                             [](const dissect::Datagram& d, std::uint64_t f) { return d.frame < f; });
  if (it == ds.end() || it->frame != frame) return {frame, 0, 0};
  return {frame, it->time_ns, static_cast<std::size_t>(it - ds.begin())};
}

ConnectionFacts analyze_connection(const dissect::Connection& connection) {
  ConnectionFacts facts;
  facts.connection = &connection;
  facts.flights_memo = new_flights_memo();
  for (const auto& d : connection.datagrams)
    for (const auto& p : d.packets) {
      const int level = p.type == dissect::PacketType::initial     ? 0
                        : p.type == dissect::PacketType::handshake ? 1
                        : p.type == dissect::PacketType::one_rtt   ? 2
                                                                   : -1;
      if (level < 0 || p.undecryptable == dissect::Undecryptable::stateless_reset) continue;
      auto& n = facts.protected_packets[level][static_cast<std::size_t>(d.direction)];
      ++n.sent;
      if (p.decrypted()) ++n.decrypted;
    }
  Builder b{facts, {}, {}, {}};
  for (std::size_t i = 0; i < connection.datagrams.size(); ++i) {
    const auto& d = connection.datagrams[i];
    const At at{d.frame, d.time_ns, i};
    for (const auto& p : d.packets)
      for (const auto& f : p.frames) b.add(f, sender_of(d), at);
  }
  facts.streams = dissect::stream_views(connection);
  return facts;
}

std::optional<std::uint64_t> initial_max_streams(const ConnectionFacts& c, Side declared_by, StreamDir dir) {
  const auto* p = c.parameters(declared_by);
  if (!p) return std::nullopt;
  return (dir == StreamDir::bidi ? p->initial_max_streams_bidi : p->initial_max_streams_uni).value_or(0);
}

std::optional<std::uint64_t> initial_max_data(const ConnectionFacts& c, Side declared_by) {
  const auto* p = c.parameters(declared_by);
  if (!p) return std::nullopt;
  return p->initial_max_data.value_or(0);
}

std::optional<std::uint64_t> initial_max_stream_data(const ConnectionFacts& c, Side receiver, std::uint64_t id) {
  const auto* p = c.parameters(receiver);
  if (!p) return std::nullopt;
  if (dir_of(id) == StreamDir::uni) return p->initial_max_stream_data_uni.value_or(0);
  // "local" and "remote" are from the point of view of the parameters' sender.
  return (initiator(id) == receiver ? p->initial_max_stream_data_bidi_local
                                    : p->initial_max_stream_data_bidi_remote)
      .value_or(0);
}

std::map<std::uint64_t, std::vector<LimitSeen>> stream_offsets(const ConnectionFacts& c, Side sender) {
  std::map<std::uint64_t, std::vector<LimitSeen>> out;
  const auto& datagrams = c.connection->datagrams;
  for (std::size_t i = 0; i < datagrams.size(); ++i) {
    const auto& d = datagrams[i];
    if (sender_of(d) != sender) continue;
    for (const auto& p : d.packets)
      for (const auto& f : p.frames)
        if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) {
          auto& seen = out[s->stream_id];
          const std::uint64_t end = s->offset + s->length;
          if (seen.empty() || end > seen.back().value) seen.push_back({{d.frame, d.time_ns, i}, end});
        }
  }
  return out;
}

}  // namespace conform::quic_checks
