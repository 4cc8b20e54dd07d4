// Streams and their limits, the sending side: the credit and limit frames
// we owe the peer (§4.1, §4.2, §4.6), stream data round-robin, the blocked
// frames, and what an acknowledgement or a loss of them changes (§13.3).
#include "connection/streams_state.hpp"

namespace conform::quic {

void StreamsState::on_acked(const SentFrame& sent) {
  if (auto* s = std::get_if<SentStream>(&sent)) {
    Stream* st = find(s->stream_id);
    if (st == nullptr) return;
    st->send.on_acked(s->offset, s->len, s->fin);
    if (st->send.all_acked() && st->send_state == SendState::data_sent) {
      st->send_state = SendState::data_recvd;
      maybe_collect(s->stream_id);
    }
  } else if (auto* ctl = std::get_if<SentControl>(&sent)) {
    if (auto* r = std::get_if<ResetStreamFrame>(&ctl->frame)) {
      Stream* st = find(r->stream_id);
      if (st == nullptr) return;
      // The complete_after_lost_reset fault never counts a lost reset done.
      if (st->reset_lost && !config_.complete_after_lost_reset) return;
      st->send_state = SendState::reset_recvd;
      maybe_collect(r->stream_id);
    }
  }
}

void StreamsState::on_lost(const SentFrame& sent) {
  if (auto* s = std::get_if<SentStream>(&sent)) {
    if (Stream* st = find(s->stream_id); st && !st->reset_code) st->send.on_lost(s->offset, s->len, s->fin);
    return;
  }
  const auto* ctl = std::get_if<SentControl>(&sent);
  if (ctl == nullptr) return;
  const Frame& f = ctl->frame;
  if (config_.resend_lost_credit) {
    if (std::holds_alternative<MaxDataFrame>(f)) max_data_pending_ = true;
    if (auto* m = std::get_if<MaxStreamsFrame>(&f)) max_streams_pending_[index(m->bidi ? Dir::bidi : Dir::uni)] = true;
  }
  if (auto* m = std::get_if<MaxStreamDataFrame>(&f))
    if (Stream* st = find(m->stream_id)) st->max_stream_data_pending = true;
  if (auto* r = std::get_if<ResetStreamFrame>(&f))
    if (Stream* st = find(r->stream_id)) {
      st->reset_lost = true;
      if (config_.resend_lost_reset) st->reset_pending = true;
    }
  if (auto* r = std::get_if<StopSendingFrame>(&f))
    if (Stream* st = find(r->stream_id)) st->stop_pending = true;
  if (auto* b = std::get_if<StreamsBlockedFrame>(&f))
    local_limits_[index(b->bidi ? Dir::bidi : Dir::uni)].on_blocked_lost(b->limit);
  if (auto* b = std::get_if<DataBlockedFrame>(&f)) conn_send_.on_blocked_lost(b->limit);
  if (auto* b = std::get_if<StreamDataBlockedFrame>(&f))
    if (Stream* st = find(b->stream_id)) st->send_credit.on_blocked_lost(b->limit);
}

bool StreamsState::control(FrameSink& out, const Frame& f) {
  if (encoded_size(f) > out.room()) return false;
  out.emit(f, SentControl{f});
  return true;
}

// A raise of `window` that falls due now: the data_credit_on_blocked
// script holds each until the peer said it is blocked at the limit.
std::optional<uint64_t> StreamsState::data_raise_due(const RecvWindow& window) const {
  if (config_.data_credit_on_blocked && !window.asked()) return std::nullopt;
  return window.update_due();
}

bool StreamsState::credit_due() const {
  if (config_.emit_max_data && (max_data_pending_ || data_raise_due(conn_recv_))) return true;
  for (Dir d : {Dir::bidi, Dir::uni})
    if (config_.emit_max_streams &&
        (max_streams_pending_[index(d)] ||
         ((!config_.streams_credit_on_blocked || remote_limits_[index(d)].asked()) && remote_limits_[index(d)].update_due())))
      return true;
  for (const auto& [id, st] : streams_)
    if (st.has_recv && !st.recv.final_size() && !st.peer_reset_code &&
        (st.max_stream_data_pending || data_raise_due(st.recv_window)))
      return true;
  return false;
}

void StreamsState::write_frames(FrameSink& out, Allowed allowed) {
  // Credit first (§4.2): a peer waiting for it is the costliest stall.
  if (allowed.credit) write_max_data(out);
  write_stream_limits(out, allowed.stream_limits);
  const bool any_unsent = write_stream_controls(out, allowed.credit);
  if (allowed.stream_data) write_stream_data(out);
  // §4.1: say so when flow control is what stops us.
  if (config_.emit_data_blocked && conn_send_.blocked_report_due(any_unsent, config_.blocked_frames_early) &&
      control(out, DataBlockedFrame{conn_send_.max()}))
    conn_send_.on_blocked_reported();
}

void StreamsState::write_max_data(FrameSink& out) {
  const auto due = data_raise_due(conn_recv_);
  if (!config_.emit_max_data || (!due && !max_data_pending_)) return;
  const uint64_t value = due.value_or(conn_recv_.max());
  if (control(out, MaxDataFrame{value})) {
    conn_recv_.on_update_sent(value);
    max_data_pending_ = false;
  }
}

void StreamsState::write_stream_limits(FrameSink& out, bool raise_ok) {
  for (Dir d : {Dir::bidi, Dir::uni}) {
    const size_t i = index(d);
    if (!config_.emit_max_streams) continue;  // the investigation's bug, on purpose
    if (!raise_ok) continue;
    // The streams_credit_on_blocked script holds a new raise until asked;
    // a lost one goes out again all the same (§13.3).
    std::optional<uint64_t> due;
    if (!config_.streams_credit_on_blocked || remote_limits_[i].asked()) due = remote_limits_[i].update_due();
    if (!due && !max_streams_pending_[i]) continue;
    const uint64_t value = due.value_or(remote_limits_[i].max());
    // The max_streams_beyond_2_60 fault puts a count §19.11 forbids on the wire.
    const uint64_t wire = config_.max_streams_beyond_2_60 ? (uint64_t{1} << 60) + 1 : value;
    if (control(out, MaxStreamsFrame{d == Dir::bidi, wire})) {
      remote_limits_[i].on_update_sent(value);
      max_streams_pending_[i] = false;
    }
  }
  for (Dir d : {Dir::bidi, Dir::uni}) {
    LocalStreamLimit& lim = local_limits_[index(d)];
    const auto due = lim.blocked_due();
    if (!due) continue;
    if (!config_.emit_streams_blocked || control(out, StreamsBlockedFrame{d == Dir::bidi, *due}))
      lim.on_blocked_sent();
  }
}

bool StreamsState::write_stream_controls(FrameSink& out, bool credit_ok) {
  bool any_unsent = false;
  for (auto& [id, st] : streams_) {
    if (st.reset_pending && control(out, ResetStreamFrame{id, *st.reset_code, st.send.highest_sent()}))
      st.reset_pending = false;
    if (st.stop_pending && control(out, StopSendingFrame{id, *st.stop_code})) st.stop_pending = false;
    if (credit_ok && st.has_recv && !st.recv.final_size() && !st.peer_reset_code) {
      const auto due = data_raise_due(st.recv_window);
      if (due || st.max_stream_data_pending) {
        const uint64_t value = due.value_or(st.recv_window.max());
        if (control(out, MaxStreamDataFrame{id, value})) {
          st.recv_window.on_update_sent(value);
          st.max_stream_data_pending = false;
        }
      }
    }
    any_unsent = any_unsent || (st.has_send && !st.reset_code && st.send.written() > st.send.highest_sent());
  }
  return any_unsent;
}

void StreamsState::write_stream_data(FrameSink& out) {
  if (streams_.empty()) return;
  // Round-robin: start after the stream served last, so one busy stream
  // cannot starve the others.
  auto start = streams_.upper_bound(next_stream_cursor_);
  if (start == streams_.end()) start = streams_.begin();
  auto it = start;
  do {
    write_stream_data_of(out, it->first, it->second);
    if (++it == streams_.end()) it = streams_.begin();
  } while (it != start);
}

void StreamsState::write_stream_data_of(FrameSink& out, StreamId id, Stream& st) {
  const uint64_t reset_at = config_.reset_send_after_bytes;
  while (st.has_send && !st.reset_code && out.room() > kMaxStreamOverhead) {
    uint64_t limit = config_.respect_peer_flow_control
                         ? std::min(st.send_credit.max(), st.send.highest_sent() + conn_send_.available())
                         : kMaxVarint;
    if (reset_at) limit = std::min(limit, reset_at);
    const auto chunk = st.send.peek(out.room() - kMaxStreamOverhead, limit);
    if (!chunk) break;
    out.emit(StreamFrame{id, chunk->offset, chunk->data, chunk->fin},
             SentStream{id, chunk->offset, chunk->data.size(), chunk->fin});
    const uint64_t before = st.send.highest_sent();
    st.send.on_sent(chunk->offset, chunk->data.size(), chunk->fin);
    const uint64_t grown = st.send.highest_sent() - before;
    conn_send_.consume(grown);
    st.send_credit.consume(grown);
    if (chunk->fin) st.send_state = SendState::data_sent;
    next_stream_cursor_ = id;
  }
  // The reset_send_after_bytes script gives up on what is left to send.
  if (reset_at && st.has_send && !st.reset_code && st.send.highest_sent() >= reset_at &&
      st.send.written() > reset_at)
    (void)reset(id, kStreamCancelled);
  const bool waiting = st.has_send && !st.reset_code && st.send.written() > st.send.highest_sent();
  if (config_.emit_data_blocked && st.send_credit.blocked_report_due(waiting, config_.blocked_frames_early)) {
    const StreamDataBlockedFrame f{id, st.send_credit.max()};
    if (encoded_size(f) <= out.room()) {
      out.emit(f, SentControl{f});
      st.send_credit.on_blocked_reported();
    }
  }
}

}  // namespace conform::quic
