// The QuicEndpoint adapter: datagrams, timers and transmits of the
// framework's Endpoint mapped onto each session's Connection, with the
// application serviced after every change.
#include "scenarios/quic_endpoint.hpp"

namespace conform::quic {
namespace {

/// Closing or draining (RFC 9000 §10.2): the application has nothing left to do.
bool app_active(const Connection& c) {
  return c.state() == ConnectionState::handshaking || c.state() == ConnectionState::established;
}

}  // namespace

Session* QuicEndpoint::find(UdpEndpoint peer) {
  for (Session& s : sessions_)
    if (s.peer.address == peer.address && s.peer.port == peer.port) return &s;
  return nullptr;
}

void QuicEndpoint::service(Session& s, Instant now) {
  Connection& c = *s.connection;
  while (auto e = c.poll_event()) s.app->on_event(now, c, *e);
  if (!app_active(c)) return;
  s.app->poll(now, c);
  // The application's calls may have produced events of their own.
  while (auto e = c.poll_event()) s.app->on_event(now, c, *e);
}

void QuicEndpoint::handle_datagram(conform::Instant now, std::span<const std::uint8_t> payload,
                                   UdpEndpoint from) {
  Session* s = find(from);
  if (s == nullptr) {
    if (!accept_) return;
    sessions_.push_back(accept_(from, to_core(now)));
    s = &sessions_.back();
  }
  if (!s->connection) return;
  s->connection->handle_datagram(to_core(now), payload);
  service(*s, to_core(now));
}

std::optional<Transmit> QuicEndpoint::poll_transmit(conform::Instant now) {
  for (size_t tried = 0; tried < sessions_.size(); ++tried) {
    Session& s = sessions_[(next_sender_ + tried) % sessions_.size()];
    if (!s.connection) continue;
    if (auto d = s.connection->poll_transmit(to_core(now))) {
      next_sender_ = (next_sender_ + tried + 1) % sessions_.size();
      return Transmit{s.peer, std::move(*d)};
    }
  }
  return std::nullopt;
}

conform::Instant QuicEndpoint::next_timeout() const {
  Instant earliest = Instant::never();
  for (const Session& s : sessions_) {
    if (!s.connection || s.connection->is_closed()) continue;
    earliest = std::min(earliest, s.connection->next_timeout());
    if (app_active(*s.connection)) earliest = std::min(earliest, s.app->wake_at());
  }
  return to_framework(earliest);
}

void QuicEndpoint::handle_timeout(conform::Instant now) {
  const Instant t = to_core(now);
  for (Session& s : sessions_) {
    if (!s.connection || s.connection->is_closed()) continue;
    const bool connection_due = s.connection->next_timeout() <= t;
    if (connection_due) s.connection->handle_timeout(t);
    if (connection_due || s.app->wake_at() <= t) service(s, t);
  }
}

}  // namespace conform::quic
