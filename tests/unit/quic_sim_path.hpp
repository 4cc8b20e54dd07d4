// A small in-memory path for the in-house QUIC: a client and a server
// Connection joined by two one-way links, each with its own delay, MTU
// (larger datagrams are dropped, as the framework simulator does), an
// optional bottleneck (rate and drop-tail queue), seeded random loss and a
// drop filter. Discrete events in virtual time: it never sleeps, it jumps
// to the next arrival or timeout. No Boost: bench/ programs use it too.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "connection/connection.hpp"

namespace conform::quic::test {

/// One direction of the path.
struct LinkSpec {
  Duration one_way_delay = Duration::millis(5);
  size_t mtu = 65'535;      ///< bytes of UDP payload; larger datagrams are dropped
  uint64_t rate_bps = 0;    ///< bottleneck rate, bits/s; 0: unlimited
  size_t queue_bytes = 0;   ///< drop-tail queue ahead of the bottleneck; 0: unlimited
  double loss = 0;          ///< probability a datagram is lost at random
};

/// One datagram as the path saw it.
struct PathRecord {
  Instant sent;
  bool from_client = false;
  size_t size = 0;
  bool delivered = false;
  Bytes bytes;  ///< kept only with SimPath::keep_bytes
};

class SimPath {
 public:
  SimPath(const Config& client, const Config& server, LinkSpec c2s, LinkSpec s2c, uint64_t seed = 1)
      : rng_(seed) {
    links_[0] = c2s;
    links_[1] = s2c;
    auto c = Connection::connect(client, now);
    auto s = Connection::accept(server, now);
    if (!c.ok() || !s.ok()) throw std::runtime_error("SimPath: connection setup failed");
    client_ = std::move(c.value());
    server_ = std::move(s.value());
  }

  Connection& client() { return *client_; }
  Connection& server() { return *server_; }

  /// Runs until `done()` holds (checked after every event) or `until`;
  /// returns whether done. `step`, if set, runs after every event (the
  /// applications: reading and writing streams).
  bool run(Instant until, const std::function<bool()>& done) {
    while (true) {
      if (step) step();
      flush(*client_, true);
      flush(*server_, false);
      if (done && done()) return true;
      Instant next = std::min(client_->next_timeout(), server_->next_timeout());
      if (!queue_.empty()) next = std::min(next, queue_.top().at);
      if (next > until) {
        now = until;
        return false;
      }
      now = std::max(now, next);
      while (!queue_.empty() && queue_.top().at <= now) {
        InFlight d = queue_.top();
        queue_.pop();
        (d.to_server ? *server_ : *client_).handle_datagram(now, d.bytes);
      }
      if (client_->next_timeout() <= now) client_->handle_timeout(now);
      if (server_->next_timeout() <= now) server_->handle_timeout(now);
    }
  }

  /// The time the client's handshake was confirmed (HANDSHAKE_DONE), from
  /// the start, or nullopt within `limit`.
  std::optional<Duration> handshake_time(Duration limit = Duration::seconds(10)) {
    const Instant start = now;
    if (!run(start + limit, [&] { return client_->handshake_confirmed(); })) return std::nullopt;
    return now - start;
  }

  Instant now = Instant::from_nanos(1'000'000'000);
  /// Loss by position: true drops the n-th datagram (0-based) sent by the
  /// client (`from_client`) or the server. Checked before the MTU.
  std::function<bool(bool from_client, size_t n, const Bytes& datagram)> drop;
  std::function<void()> step;
  bool keep_bytes = false;
  std::vector<PathRecord> log;

 private:
  struct InFlight {
    Instant at;
    uint64_t seq = 0;
    bool to_server = false;
    Bytes bytes;
    bool operator>(const InFlight& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  double uniform() {  // splitmix64: seeded, never the process RNG
    rng_ += 0x9e3779b97f4a7c15ull;
    uint64_t z = rng_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) / 9007199254740992.0;
  }

  void flush(Connection& c, bool from_client) {
    for (int i = 0; i < 100'000; ++i) {
      auto d = c.poll_transmit(now);
      if (!d) return;
      send(from_client, std::move(*d));
    }
  }

  void send(bool from_client, Bytes d) {
    const size_t dir = from_client ? 0 : 1;
    const LinkSpec& link = links_[dir];
    const size_t n = sent_[dir]++;
    PathRecord rec{now, from_client, d.size(), false, keep_bytes ? d : Bytes{}};
    const bool lost = (drop && drop(from_client, n, d)) || d.size() > link.mtu ||
                      (link.loss > 0 && uniform() < link.loss);
    Instant at = now + link.one_way_delay;
    bool queued = true;
    if (!lost && link.rate_bps) {
      // The bottleneck serialises datagrams; what waits beyond the queue is dropped.
      Instant& free_at = free_at_[dir];
      const Instant start = std::max(now, free_at);
      const double backlog = static_cast<double>((start - now).ns) * static_cast<double>(link.rate_bps) / 8e9;
      queued = link.queue_bytes == 0 || backlog + static_cast<double>(d.size()) <= static_cast<double>(link.queue_bytes);
      if (queued) {
        free_at = start + Duration::nanos(static_cast<int64_t>(static_cast<double>(d.size()) * 8e9 /
                                                                static_cast<double>(link.rate_bps)));
        at = free_at + link.one_way_delay;
      }
    }
    const bool delivered = !lost && queued;
    rec.delivered = delivered;
    log.push_back(std::move(rec));
    if (delivered) queue_.push(InFlight{at, seq_++, from_client, std::move(d)});
  }

  std::unique_ptr<Connection> client_, server_;
  LinkSpec links_[2];
  size_t sent_[2] = {0, 0};
  Instant free_at_[2] = {};
  uint64_t rng_;
  uint64_t seq_ = 0;
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<>> queue_;
};

}  // namespace conform::quic::test
