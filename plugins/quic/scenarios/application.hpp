// The application side of one QUIC connection in a scenario: what a
// subscriber, relay, publisher, client or server does with its streams,
// driven in virtual time by the endpoint that owns the connection
// (scenarios/quic_endpoint.hpp). Its own timers (cadence, pauses, read rate,
// drain) are folded into the endpoint's next_timeout.
#pragma once

#include <string>

#include "connection/connection.hpp"

namespace conform::quic {

class Application {
 public:
  virtual ~Application() = default;
  /// One event the connection reported (poll_event), in order.
  virtual void on_event(Instant now, Connection& c, const Event& e) = 0;
  /// Does the work due at `now`: called after every datagram, timer or
  /// batch of events on this connection, and when `now` reaches wake_at().
  virtual void poll(Instant now, Connection& c) = 0;
  /// When poll must next run although nothing arrives; never() for no timer.
  /// Must move past `now` once poll(now) ran, or the simulator stalls.
  virtual Instant wake_at() const = 0;
  /// One line for the run's log: what this side did (streams, bytes).
  virtual std::string summary() const = 0;
};

}  // namespace conform::quic
