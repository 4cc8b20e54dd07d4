// Test doubles for the simulator: scripted sans-IO endpoints, an in-memory
// capture, and builders of QUIC-shaped datagrams.
#pragma once

#include "support/time_units.hpp"

#include "capture/pcap_writer.hpp"
#include "net/simulator.hpp"

#include <conform/endpoint.hpp>

#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace conform {
/// For Boost.Test's messages.
inline std::ostream& operator<<(std::ostream& os, SimulationEnd::Reason r) { return os << to_string(r); }
inline std::ostream& operator<<(std::ostream& os, Instant t) { return os << t.ns() << " ns"; }
inline std::ostream& operator<<(std::ostream& os, Duration d) { return os << d.ns() << " ns"; }
}  // namespace conform

namespace conform::test {

inline Instant at_ns(std::int64_t ns) { return Instant::from_ns(ns); }

/// Pcap files of a run in `dir`, through the framework's writer: one per
/// vantage point, opened when first asked for.
struct FileCaptures {
  std::string dir;
  std::map<std::string, std::unique_ptr<PcapWriter>> writers;
  CaptureWriter* operator()(std::string_view v) {
    auto& w = writers[std::string(v)];
    if (!w) w = std::make_unique<PcapWriter>(dir + "/" + std::string(v) + ".pcap");
    return w.get();
  }
};

/// `network` read as the loader reads a case's table; throws
/// std::invalid_argument naming the first problem.
inline NetConfig net_config(const ValueMap& network) {
  NetConfig c;
  const auto problems = read_net_config(network, c);
  if (!problems.empty()) throw std::invalid_argument(problems[0].key + " " + problems[0].message);
  return c;
}

/// A datagram of `size` bytes, each byte `fill`.
inline std::vector<std::uint8_t> datagram(std::size_t size, std::uint8_t fill = 0x42) {
  return std::vector<std::uint8_t>(size, fill);
}

/// One QUIC v1 long-header packet of type `type` (0 Initial .. 2 Handshake)
/// with an 8-byte DCID, no SCID, no token and `body` bytes after Length.
inline std::vector<std::uint8_t> long_packet(int type, std::size_t body) {
  std::vector<std::uint8_t> p = {static_cast<std::uint8_t>(0xc0 | (type << 4)), 0, 0, 0, 1, 8};
  for (int i = 0; i < 8; ++i) p.push_back(static_cast<std::uint8_t>(i));
  p.push_back(0);                        // SCID length
  if (type == 0) p.push_back(0);         // token length
  p.push_back(static_cast<std::uint8_t>(0x40 | (body >> 8)));  // 2-byte varint Length
  p.push_back(static_cast<std::uint8_t>(body));
  p.insert(p.end(), body, 0xaa);
  return p;
}

inline std::vector<std::uint8_t> concat(std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// What an endpoint received.
struct Received {
  Instant at;
  std::vector<std::uint8_t> payload;
  UdpEndpoint from;
};

/// Sends each datagram of its schedule at its time (to `peer`), records what
/// reaches it, and optionally echoes every datagram back to its sender.
class ScriptedEndpoint final : public Endpoint {
 public:
  struct Send {
    Instant at;
    std::vector<std::uint8_t> payload;
  };
  UdpEndpoint peer{};
  std::vector<Send> schedule;
  bool echo = false;
  std::vector<Received> received;
  int timeouts = 0;

  void send_at(std::int64_t ns, std::vector<std::uint8_t> payload) {
    schedule.push_back({at_ns(ns), std::move(payload)});
  }
  void handle_datagram(Instant now, std::span<const std::uint8_t> p, UdpEndpoint from) override {
    received.push_back({now, {p.begin(), p.end()}, from});
    if (echo) replies_.push_back({from, {p.begin(), p.end()}});
  }
  std::optional<Transmit> poll_transmit(Instant now) override {
    if (!replies_.empty()) {
      Transmit t = std::move(replies_.front());
      replies_.pop_front();
      return t;
    }
    if (next_ < schedule.size() && schedule[next_].at <= now)
      return Transmit{peer, std::move(schedule[next_++].payload)};
    return std::nullopt;
  }
  Instant next_timeout() const override {
    return next_ < schedule.size() ? schedule[next_].at : Instant::never();
  }
  void handle_timeout(Instant) override { ++timeouts; }

  /// Arrival times in ns.
  std::vector<std::int64_t> arrival_times() const {
    std::vector<std::int64_t> out;
    for (const auto& r : received) out.push_back(r.at.ns());
    return out;
  }
  /// First payload byte of each arrival (tests tag datagrams with it).
  std::vector<int> arrival_tags() const {
    std::vector<int> out;
    for (const auto& r : received) out.push_back(r.payload.empty() ? -1 : r.payload[0]);
    return out;
  }

 private:
  std::size_t next_ = 0;
  std::deque<Transmit> replies_;
};

/// A capture kept in memory.
class MemoryCapture final : public CaptureWriter {
 public:
  struct Record {
    std::int64_t time_ns;
    UdpEndpoint from, to;
    std::vector<std::uint8_t> payload;
  };
  std::vector<Record> records;
  void write_udp(std::int64_t time_ns, UdpEndpoint from, UdpEndpoint to,
                 std::span<const std::uint8_t> payload) override {
    records.push_back({time_ns, from, to, {payload.begin(), payload.end()}});
  }
};

/// A client and a server on a simulator shaped by `network`, with in-memory
/// captures; the client sends its schedule to the server.
struct Pair {
  std::map<std::string, MemoryCapture> captures;
  Simulator sim;
  ScriptedEndpoint client, server;
  std::vector<NetEvent> events;

  explicit Pair(const ValueMap& network, std::uint64_t seed = 1)
      : sim(net_config(network), seed, [this](std::string_view v) { return &captures[std::string(v)]; }) {
    sim.set_trace([this](const NetEvent& e) { events.push_back(e); });
    client.peer = *sim.attach_server(server);
    server.peer = *sim.attach_client(client);
  }
  /// Tags datagram k (from 1) of `count` with first byte k and sends it at
  /// (k-1) * `spacing_ns` from the client.
  void client_sends(int count, std::int64_t spacing_ns, std::size_t size = 100) {
    for (int k = 1; k <= count; ++k)
      client.send_at((k - 1) * spacing_ns, datagram(size, static_cast<std::uint8_t>(k)));
  }
};

}  // namespace conform::test
