// A QUIC case seen from its two vantage points: the client's capture and
// the server's, each dissected, and every datagram matched across them so
// the HTML report can draw one arrow per datagram and mark those the network
// dropped (sent in one capture, never received in the other).
#pragma once

#include "dissect/key_log.hpp"
#include "dissect/timeline.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform::report {

/// One vantage point's capture, dissected.
struct VantageCapture {
  /// File name in the case folder: "client.pcap" or "server.pcap".
  std::string file;
  dissect::Timeline timeline;
  /// A hash of each datagram's UDP payload by (frame, GSO segment index):
  /// the same datagram has the same hash in both captures.
  std::map<std::pair<std::uint64_t, unsigned>, std::uint64_t> payload_hash;

  /// The first connection of the capture, or nullptr when there is none.
  const dissect::Connection* connection() const {
    return timeline.connections.empty() ? nullptr : &timeline.connections.front();
  }
};

/// Reads and dissects `path` with `keys`. Throws InputError naming the file
/// when it cannot be read.
VantageCapture load_vantage(const std::string& path, const std::string& file, const dissect::KeyLog& keys);

using DatagramSink = std::function<void(const CapturedDatagram&)>;
/// The same for the datagrams `datagrams` passes to its sink (a unit's
/// frames of a capture, capture/unit_source.hpp), known as `file`.
VantageCapture load_vantage(const std::function<void(const DatagramSink&)>& datagrams, const std::string& file,
                            const dissect::KeyLog& keys);

/// What became of a datagram between the two vantage points.
enum class Fate : std::uint8_t {
  delivered,    // in the sender's capture and the receiver's
  lost,         // in the sender's capture only: the network dropped it
  one_vantage,  // only one capture exists: nothing to compare with
  unmatched,    // in the receiver's capture only (e.g. duplicated on the way)
};

/// One datagram of the case, as the sequence diagram draws it.
struct DiagramRow {
  /// When it was sent (the sender's capture), or when it was seen when the
  /// sender's capture does not have it; nanoseconds as captured.
  std::int64_t time_ns = 0;
  /// When the receiver's capture saw it; -1 when it did not.
  std::int64_t arrival_ns = -1;
  dissect::Direction direction = dissect::Direction::client_to_server;
  Fate fate = Fate::one_vantage;
  /// Its frame numbers in client.pcap and server.pcap; 0 where absent.
  std::uint64_t client_frame = 0, server_frame = 0;
  /// The datagram as dissected (from the sender's capture when it has it).
  const dissect::Datagram* datagram = nullptr;
};

/// The datagrams of the first connection of `client` and `server` (either
/// may be absent), matched by payload, in time order. Datagrams with the
/// same payload are matched in capture order.
std::vector<DiagramRow> diagram_rows(const VantageCapture* client, const VantageCapture* server);

}  // namespace conform::report
