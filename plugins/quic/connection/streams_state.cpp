// Streams and their limits, RFC 9000 §2-§4: the peer's stream frames
// (§19.4-§19.14) and the application's calls. The frame writers are in
// streams_state_write.cpp.
#include "connection/streams_state.hpp"

#include <array>

namespace conform::quic {

namespace {

TransportError state_error(const char* what, uint64_t type) {
  return TransportError(TransportErrorCode::stream_state_error, what, type);
}

Dir dir_of_frame(bool bidi) { return bidi ? Dir::bidi : Dir::uni; }

// Abandons sending (§3.1 "Reset Sent"): RESET_STREAM is due.
void begin_reset(Stream& st, uint64_t error_code) {
  st.reset_code = error_code;
  st.reset_pending = true;
  st.send_state = SendState::reset_sent;
}

}  // namespace

StreamsState::StreamsState(const Config& config, std::deque<Event>& events)
    : config_(config), events_(events), conn_recv_(config.initial_max_data, config.max_data_cap, config.advertised_max_data()) {
  for (Dir d : {Dir::bidi, Dir::uni}) {
    const uint64_t window = d == Dir::bidi ? config.initial_max_streams_bidi : config.initial_max_streams_uni;
    remote_limits_[index(d)] = RemoteStreamLimit(window, config.max_streams_policy, config.max_streams_uncapped,
                                                 config.advertised_max_streams(d == Dir::bidi));
  }
}

void StreamsState::on_peer_params(const TransportParameters& peer) {
  peer_ = peer;
  conn_send_ = SendCredit(peer.initial_max_data);
  local_limits_[index(Dir::bidi)] = LocalStreamLimit(peer.initial_max_streams_bidi);
  local_limits_[index(Dir::uni)] = LocalStreamLimit(peer.initial_max_streams_uni);
}

Stream* StreamsState::find(StreamId id) {
  auto it = streams_.find(id);
  return it == streams_.end() ? nullptr : &it->second;
}

Stream& StreamsState::create(StreamId id) {
  Stream st;
  st.id = id;
  const bool local = locally_initiated(id);
  const bool bidi = dir_of(id) == Dir::bidi;
  st.has_send = bidi || local;
  st.has_recv = bidi || !local;
  // Initial credits (§18.2): "local"/"remote" are from the declaring side.
  if (st.has_send)
    st.send_credit = SendCredit(!bidi  ? peer_.initial_max_stream_data_uni
                                : local ? peer_.initial_max_stream_data_bidi_remote
                                        : peer_.initial_max_stream_data_bidi_local);
  if (st.has_recv)
    st.recv_window = RecvWindow(!bidi  ? config_.initial_max_stream_data_uni
                                : local ? config_.initial_max_stream_data_bidi_local
                                        : config_.initial_max_stream_data_bidi_remote);
  return streams_.emplace(id, std::move(st)).first->second;
}

void StreamsState::maybe_collect(StreamId id) {
  auto it = streams_.find(id);
  if (it == streams_.end() || !it->second.closed()) return;
  // A peer stream that is done returns its credit to the MAX_STREAMS policy,
  // however it ended (unless the credit_reset_streams fault is on).
  const bool reset = it->second.peer_reset_code.has_value();
  const bool leaked = it->second.rejected && !config_.credit_rejected_streams;
  if (!locally_initiated(id) && (config_.credit_reset_streams || !reset) && !leaked)
    remote_limits_[index(dir_of(id))].on_closed();
  streams_.erase(it);
  push(StreamClosed{id});
}

// The reject_peer_streams script's answer to a stream the peer opened.
void StreamsState::reject(Stream& st) {
  st.rejected = true;
  if (st.has_recv) (void)stop_sending(st.id, kStreamRejected);
  if (st.has_send) (void)reset(st.id, kStreamRejected);
}

// What a rejected stream received, read and dropped at once, so that it
// ends (and, its RESET_STREAM acknowledged, is collected) as a read one.
void StreamsState::discard(StreamId id) {
  std::array<uint8_t, 4096> scratch;
  while (find(id)) {
    auto r = read(id, scratch);
    if (!r.ok() || r.value().fin || r.value().bytes == 0) break;
  }
}

Result<Stream*> StreamsState::stream_for_peer_frame(StreamId id, uint64_t type, bool needs_recv, bool needs_send) {
  const bool local = locally_initiated(id);
  if (dir_of(id) == Dir::uni) {
    // §19.8, §19.4, §19.13: the peer cannot send on our send-only stream;
    // §19.10, §19.5: nor flow-control or stop its own send-only stream.
    if (local && needs_recv) return state_error("frame for a send-only stream", type);
    if (!local && needs_send) return state_error("frame for a receive-only stream", type);
  }
  if (Stream* st = find(id)) return st;
  const uint64_t n = index_of(id);
  const size_t d = index(dir_of(id));
  if (local) {
    if (n >= local_limits_[d].opened()) return state_error("stream not opened yet", type);
    return static_cast<Stream*>(nullptr);  // closed and forgotten: ignore
  }
  if (n < peer_streams_opened_[d]) return static_cast<Stream*>(nullptr);
  if (!remote_limits_[d].on_opened(n))
    return TransportError(TransportErrorCode::stream_limit_error, "stream beyond MAX_STREAMS", type);
  // §3.2: opening a stream opens every lower-numbered one of its type.
  for (uint64_t i = peer_streams_opened_[d]; i <= n; ++i) {
    const StreamId sid = make_stream_id(i, !config_.is_server, dir_of(id));
    Stream& st = create(sid);
    if (config_.reject_peer_streams)
      reject(st);
    else
      push(StreamOpened{sid});
  }
  peer_streams_opened_[d] = n + 1;
  return &streams_.at(id);
}

Status<> StreamsState::on_stream(const StreamFrame& f) {
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
  if (st->rejected) {
    discard(f.stream_id);
  } else if (st->recv.readable() > readable_before || (!final_known_before && st->recv.final_size())) {
    push(StreamReadable{f.stream_id});
  }
  return {};
}

Status<> StreamsState::on_reset_stream(const ResetStreamFrame& f) {
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
  if (st->rejected)
    discard(f.stream_id);
  else
    push(StreamReset{f.stream_id, f.error_code});
  return {};
}

Status<> StreamsState::on_stop_sending(const StopSendingFrame& f) {
  auto found = stream_for_peer_frame(f.stream_id, frame_type::stop_sending, false, true);
  if (!found) return found.error();
  Stream* st = found.value();
  if (st == nullptr || st->peer_stop_code) return {};
  st->peer_stop_code = f.error_code;
  // §3.5: answer with RESET_STREAM, echoing the code.
  if (!st->reset_code && st->send_state != SendState::data_recvd) begin_reset(*st, f.error_code);
  if (!st->rejected) push(StreamStopped{f.stream_id, f.error_code});
  return {};
}

Status<> StreamsState::on_max_stream_data(const MaxStreamDataFrame& f) {
  auto found = stream_for_peer_frame(f.stream_id, frame_type::max_stream_data, false, true);
  if (!found) return found.error();
  if (Stream* st = found.value()) st->send_credit.raise(f.maximum);
  return {};
}

Status<> StreamsState::on_stream_data_blocked(const StreamDataBlockedFrame& f) {
  // Nothing to grant on request (credit follows what the application read,
  // §4.2), but the stream ID is checked and opens peer streams like any.
  auto found = stream_for_peer_frame(f.stream_id, frame_type::stream_data_blocked, true, false);
  if (!found) return found.error();
  if (Stream* st = found.value()) st->recv_window.on_peer_blocked(f.limit);
  return {};
}

void StreamsState::on_data_blocked(const DataBlockedFrame& f) { conn_recv_.on_peer_blocked(f.limit); }

void StreamsState::on_max_data(const MaxDataFrame& f) { conn_send_.raise(f.maximum); }

void StreamsState::on_max_streams(const MaxStreamsFrame& f) {
  const Dir d = dir_of_frame(f.bidi);
  if (local_limits_[index(d)].raise(f.maximum) && open_refused_[index(d)]) {
    open_refused_[index(d)] = false;
    push(StreamsAvailable{d});
  }
}

void StreamsState::on_streams_blocked(const StreamsBlockedFrame& f) {
  remote_limits_[index(dir_of_frame(f.bidi))].on_peer_blocked(f.limit);
}

Result<StreamId, StreamError> StreamsState::open(Dir dir) {
  LocalStreamLimit& limit = local_limits_[index(dir)];
  if (!limit.can_open() && config_.respect_peer_max_streams) {
    limit.on_blocked(config_.repeat_streams_blocked);
    open_refused_[index(dir)] = true;
    return config_.open_stream_when_blocked == OpenWhenBlocked::wait ? StreamError::blocked
                                                                     : StreamError::limit_reached;
  }
  const StreamId id = make_stream_id(limit.open(), config_.is_server, dir);
  create(id);
  return id;
}

Result<size_t, StreamError> StreamsState::write(StreamId id, ByteView data) {
  Stream* st = find(id);
  if (st == nullptr) return StreamError::unknown_stream;
  if (!st->has_send) return StreamError::wrong_direction;
  if (st->peer_stop_code) return StreamError::stopped;
  if (st->send.fin_requested() || st->reset_code) return StreamError::finished;
  st->send.write(data);
  if (st->send_state == SendState::ready) st->send_state = SendState::send;
  return data.size();
}

Status<StreamError> StreamsState::finish(StreamId id) {
  Stream* st = find(id);
  if (st == nullptr) return StreamError::unknown_stream;
  if (!st->has_send) return StreamError::wrong_direction;
  if (st->peer_stop_code) return StreamError::stopped;
  if (st->send.fin_requested() || st->reset_code) return StreamError::finished;
  st->send.finish();
  return {};
}

Result<StreamsState::ReadResult, StreamError> StreamsState::read(StreamId id, std::span<uint8_t> out) {
  Stream* st = find(id);
  if (st == nullptr) return StreamError::unknown_stream;
  if (!st->has_recv) return StreamError::wrong_direction;
  if (st->peer_reset_code) {
    st->recv_state = RecvState::reset_read;
    maybe_collect(id);
    return StreamError::reset_by_peer;
  }
  ReadResult r;
  r.bytes = st->recv.read(out);
  st->recv_window.on_consumed(r.bytes);
  conn_recv_.on_consumed(r.bytes);
  r.fin = st->recv.finished();
  if (r.fin) {
    st->recv_state = RecvState::data_read;
    maybe_collect(id);
  }
  return r;
}

Status<StreamError> StreamsState::reset(StreamId id, uint64_t error_code) {
  Stream* st = find(id);
  if (st == nullptr) return StreamError::unknown_stream;
  if (!st->has_send) return StreamError::wrong_direction;
  if (!st->reset_code && st->send_state != SendState::data_recvd) begin_reset(*st, error_code);
  return {};
}

Status<StreamError> StreamsState::stop_sending(StreamId id, uint64_t error_code) {
  Stream* st = find(id);
  if (st == nullptr) return StreamError::unknown_stream;
  if (!st->has_recv) return StreamError::wrong_direction;
  if (st->recv_terminal() || st->stop_code || st->recv.final_size()) return {};
  st->stop_code = error_code;
  st->stop_pending = true;
  return {};
}

}  // namespace conform::quic
