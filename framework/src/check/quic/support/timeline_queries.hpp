// QUIC timeline queries: what the QUIC checks ask of one connection of a
// dissected capture, computed in one pass over its frames (RFC 9000 §2-§4,
// §19). Per sending side: the streams it opened (in order of first
// appearance, by directionality), the stream and data limits it advertised
// (MAX_STREAMS, MAX_DATA, MAX_STREAM_DATA) and reported (STREAMS_BLOCKED,
// DATA_BLOCKED, STREAM_DATA_BLOCKED), its connection-level flow control
// usage, and its CONNECTION_CLOSE frames; each with the capture frame and
// time where it was seen. Which capture a connection comes from decides
// the meaning: in the sender's capture "seen" is "sent", in the receiver's
// it is "arrived".
#pragma once

#include "dissect/connection_table.hpp"
#include "dissect/stream_view.hpp"
#include "dissect/timeline.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace conform::quic_checks {

using dissect::Side;

/// Stream directionality (RFC 9000 §2.1), the `dir` parameter of checks.
enum class StreamDir : std::uint8_t { bidi = 0, uni = 1 };
/// "bidi" / "uni".
std::string_view to_string(StreamDir dir);
/// "client" / "server".
std::string_view to_string(Side side);
/// Parses "client"/"server"; "uni"/"bidi".
Side side_from(const std::string& name);
StreamDir dir_from(const std::string& name);

/// Who initiated a stream and its directionality, from the low bits of its
/// ID (§2.1); its index among the streams of that kind is `id >> 2`.
inline Side initiator(std::uint64_t stream_id) { return (stream_id & 1) ? Side::server : Side::client; }
inline StreamDir dir_of(std::uint64_t stream_id) { return (stream_id & 2) ? StreamDir::uni : StreamDir::bidi; }
inline std::uint64_t stream_index(std::uint64_t stream_id) { return stream_id >> 2; }

/// Where in a capture something was seen: Wireshark frame number, capture
/// time (ns), and the index of the datagram in Connection::datagrams.
struct At {
  std::uint64_t frame = 0;
  std::int64_t time_ns = 0;
  std::size_t datagram = 0;
};
inline bool operator<(const At& a, const At& b) { return a.datagram < b.datagram; }

/// A frame carrying one limit: MAX_STREAMS, STREAMS_BLOCKED, MAX_DATA,
/// DATA_BLOCKED (streams or bytes, as the frame says).
struct LimitSeen {
  At at;
  std::uint64_t value = 0;
};
/// MAX_STREAM_DATA and STREAM_DATA_BLOCKED: a limit of one stream, bytes.
struct StreamLimitSeen {
  At at;
  std::uint64_t stream_id = 0;
  std::uint64_t value = 0;
};
struct StreamOpened {
  std::uint64_t id = 0;
  At at;  // the first frame the initiator sent on it (STREAM, RESET_STREAM, STREAM_DATA_BLOCKED)
};
struct CloseSeen {
  At at;
  dissect::ConnectionCloseFrame frame;
};

/// What one side of a connection sent, as seen in one capture.
struct SideFacts {
  /// Streams this side initiated, by StreamDir, in order of first appearance.
  std::array<std::vector<StreamOpened>, 2> opened;
  /// MAX_STREAMS and STREAMS_BLOCKED frames, by StreamDir.
  std::array<std::vector<LimitSeen>, 2> max_streams;
  std::array<std::vector<LimitSeen>, 2> streams_blocked;
  std::vector<LimitSeen> max_data;
  std::vector<LimitSeen> data_blocked;
  std::vector<StreamLimitSeen> max_stream_data;
  std::vector<StreamLimitSeen> stream_data_blocked;
  /// Connection-level flow control usage (§4.1): the sum over streams of
  /// the highest offset this side sent, bytes; one entry each time it grows.
  std::vector<LimitSeen> data_sent;
  std::vector<CloseSeen> closes;
  /// Frames that did not parse, with the type read if any (e.g. a
  /// MAX_STREAMS above 2^60).
  std::vector<std::pair<At, dissect::MalformedFrame>> malformed;
};

struct FlightsMemo;  // crypto_flights.cpp
std::shared_ptr<FlightsMemo> new_flights_memo();

/// The queries of one connection.
struct ConnectionFacts {
  const dissect::Connection* connection = nullptr;
  /// crypto_flights() of each side, worked out once whichever checks ask.
  std::shared_ptr<FlightsMemo> flights_memo;
  /// Packets sent and of those decrypted, by the level of their keys
  /// (Initial, Handshake, 1-RTT: Initial, Handshake and 1-RTT packets) and
  /// by direction (dissect::Direction), Stateless Resets aside: counted once
  /// for every check that asks whether its keys were there (key_visibility).
  struct Protected {
    std::size_t sent = 0, decrypted = 0;
  };
  std::array<std::array<Protected, 2>, 3> protected_packets{};
  std::array<SideFacts, 2> sides;  // by Side
  /// Per-stream views (dissect/stream_view.hpp), sorted by ID.
  std::vector<dissect::StreamView> streams;

  const SideFacts& side(Side s) const { return sides[static_cast<std::size_t>(s)]; }
  /// The stream with `id`, or nullptr.
  const dissect::StreamView* stream(std::uint64_t id) const;
  /// The transport parameters `s` declared, or nullptr when not in the capture.
  const dissect::TransportParameters* parameters(Side s) const;
  /// Where datagram `index` of the connection sits in the capture.
  At at(std::size_t datagram) const;
  /// Where the connection's datagram of capture frame `frame` sits (the
  /// first one of a split GSO record); {frame, 0, 0} when it has none.
  At at_frame(std::uint64_t frame) const;
};

/// Whether `p` holds a frame of type `F` (dissect::AckFrame, ...).
template <typename F>
bool carries(const dissect::Packet& p) {
  return std::any_of(p.frames.begin(), p.frames.end(), [](const dissect::Frame& f) { return std::holds_alternative<F>(f); });
}

/// The end of the highest CRYPTO data of `space` in `d`, 0 when none.
inline std::uint64_t crypto_end(const dissect::Datagram& d, dissect::PacketSpace space) {
  std::uint64_t end = 0;
  for (const auto& p : d.packets)
    if (p.space == space)
      for (const auto& f : p.frames)
        if (const auto* c = std::get_if<dissect::CryptoFrame>(&f)) end = std::max(end, c->offset + c->length);
  return end;
}

/// The sender of a datagram of the timeline.
inline Side sender_of(const dissect::Datagram& d) {
  return d.direction == dissect::Direction::client_to_server ? Side::client : Side::server;
}

/// Builds the queries of `connection`, which must outlive the result.
ConnectionFacts analyze_connection(const dissect::Connection& connection);

/// The initial stream limit `declared_by` granted its peer (initial_max_streams_bidi/uni, §18.2).
std::optional<std::uint64_t> initial_max_streams(const ConnectionFacts& c, Side declared_by, StreamDir dir);
/// The initial connection-level limit `declared_by` granted (initial_max_data).
std::optional<std::uint64_t> initial_max_data(const ConnectionFacts& c, Side declared_by);
/// The initial limit on the data `receiver` accepts on stream `id`
/// (initial_max_stream_data_bidi_local / _bidi_remote / _uni, §18.2).
std::optional<std::uint64_t> initial_max_stream_data(const ConnectionFacts& c, Side receiver, std::uint64_t id);

/// Per stream sent by `sender`: the highest offset it reached, each time it
/// grew (bytes), in capture order.
std::map<std::uint64_t, std::vector<LimitSeen>> stream_offsets(const ConnectionFacts& c, Side sender);

}  // namespace conform::quic_checks
