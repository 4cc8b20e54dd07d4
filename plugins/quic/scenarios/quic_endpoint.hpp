// A QUIC endpoint on the simulated network: one or more quic::Connection
// state machines, each with the application playing its side of the
// scenario, adapted to the framework's sans-IO conform::Endpoint. A client
// holds one connection; the server accepts one per client address, so one
// server endpoint serves every subscriber of a fan-out.
#pragma once

#include <conform/endpoint.hpp>

#include <functional>
#include <memory>
#include <vector>

#include "connection/connection.hpp"
#include "scenarios/application.hpp"

namespace conform::quic {

/// The core's clock and the framework's count the same nanoseconds from the
/// start of the run.
inline Instant to_core(conform::Instant t) {
  return t.is_never() ? Instant::never() : Instant::from_nanos(t.ns());
}
inline conform::Instant to_framework(Instant t) {
  return t.is_never() ? conform::Instant::never() : conform::Instant::from_ns(t.ns);
}

/// One connection of an endpoint, its peer's address and its application.
struct Session {
  UdpEndpoint peer{};
  std::unique_ptr<Connection> connection;
  std::unique_ptr<Application> app;
};

class QuicEndpoint final : public conform::Endpoint {
 public:
  /// Makes the session for a peer address seen for the first time at `now`
  /// (a server accepting a client); a session without a connection ignores
  /// that peer. Empty for a client, which knows its one peer up front.
  using Acceptor = std::function<Session(UdpEndpoint from, Instant now)>;

  explicit QuicEndpoint(Acceptor accept = {}) : accept_(std::move(accept)) {}
  /// Adds a session of our own making (a client's connection to the server).
  void add(Session s) { sessions_.push_back(std::move(s)); }
  const std::vector<Session>& sessions() const { return sessions_; }

  void handle_datagram(conform::Instant now, std::span<const std::uint8_t> payload,
                       UdpEndpoint from) override;
  std::optional<Transmit> poll_transmit(conform::Instant now) override;
  conform::Instant next_timeout() const override;
  void handle_timeout(conform::Instant now) override;

 private:
  /// Hands the connection's events to the application, then lets it work.
  static void service(Session& s, Instant now);
  Session* find(UdpEndpoint peer);

  Acceptor accept_;
  std::vector<Session> sessions_;
  /// Where poll_transmit starts, so subscribers take turns on the wire.
  size_t next_sender_ = 0;
};

}  // namespace conform::quic
