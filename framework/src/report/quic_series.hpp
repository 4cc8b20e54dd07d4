// The series the HTML report plots for a QUIC case, computed from the
// captures alone: streams opened by the sender against streams delivered to
// the receiver with the receiver's stream limit (RFC 9000 §4.6: MAX_STREAMS,
// initial_max_streams_*), and handshake progress with the probes sent during
// it (RFC 9002 §6.2: PTO probes; §6.2.4 resends of CRYPTO data).
#pragma once

#include "report/vantage_pair.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conform::report {

/// A point of a step series: at `time_ns` (as captured) the value became `value`.
struct Step {
  std::int64_t time_ns = 0;
  std::uint64_t value = 0;
};

/// The streams of one kind (initiator and directionality; the kind with the
/// most streams in the captures) over time.
struct StreamSeries {
  bool client_initiated = false;
  bool bidi = false;
  /// Streams the initiator had put on the wire: the first frame of each new
  /// stream ID in a datagram its own capture shows it sending (the other
  /// capture when its own is missing). Cumulative count.
  std::vector<Step> opened;
  /// Streams that reached the peer: the first frame of each stream ID in the
  /// peer's capture. Empty when the peer's capture is missing.
  std::vector<Step> delivered;
  /// The peer's limit on such streams: its initial_max_streams_* transport
  /// parameter, then each larger MAX_STREAMS it sent (RFC 9000 §19.11).
  std::vector<Step> limit;
};

/// The stream series of the case, or nullopt when no stream was seen.
std::optional<StreamSeries> stream_series(const VantageCapture* client, const VantageCapture* server);

/// Handshake stage of one endpoint: 1 Initial, 2 Handshake, 3 1-RTT (or
/// 0-RTT), 4 HANDSHAKE_DONE sent (servers only, RFC 9001 §4.1.2).
struct HandshakeSeries {
  std::vector<Step> client, server;
  /// Packets that resent CRYPTO data their sender had already sent in the
  /// same packet number space, and packets of PING (and PADDING) only: what
  /// a PTO probe looks like on the wire (RFC 9002 §6.2.4).
  struct Probe {
    std::int64_t time_ns = 0;
    bool from_client = false;
    unsigned stage = 0;  // the stage the probe's packet type stands for
    std::uint64_t frame = 0;
    std::string what;  // "CRYPTO resent (Initial)", "PING only (1-RTT)"
  };
  std::vector<Probe> probes;
};

/// Each endpoint's handshake progress, from its own capture when there is
/// one (the other otherwise).
HandshakeSeries handshake_series(const VantageCapture* client, const VantageCapture* server);

}  // namespace conform::report
