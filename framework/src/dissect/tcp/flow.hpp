// A TCP connection as one capture shows it (RFC 9293 §3.3): its two
// directions, the windows each side advertised, the segments that signal
// trouble (zero windows, probes, retransmissions, out-of-order data), and the
// request/response transfers it carried. Produced by analyze_tcp
// (flow_analysis.hpp) from the capture alone.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace conform::tcp {

/// One frame of the capture: Wireshark frame number (from 1) and its capture
/// timestamp in nanoseconds (the capture's own clock, usually Unix time).
struct FrameRef {
  std::uint64_t frame = 0;
  std::int64_t time_ns = 0;
};

/// An IPv4 address and TCP port, host byte order.
struct Endpoint {
  std::uint32_t address = 0;
  std::uint16_t port = 0;
  friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

/// "127.0.0.1:5000".
std::string to_string(Endpoint e);

/// A receive window a side advertised (RFC 9293 §3.8.6), scaled to bytes
/// with the shift both sides agreed in the handshake (RFC 7323 §2.3).
struct WindowAdvert {
  FrameRef at;
  std::uint64_t bytes = 0;
};

/// A zero window that held: from the first segment advertising it to the
/// first later segment of the same side advertising room again (or the
/// flow's last segment when none did).
struct ZeroWindowEpisode {
  FrameRef start, end;
  std::int64_t ns() const { return end.time_ns - start.time_ns; }
};

/// What one side sent: the segments whose source is `from`.
struct Direction {
  Endpoint from;
  /// The Window Scale shift this side offered on its SYN; -1 when its SYN
  /// carried no Window Scale option or is not in the capture.
  int offered_shift = -1;
  /// The shift applied to this side's window fields after the handshake:
  /// its offer when both SYNs carried the option, else 0 (RFC 7323 §2.2).
  int window_shift = 0;
  /// Segments sent, and those carrying payload.
  std::uint64_t segments = 0, data_segments = 0;
  /// Distinct payload bytes (sequence space covered at least once).
  std::uint64_t data_bytes = 0;
  /// The window of every segment with ACK set (not RST), in capture order.
  /// Windows of SYN segments are never scaled (RFC 7323 §2.2).
  std::vector<WindowAdvert> windows;
  /// Segments advertising a zero window (not SYN, FIN or RST): the receiver
  /// has no room (RFC 9293 §3.8.6.1).
  std::vector<FrameRef> zero_windows;
  /// Runs of zero-window segments, a new one only after a non-zero window.
  std::vector<ZeroWindowEpisode> zero_window_episodes;
  /// Probes of the peer's zero window (RFC 9293 §3.8.6.1): while the peer's
  /// last window was zero, one new byte at the next sequence number, or an
  /// empty segment one below it (what Linux sends).
  std::vector<FrameRef> zero_window_probes;
  /// Payload segments whose bytes had all or partly been seen before.
  std::vector<FrameRef> retransmissions;
  /// Payload segments filling a hole below the highest sequence number
  /// seen, with bytes not seen before: they went out after later data.
  std::vector<FrameRef> out_of_order;
  /// Payload segments that start above the highest sequence number seen:
  /// the bytes before them are missing from the capture.
  std::vector<FrameRef> after_missing;
};

/// The longest time a transfer made no progress: between two segments that
/// carried new bytes (either way), or from the last one to the flow's last
/// segment when the transfer never completed.
struct Gap {
  FrameRef from, to;
  std::int64_t ns() const { return to.time_ns - from.time_ns; }
};

/// One request and its response on a connection: from the first new byte
/// the initiator sends after the previous response, to the last payload
/// segment of the responder's answer.
struct Transfer {
  FrameRef first_request;
  /// The last responder payload segment; equal to first_request while no
  /// response byte was seen.
  FrameRef last_response;
  std::uint64_t request_bytes = 0, response_bytes = 0;
  Gap longest_gap;
  bool answered() const { return response_bytes > 0; }
  std::int64_t duration_ns() const { return last_response.time_ns - first_request.time_ns; }
};

/// One TCP connection of a capture.
struct Flow {
  /// 1 for the flow whose first segment comes first in the capture, and so on.
  std::size_t index = 0;
  FrameRef first, last;
  /// Whether the SYN and SYN-ACK are both in the capture; without them window
  /// scaling is unknown and windows are read unscaled.
  bool handshake_seen = false;
  /// [0]: the initiator (sender of the SYN, or of the first segment seen);
  /// [1]: the responder.
  std::array<Direction, 2> dir;
  std::vector<Transfer> transfers;

  /// "flow 2 (127.0.0.1:40000 → 127.0.0.1:5000)".
  std::string name() const;
};

}  // namespace conform::tcp
