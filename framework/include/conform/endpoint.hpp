// A sans-IO transport endpoint (ARCHITECTURE.md principle 2): it never reads a
// clock or touches a socket. The network driving it (the simulator in virtual
// time) passes the current time into every call and collects its datagrams.
#pragma once

#include <conform/capture_writer.hpp>
#include <conform/time.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace conform {

/// One UDP datagram an endpoint wants sent: its payload (no IP/UDP headers)
/// and where to. The source address is the endpoint's own.
struct Transmit {
  UdpEndpoint to;
  std::vector<std::uint8_t> payload;
};

/// The calls the network makes, all with `now` equal to the network's clock,
/// which never goes back: after each handle_* call, and for every endpoint
/// when a run starts, the network calls poll_transmit(now) until it returns
/// nothing, then reads next_timeout(), which it trusts until it calls the
/// endpoint again. Implementations must not throw out of these calls.
class Endpoint {
 public:
  virtual ~Endpoint() = default;
  /// A datagram (UDP payload) from `from` reached this endpoint at `now`.
  /// It may be corrupted, duplicated or out of order: the network impairs it.
  virtual void handle_datagram(Instant now, std::span<const std::uint8_t> payload,
                               UdpEndpoint from) = 0;
  /// The next datagram to send at `now`, or nothing when there is none now.
  virtual std::optional<Transmit> poll_transmit(Instant now) = 0;
  /// When handle_timeout must next be called; Instant::never() when no timer
  /// is armed. The network calls handle_timeout once `now` reaches it.
  virtual Instant next_timeout() const = 0;
  /// A timer returned by next_timeout() expired; `now` >= that instant.
  virtual void handle_timeout(Instant now) = 0;
};

}  // namespace conform
