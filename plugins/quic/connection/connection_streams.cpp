// Streams: the application's calls and the peer's stream frames (RFC 9000
// §2-§4, §19.4-§19.14), with flow control (§4.1) and stream limits (§4.6).
#include "connection/connection.hpp"

namespace conform::quic {

namespace {

TransportError state_error(const char* what, uint64_t type) {
  return TransportError(TransportErrorCode::stream_state_error, what, type);
}

size_t dir_index(StreamId id) { return static_cast<size_t>(dir_of(id)); }

}  // namespace

Stream& Connection::create_stream(StreamId id) {
  Stream st;
  st.id = id;
  const bool local = locally_initiated(id);
  const bool bidi = dir_of(id) == Dir::bidi;
  st.has_send = bidi || local;
  st.has_recv = bidi || !local;
  // Initial credits (§18.2): "local"/"remote" are from the declaring side.
  const TransportParameters none;
  const TransportParameters& peer = peer_params_ ? *peer_params_ : none;
  if (st.has_send)
    st.send_credit = SendCredit(!bidi  ? peer.initial_max_stream_data_uni
                                : local ? peer.initial_max_stream_data_bidi_remote
                                        : peer.initial_max_stream_data_bidi_local);
  if (st.has_recv)
    st.recv_window = RecvWindow(!bidi  ? config_.initial_max_stream_data_uni
                                : local ? config_.initial_max_stream_data_bidi_local
                                        : config_.initial_max_stream_data_bidi_remote);
  return streams_.emplace(id, std::move(st)).first->second;
}

void Connection::maybe_collect(StreamId id) {
  auto it = streams_.find(id);
  if (it == streams_.end() || !it->second.closed()) return;
  // A peer stream that is done returns its credit to the MAX_STREAMS policy,
  // however it ended (unless the credit_reset_streams fault is on).
  const bool reset = it->second.peer_reset_code.has_value();
  if (!locally_initiated(id) && (config_.credit_reset_streams || !reset)) remote_limits_[dir_index(id)].on_closed();
  streams_.erase(it);
}

Result<Stream*> Connection::stream_for_peer_frame(StreamId id, uint64_t type, bool needs_recv,
                                                  bool needs_send) {
  const bool local = locally_initiated(id);
  if (dir_of(id) == Dir::uni) {
    // §19.8, §19.4, §19.13: the peer cannot send on our send-only stream;
    // §19.10, §19.5: nor flow-control or stop its own send-only stream.
    if (local && needs_recv) return state_error("frame for a send-only stream", type);
    if (!local && needs_send) return state_error("frame for a receive-only stream", type);
  }
  if (auto it = streams_.find(id); it != streams_.end()) return &it->second;
  const uint64_t index = index_of(id);
  const size_t d = dir_index(id);
  if (local) {
    if (index >= local_limits_[d].opened()) return state_error("stream not opened yet", type);
    return static_cast<Stream*>(nullptr);  // closed and forgotten: ignore
  }
  if (index < peer_streams_opened_[d]) return static_cast<Stream*>(nullptr);
  if (!remote_limits_[d].on_opened(index))
    return TransportError(TransportErrorCode::stream_limit_error, "stream beyond MAX_STREAMS", type);
  // §3.2: opening a stream opens every lower-numbered one of its type.
  for (uint64_t i = peer_streams_opened_[d]; i <= index; ++i) {
    const StreamId sid = make_stream_id(i, !config_.is_server, dir_of(id));
    create_stream(sid);
    push_event(StreamOpened{sid});
  }
  peer_streams_opened_[d] = index + 1;
  return &streams_.at(id);
}

Status<> Connection::on_stream_frame(const StreamFrame& f) {
  const uint64_t type = frame_type::stream;
  auto found = stream_for_peer_frame(f.stream_id, type, true, false);
  if (!found) return found.error();
  Stream* st = found.value();
  if (st == nullptr || st->peer_reset_code) return {};
  const uint64_t end = f.offset + f.data.size();
  const uint64_t before = st->recv.highest_received();
  const uint64_t readable_before = st->recv.readable();
  const bool final_known_before = st->recv.final_size().has_value();
  if (!st->recv_window.on_received(end))
    return TransportError(TransportErrorCode::flow_control_error, "stream data beyond MAX_STREAM_DATA", type);
  if (auto s = st->recv.insert(f.offset, f.data, f.fin); !s) {
    TransportError e = s.error();
    e.frame_type = type;
    return e;
  }
  const uint64_t after = st->recv.highest_received();
  if (after > before && !conn_recv_.on_received(conn_recv_.received() + (after - before)))
    return TransportError(TransportErrorCode::flow_control_error, "stream data beyond MAX_DATA", type);
  if (st->recv.final_size() && st->recv_state == RecvState::recv) st->recv_state = RecvState::size_known;
  if (st->recv_state == RecvState::size_known &&
      st->recv.read_offset() + st->recv.readable() == *st->recv.final_size())
    st->recv_state = RecvState::data_recvd;
  // Only news is an event: a duplicate frame must not wake the reader.
  if (st->recv.readable() > readable_before || (!final_known_before && st->recv.final_size()))
    push_event(StreamReadable{f.stream_id});
  return {};
}

Status<> Connection::on_reset_stream(const ResetStreamFrame& f) {
  const uint64_t type = frame_type::reset_stream;
  auto found = stream_for_peer_frame(f.stream_id, type, true, false);
  if (!found) return found.error();
  Stream* st = found.value();
  if (st == nullptr || st->peer_reset_code) return {};
  const auto known = st->recv.final_size();
  if ((known && *known != f.final_size) || f.final_size < st->recv.highest_received())
    return TransportError(TransportErrorCode::final_size_error, "RESET_STREAM final size", type);
  const uint64_t before = st->recv.highest_received();
  if (!st->recv_window.on_received(f.final_size) ||
      !conn_recv_.on_received(conn_recv_.received() + (f.final_size - before)))
    return TransportError(TransportErrorCode::flow_control_error, "RESET_STREAM final size over limit", type);
  // Unread bytes will never be read: release them to the connection window.
  conn_recv_.on_consumed(f.final_size - st->recv.read_offset());
  st->peer_reset_code = f.error_code;
  st->recv_state = RecvState::reset_recvd;
  push_event(StreamReset{f.stream_id, f.error_code});
  return {};
}

Status<> Connection::on_stop_sending(const StopSendingFrame& f) {
  auto found = stream_for_peer_frame(f.stream_id, frame_type::stop_sending, false, true);
  if (!found) return found.error();
  Stream* st = found.value();
  if (st == nullptr || st->peer_stop_code) return {};
  st->peer_stop_code = f.error_code;
  // §3.5: answer with RESET_STREAM, echoing the code.
  if (!st->reset_code && st->send_state != SendState::data_recvd) {
    st->reset_code = f.error_code;
    st->reset_pending = true;
    st->send_state = SendState::reset_sent;
  }
  push_event(StreamStopped{f.stream_id, f.error_code});
  return {};
}

Status<> Connection::on_max_stream_data(const MaxStreamDataFrame& f) {
  auto found = stream_for_peer_frame(f.stream_id, frame_type::max_stream_data, false, true);
  if (!found) return found.error();
  if (Stream* st = found.value()) st->send_credit.raise(f.maximum);
  return {};
}

void Connection::on_max_streams(const MaxStreamsFrame& f) {
  const size_t d = static_cast<size_t>(f.bidi ? Dir::bidi : Dir::uni);
  if (local_limits_[d].raise(f.maximum) && open_refused_[d]) {
    open_refused_[d] = false;
    push_event(StreamsAvailable{f.bidi ? Dir::bidi : Dir::uni});
  }
}

Result<StreamId, StreamError> Connection::open_stream(Dir dir) {
  if (!handshake_complete_ || state_ != ConnectionState::established) return StreamError::not_connected;
  LocalStreamLimit& limit = local_limits_[static_cast<size_t>(dir)];
  if (!limit.can_open() && config_.respect_peer_max_streams) {
    limit.on_blocked(config_.repeat_streams_blocked);
    open_refused_[static_cast<size_t>(dir)] = true;
    return config_.open_stream_when_blocked == OpenWhenBlocked::wait ? StreamError::blocked
                                                                     : StreamError::limit_reached;
  }
  const StreamId id = make_stream_id(limit.open(), config_.is_server, dir);
  create_stream(id);
  return id;
}

Result<size_t, StreamError> Connection::write(StreamId id, ByteView data) {
  if (state_ != ConnectionState::established) return StreamError::not_connected;
  auto it = streams_.find(id);
  if (it == streams_.end()) return StreamError::unknown_stream;
  Stream& st = it->second;
  if (!st.has_send) return StreamError::wrong_direction;
  if (st.peer_stop_code) return StreamError::stopped;
  if (st.send.fin_requested() || st.reset_code) return StreamError::finished;
  st.send.write(data);
  if (st.send_state == SendState::ready) st.send_state = SendState::send;
  return data.size();
}

Status<StreamError> Connection::finish(StreamId id) {
  if (state_ != ConnectionState::established) return StreamError::not_connected;
  auto it = streams_.find(id);
  if (it == streams_.end()) return StreamError::unknown_stream;
  Stream& st = it->second;
  if (!st.has_send) return StreamError::wrong_direction;
  if (st.peer_stop_code) return StreamError::stopped;
  if (st.send.fin_requested() || st.reset_code) return StreamError::finished;
  st.send.finish();
  return {};
}

Result<Connection::ReadResult, StreamError> Connection::read(StreamId id, std::span<uint8_t> out) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return StreamError::unknown_stream;
  Stream& st = it->second;
  if (!st.has_recv) return StreamError::wrong_direction;
  if (st.peer_reset_code) {
    st.recv_state = RecvState::reset_read;
    maybe_collect(id);
    return StreamError::reset_by_peer;
  }
  ReadResult r;
  r.bytes = st.recv.read(out);
  st.recv_window.on_consumed(r.bytes);
  conn_recv_.on_consumed(r.bytes);
  r.fin = st.recv.finished();
  if (r.fin) {
    st.recv_state = RecvState::data_read;
    maybe_collect(id);
  }
  return r;
}

Status<StreamError> Connection::reset(StreamId id, uint64_t error_code) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return StreamError::unknown_stream;
  Stream& st = it->second;
  if (!st.has_send) return StreamError::wrong_direction;
  if (st.reset_code || st.send_state == SendState::data_recvd) return {};
  st.reset_code = error_code;
  st.reset_pending = true;
  st.send_state = SendState::reset_sent;
  return {};
}

Status<StreamError> Connection::stop_sending(StreamId id, uint64_t error_code) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return StreamError::unknown_stream;
  Stream& st = it->second;
  if (!st.has_recv) return StreamError::wrong_direction;
  if (st.recv_terminal() || st.stop_code || st.recv.final_size()) return {};
  st.stop_code = error_code;
  st.stop_pending = true;
  return {};
}

}  // namespace conform::quic
