// The application's stream calls (RFC 9000 §2-§3): the connection checks
// that it is established, the streams (streams_state.hpp) do the rest.
#include "connection/connection.hpp"

namespace conform::quic {

Result<StreamId, StreamError> Connection::open_stream(Dir dir) {
  if (!handshake_complete_ || state_ != ConnectionState::established) return StreamError::not_connected;
  return streams_.open(dir);
}

Result<size_t, StreamError> Connection::write(StreamId id, ByteView data) {
  if (state_ != ConnectionState::established) return StreamError::not_connected;
  return streams_.write(id, data);
}

Status<StreamError> Connection::finish(StreamId id) {
  if (state_ != ConnectionState::established) return StreamError::not_connected;
  return streams_.finish(id);
}

Result<Connection::ReadResult, StreamError> Connection::read(StreamId id, std::span<uint8_t> out) {
  return streams_.read(id, out);
}

Status<StreamError> Connection::reset(StreamId id, uint64_t error_code) { return streams_.reset(id, error_code); }

Status<StreamError> Connection::stop_sending(StreamId id, uint64_t error_code) {
  return streams_.stop_sending(id, error_code);
}

}  // namespace conform::quic
