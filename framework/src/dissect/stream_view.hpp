// Per-stream views derived from a connection's timeline (RFC 9000 §2-§4):
// who opened each stream, and per direction of data how many distinct bytes
// were seen, where the data ended (FIN), whether it was reset or its reading
// stopped, and the flow control limits the receiver advertised; and, on an
// HTTP/3 connection, what each unidirectional stream is for. Checks read
// these beside the timeline; they add nothing the frames do not say.
#pragma once

#include "dissect/timeline.hpp"

#include <map>
#include <span>
#include <string_view>
#include <optional>
#include <vector>

namespace conform::dissect {

/// One direction of a stream's data, client to server or server to client.
struct StreamFlow {
  /// Bytes of stream data seen at least once: retransmissions count once.
  std::uint64_t unique_bytes = 0;
  /// Bytes carried by STREAM frames, retransmissions included.
  std::uint64_t sent_bytes = 0;
  std::uint64_t stream_frames = 0;
  /// The end of the highest STREAM frame: offset + length.
  std::uint64_t highest_offset = 0;
  std::optional<std::uint64_t> fin_size;  // from a STREAM frame with FIN
  /// RESET_STREAM by the sender (§19.4): error code and final size.
  std::optional<ResetStreamFrame> reset;
  /// The capture frame of the first RESET_STREAM, 0 when none.
  std::uint64_t reset_frame = 0;
  /// STOP_SENDING by the receiver (§19.5): its error code.
  std::optional<std::uint64_t> stop_sending_error;
  /// The highest MAX_STREAM_DATA the receiver sent (§19.10), bytes.
  std::optional<std::uint64_t> max_stream_data;
  /// The highest STREAM_DATA_BLOCKED limit the sender reported (§19.13).
  std::optional<std::uint64_t> blocked_at;
  std::uint64_t first_frame = 0;  // capture frame numbers, 0 when none
  std::uint64_t last_frame = 0;
};

/// What HTTP/3 makes of a unidirectional stream, from the stream type in
/// its first bytes (RFC 9114 §6.2, RFC 9204 §4.2).
enum class H3StreamType {
  none,           ///< not a unidirectional stream of an h3 connection, or its first bytes never seen
  control,        ///< 0x00 (RFC 9114 §6.2.1)
  push,           ///< 0x01 (§6.2.2)
  qpack_encoder,  ///< 0x02 (RFC 9204 §4.2)
  qpack_decoder,  ///< 0x03
  reserved,       ///< 0x1f·N + 0x21 (§6.2.3): greasing, no meaning
  unknown,        ///< any other type
};

/// "control", "push", "QPACK encoder", "QPACK decoder", "reserved", ...
std::string_view to_string(H3StreamType t);

/// Whether HTTP/3 lets the stream stay open for the whole connection: its
/// control stream and QPACK streams, which the sender MUST NOT close
/// (RFC 9114 §6.2.1, RFC 9204 §4.2), and reserved streams, which carry no
/// meaning and need no end (§6.2.3). Their data never "arrives complete".
bool never_ends(H3StreamType t);

/// The type a unidirectional stream's first bytes name (one variable-length
/// integer, RFC 9000 §16), or nullopt when they are too short to hold it.
std::optional<H3StreamType> h3_stream_type(std::span<const std::uint8_t> head);

struct StreamView {
  std::uint64_t id = 0;
  /// Bit 0x01 of the ID names the initiator, bit 0x02 the directionality (§2.1).
  bool client_initiated() const { return (id & 0x01) == 0; }
  bool bidirectional() const { return (id & 0x02) == 0; }
  /// The capture frame in which any frame of this stream first appeared.
  std::uint64_t first_frame = 0;
  std::array<StreamFlow, 2> flows;  // by Direction of the data
  H3StreamType h3 = H3StreamType::none;

  const StreamFlow& flow(Direction d) const { return flows[static_cast<std::size_t>(d)]; }
};

/// The streams of `connection`, by ID, from decrypted frames only.
std::vector<StreamView> stream_views(const Connection& connection);

}  // namespace conform::dissect
