// What a connection tells its application, polled after each call
// (quinn-style `poll_event`): handshake progress, stream activity, closure.
#pragma once

#include <variant>

#include "codec/error.hpp"
#include "connection/stream_id.hpp"

namespace conform::quic {

struct HandshakeCompleted {};
/// The handshake is confirmed (RFC 9001 §4.1.2): at a server when it
/// completes, at a client when HANDSHAKE_DONE arrives.
struct HandshakeConfirmed {};
/// The peer opened a stream (every stream up to this id is opened too).
struct StreamOpened { StreamId id = 0; };
/// New data or a FIN can be read.
struct StreamReadable { StreamId id = 0; };
/// The peer reset its sending part (RESET_STREAM).
struct StreamReset { StreamId id = 0; uint64_t error_code = 0; };
/// The peer asked us to stop sending (STOP_SENDING); we answered with
/// RESET_STREAM carrying the same code (RFC 9000 §3.5).
struct StreamStopped { StreamId id = 0; uint64_t error_code = 0; };
/// Both parts of a stream are done (RFC 9000 §3: all our data acknowledged
/// or reset, all the peer's read or reset) and it is forgotten.
struct StreamClosed { StreamId id = 0; };
/// MAX_STREAMS raised our limit after an open was refused as blocked.
struct StreamsAvailable { Dir dir = Dir::bidi; };
/// The connection ended: by us, by the peer, or by the idle timeout.
struct ConnectionClosed {
  TransportError error;
  bool by_peer = false;
  bool application = false;
};

using Event = std::variant<HandshakeCompleted, HandshakeConfirmed, StreamOpened, StreamReadable, StreamReset, StreamClosed,
                           StreamStopped, StreamsAvailable, ConnectionClosed>;

/// Errors of the application-facing stream calls.
enum class StreamError : uint8_t {
  blocked,          ///< At the peer's stream limit; wait for StreamsAvailable.
  limit_reached,    ///< At the limit with open_stream_when_blocked = fail.
  unknown_stream,   ///< No such stream (never opened, or already closed).
  wrong_direction,  ///< Writing a receive-only or reading a send-only stream.
  finished,         ///< Writing after finish() or reset().
  stopped,          ///< The peer sent STOP_SENDING.
  reset_by_peer,    ///< Reading a stream the peer reset.
  not_connected,    ///< Before the handshake completed, or after close.
};

const char* to_string(StreamError e);

}  // namespace conform::quic
