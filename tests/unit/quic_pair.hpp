// A quinn-style test driver: a client and a server Connection joined in
// memory, with a manual clock. Each round moves every pending datagram one
// way (a fixed one-way delay), so runs are deterministic.
#pragma once

#include <boost/test/unit_test.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "connection/connection.hpp"

namespace conform::quic::test {

/// A frame as one side sent or received it, reduced to what tests assert.
struct Traced {
  bool server = false;  ///< Which endpoint traced it.
  TraceDir dir = TraceDir::sent;
  Space space = Space::initial;
  uint64_t type = 0;
  uint64_t value = 0;  ///< MAX_*/ *_BLOCKED limit, CONNECTION_CLOSE code, else 0.
  uint64_t stream_id = 0;
};

inline uint64_t traced_value(const Frame& f) {
  if (auto* m = std::get_if<MaxStreamsFrame>(&f)) return m->maximum;
  if (auto* m = std::get_if<StreamsBlockedFrame>(&f)) return m->limit;
  if (auto* m = std::get_if<MaxDataFrame>(&f)) return m->maximum;
  if (auto* m = std::get_if<DataBlockedFrame>(&f)) return m->limit;
  if (auto* m = std::get_if<MaxStreamDataFrame>(&f)) return m->maximum;
  if (auto* m = std::get_if<StreamDataBlockedFrame>(&f)) return m->limit;
  if (auto* m = std::get_if<ConnectionCloseFrame>(&f)) return m->error_code;
  return 0;
}

class Pair {
 public:
  static Config client_config() {
    Config c;
    c.seed = 7;
    return c;
  }
  static Config server_config() {
    Config c;
    c.is_server = true;
    c.seed = 7;
    c.certificate = TestCertificate::generate("localhost", 7);
    return c;
  }

  explicit Pair(Config client = client_config(), Config server = server_config()) {
    hook(client, false);
    hook(server, true);
    auto c = Connection::connect(client, now);
    BOOST_REQUIRE_MESSAGE(c.ok(), (c.ok() ? std::string() : c.error().reason));
    auto s = Connection::accept(server, now);
    BOOST_REQUIRE_MESSAGE(s.ok(), (s.ok() ? std::string() : s.error().reason));
    this->client = std::move(c.value());
    this->server = std::move(s.value());
  }
  // The trace hooks capture `this`: a Pair stays where it was built.
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;

  /// Exchanges datagrams until neither side has anything to send (or
  /// `max_rounds` passes). Fires due timers; never jumps to the idle timeout.
  void drive(int max_rounds = 1000) {
    for (int round = 0; round < max_rounds; ++round) {
      std::vector<Bytes> to_server = drain(*client, client_datagrams);
      std::vector<Bytes> to_client = drain(*server, server_datagrams);
      if (to_server.empty() && to_client.empty()) break;
      now = now + one_way_delay;
      for (const Bytes& d : to_server)
        if (!(drop && drop(true, delivered_to_server++))) server->handle_datagram(now, d);
      for (const Bytes& d : to_client)
        if (!(drop && drop(false, delivered_to_client++))) client->handle_datagram(now, d);
      collect();
    }
  }

  /// Drives the pair and hands each side's events to its application (an
  /// HTTP/3 layer, a workload: anything with on_event(Instant, const
  /// Event&)), until a round brings no event (or `max_rounds` passes).
  template <class ClientApp, class ServerApp>
  void drive_with(ClientApp& client_app, ServerApp& server_app, int max_rounds = 200) {
    for (int round = 0; round < max_rounds; ++round) {
      drive();
      if (client_events.empty() && server_events.empty()) return;
      for (const Event& e : std::exchange(client_events, {})) client_app.on_event(now, e);
      for (const Event& e : std::exchange(server_events, {})) server_app.on_event(now, e);
    }
  }

  /// Moves the clock forward, firing timers on the way.
  void advance(Duration d) {
    const Instant end = now + d;
    while (true) {
      const Instant next = std::min(client->next_timeout(), server->next_timeout());
      if (next > end) break;
      now = std::max(now, next);
      if (client->next_timeout() <= now) client->handle_timeout(now);
      if (server->next_timeout() <= now) server->handle_timeout(now);
      collect();
      drive();
    }
    now = end;
  }

  /// Values of the frames of `type` that `server_side` sent, in order.
  std::vector<uint64_t> sent_values(bool server_side, uint64_t type) const {
    std::vector<uint64_t> out;
    for (const Traced& t : traced)
      if (t.server == server_side && t.dir == TraceDir::sent && t.type == type) out.push_back(t.value);
    return out;
  }

  Instant now = Instant::from_nanos(1'000'000'000);
  Duration one_way_delay = Duration::millis(5);
  std::unique_ptr<Connection> client, server;
  std::vector<Event> client_events, server_events;
  std::vector<Bytes> client_datagrams, server_datagrams;  ///< everything each side sent
  /// Everything sent, in the order it was sent: true for the client's.
  std::vector<std::pair<bool, Bytes>> wire;
  std::vector<Traced> traced;
  std::vector<std::string> keylog;
  /// Loss: true drops the n-th datagram (0-based) sent by the client
  /// (`from_client`) or by the server.
  std::function<bool(bool from_client, size_t n)> drop;

 private:
  size_t delivered_to_server = 0, delivered_to_client = 0;
  void hook(Config& c, bool server_side) {
    c.frame_trace = [this, server_side](TraceDir dir, Space space, const Frame& f) {
      uint64_t sid = 0;
      if (auto* s = std::get_if<StreamFrame>(&f)) sid = s->stream_id;
      uint64_t type = type_of(f);
      if (type >= frame_type::stream && type <= 0x0f) type = frame_type::stream;  // drop the flag bits
      traced.push_back({server_side, dir, space, type, traced_value(f), sid});
    };
    c.keylog = [this](std::string_view line) { keylog.emplace_back(line); };
  }
  std::vector<Bytes> drain(Connection& c, std::vector<Bytes>& log) {
    std::vector<Bytes> out;
    while (auto d = c.poll_transmit(now)) {
      log.push_back(*d);
      wire.emplace_back(&c == client.get(), *d);
      out.push_back(std::move(*d));
      if (out.size() > 10'000) break;
    }
    return out;
  }
  void collect() {
    while (auto e = client->poll_event()) client_events.push_back(*e);
    while (auto e = server->poll_event()) server_events.push_back(*e);
  }
};

/// Reads every readable stream of `c` to the end; returns the streams that
/// finished during this call, with their bytes.
inline std::vector<std::pair<StreamId, Bytes>> read_all(Connection& c, std::vector<Event>& events,
                                                        std::map<StreamId, Bytes>& partial) {
  std::vector<std::pair<StreamId, Bytes>> done;
  std::vector<Event> keep;
  for (const Event& e : events) {
    const auto* r = std::get_if<StreamReadable>(&e);
    if (!r) {
      keep.push_back(e);
      continue;
    }
    bool seen = false;
    for (const auto& d : done) seen = seen || d.first == r->id;
    if (seen) continue;  // finished earlier in this call
    uint8_t buf[4096];
    while (true) {
      auto res = c.read(r->id, buf);
      if (!res.ok()) break;
      partial[r->id].insert(partial[r->id].end(), buf, buf + res.value().bytes);
      if (res.value().fin) {
        done.emplace_back(r->id, std::move(partial[r->id]));
        partial.erase(r->id);
        break;
      }
      if (res.value().bytes == 0) break;
    }
  }
  events = std::move(keep);
  return done;
}

}  // namespace conform::quic::test
