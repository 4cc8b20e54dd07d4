// The QUIC v1 dissector: captured UDP datagrams in, a decrypted timeline out
// (RFC 9000, RFC 9001). It tells connections apart by connection IDs (and by
// addresses when a connection ID is empty or unknown), derives Initial keys
// from the client's first Destination Connection ID (RFC 9001 §5.2), takes
// Handshake, 0-RTT and 1-RTT secrets from a key log by the ClientHello's
// random, follows Retry (§5.8) and key updates (§6), and learns each
// endpoint's connection IDs (and so the short header's DCID length) from
// long headers and NEW_CONNECTION_ID frames.
#pragma once

#include "capture/pcap_reader.hpp"
#include "dissect/key_log.hpp"
#include "dissect/timeline.hpp"

#include <memory>
#include <span>

namespace conform::dissect {

/// Three PTOs at RFC 9002's initial RTT of 333 ms, max_ack_delay aside:
/// 3 x (333 + 4 x 333 / 2) ms.
inline constexpr std::int64_t kDrainNs = 2'997'000'000;

class Dissector {
 public:
  /// Whether connections end (take_ended): `never` keeps every one to the
  /// end, as a capture read whole is dissected; `when_silent` lets each go
  /// once it has ended, before the next datagram is routed, so no later
  /// datagram is taken for it (conform check reads long captures so).
  /// With when_silent the datagrams of no connection are counted
  /// (unattributed()) and only the first is kept in the timeline, so
  /// memory does not grow with a capture's other UDP traffic either.
  enum class Ends { never, when_silent };
  /// `keys` must outlive the Dissector; an empty KeyLog decrypts Initial
  /// packets only.
  explicit Dissector(const KeyLog& keys, Ends ends = Ends::never);
  ~Dissector();
  Dissector(const Dissector&) = delete;
  Dissector& operator=(const Dissector&) = delete;

  /// Adds the next datagram in capture order.
  void add(const CapturedDatagram& datagram);
  /// With Ends::when_silent, the connections that have ended by the time of
  /// the datagram added last, in order of ending, moved out: the Dissector
  /// forgot them before routing that datagram, and their connection IDs and
  /// addresses route no later one.
  /// A connection ends once silent (no datagram of it in the capture) for
  ///   - after a CONNECTION_CLOSE or a Stateless Reset: the closing or
  ///     draining period, three times the PTO (RFC 9000 §10.2), taken for
  ///     the initial RTT of 333 ms (RFC 9002 §6.2.2), the longest PTO a
  ///     path of that RTT or less has: kDrainNs plus three max_ack_delays;
  ///   - otherwise: the idle timeout (§10.1: the smaller max_idle_timeout
  ///     of the two, 0 or absent meaning none) plus that same period, for
  ///     what the capture's place shifts of each endpoint's clock;
  /// and never while neither side set an idle timeout. Looks at most once
  /// a second of capture time.
  std::vector<Connection> take_ended();
  /// Connections seen and not yet taken.
  std::size_t open() const;
  /// Datagrams of no connection so far.
  std::uint64_t unattributed() const;
  /// The datagram add() put in a connection last, if the last add() put one
  /// (its last segment, when it was split); valid until the next call.
  const Datagram* last_added() const;
  /// The KeyLog gained lines (a run's key log read as it is written): each
  /// connection looks for its secrets again when a packet needs keys it has
  /// not got, keeping those it has.
  void secrets_added();
  /// The timeline of everything added and not taken (connections in order
  /// of first appearance), moved out; the Dissector is spent.
  Timeline finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Dissects a whole capture's datagrams.
Timeline dissect(std::span<const CapturedDatagram> datagrams, const KeyLog& keys);

}  // namespace conform::dissect
