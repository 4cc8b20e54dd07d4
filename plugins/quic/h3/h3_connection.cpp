// HTTP/3 request and control streams over a Connection, RFC 9114 §4, §6.
#include "h3/h3_connection.hpp"

#include <cstdlib>

namespace conform::quic::h3 {

namespace {

bool is_request_stream(StreamId id) { return dir_of(id) == Dir::bidi; }

}  // namespace

H3Connection::H3Connection(Connection& conn, bool is_server, Handler handler)
    : conn_(conn), is_server_(is_server), handler_(std::move(handler)) {}

void H3Connection::on_event(Instant now, const Event& event) {
  if (std::holds_alternative<HandshakeCompleted>(event)) {
    on_handshake_completed(now);
  } else if (auto* r = std::get_if<StreamReadable>(&event)) {
    on_readable(now, r->id);
  } else if (std::holds_alternative<StreamsAvailable>(event)) {
    open_requests();
  } else if (auto* r = std::get_if<StreamReset>(&event)) {
    if (!is_server_ && in_flight_.count(r->id)) finish_exchange(r->id, "stream reset by the server");
    if (peer_control_ && *peer_control_ == r->id)
      connection_error(now, error::closed_critical_stream, "control stream reset");  // §6.2.1
  } else if (std::holds_alternative<ConnectionClosed>(event)) {
    while (!in_flight_.empty() && !is_server_) finish_exchange(in_flight_.begin()->first, "connection closed");
    for (auto& [authority, path] : queued_) finished_.push_back({path, {}, "connection closed"});
    queued_.clear();
  }
}

void H3Connection::on_handshake_completed(Instant now) {
  if (conn_.alpn() != "h3") {
    connection_error(now, error::general_protocol_error, "ALPN is not h3");
    return;
  }
  // §6.2.1: the control stream opens with SETTINGS. We keep no dynamic
  // table, so QPACK_MAX_TABLE_CAPACITY and QPACK_BLOCKED_STREAMS are 0.
  auto control = conn_.open_stream(Dir::uni);
  if (!control) {
    connection_error(now, error::stream_creation_error, "no unidirectional stream for control");
    return;
  }
  Bytes settings;
  Writer w(settings);
  w.varint(setting::qpack_max_table_capacity);
  w.varint(0);
  w.varint(setting::qpack_blocked_streams);
  w.varint(0);
  Bytes out;
  Writer(out).varint(stream_type::control);
  // The violation script (connection/violation.hpp): GOAWAY before
  // SETTINGS, SETTINGS twice, DATA after it.
  if (violates(Violation::h3_control_stream_without_settings_first)) write_frame(out, frame_type::goaway, Bytes{0});
  write_frame(out, frame_type::settings, settings);
  if (violates(Violation::h3_second_settings)) write_frame(out, frame_type::settings, settings);
  if (violates(Violation::h3_data_on_control_stream)) write_frame(out, frame_type::data, Bytes{'x'});
  (void)conn_.write(control.value(), out);
  ready_ = true;
  open_requests();
}

void H3Connection::get(std::string authority, std::string path) {
  queued_.emplace_back(std::move(authority), std::move(path));
  open_requests();
}

void H3Connection::open_requests() {
  if (!ready_ || is_server_) return;
  while (!queued_.empty()) {
    auto id = conn_.open_stream(Dir::bidi);
    if (!id) return;  // blocked: StreamsAvailable brings us back
    auto [authority, path] = std::move(queued_.front());
    queued_.pop_front();
    const Bytes section = qpack_encode({{":method", "GET"},
                                        {":scheme", "https"},
                                        {":authority", authority},
                                        {":path", path},
                                        {"user-agent", "conform-quic"}});
    Bytes request;
    if (violates(Violation::h3_data_before_headers)) write_frame(request, frame_type::data, Bytes{'x'});
    write_frame(request, frame_type::headers, section);
    (void)conn_.write(id.value(), request);
    (void)conn_.finish(id.value());
    in_flight_[id.value()].path = std::move(path);
  }
}

void H3Connection::on_readable(Instant now, StreamId id) {
  uint8_t buf[16384];
  while (true) {
    auto r = conn_.read(id, buf);
    if (!r) return;  // reset or gone: StreamReset says why
    const ByteView bytes(buf, r.value().bytes);
    if (is_request_stream(id))
      read_request_stream(now, id, bytes, r.value().fin);
    else
      read_uni(now, id, bytes, r.value().fin);
    if (r.value().fin || r.value().bytes == 0) return;
  }
}

void H3Connection::read_uni(Instant now, StreamId id, ByteView bytes, bool fin) {
  PeerUniStream& s = peer_uni_[id];
  if (!s.type) {
    s.pending.insert(s.pending.end(), bytes.begin(), bytes.end());
    Reader r(s.pending);
    uint64_t type;
    if (!r.varint(type)) return;
    s.type = type;
    bytes = r.rest();
    if (type == stream_type::control) {
      if (peer_control_) {
        connection_error(now, error::stream_creation_error, "second control stream");  // §6.2.1
        return;
      }
      peer_control_ = id;
    } else if (type != stream_type::qpack_encoder && type != stream_type::qpack_decoder) {
      // §6.2.3: an unknown type (or push, which we never allow) is not read.
      (void)conn_.stop_sending(id, error::stream_creation_error);
    }
  }
  if (*s.type == stream_type::control) {
    s.frames.feed(bytes);
    for (FramePiece f = s.frames.next(); f.kind != FramePiece::need_more; f = s.frames.next()) {
      on_control_frame(now, s, f);
      if (conn_.state() != ConnectionState::established) return;
    }
    if (fin) connection_error(now, error::closed_critical_stream, "control stream closed");
  }
  // QPACK encoder and decoder streams: with a table capacity of 0 there is
  // nothing in them we act on, so their bytes are read and dropped.
  s.pending.clear();
}

void H3Connection::on_control_frame(Instant now, PeerUniStream& s, const FramePiece& f) {
  if (f.kind == FramePiece::error) {
    connection_error(now, error::excessive_load, "control frame too large");
    return;
  }
  const bool is_settings = f.kind == FramePiece::frame && f.type == frame_type::settings;
  if (!s.settings_seen && !is_settings) {
    connection_error(now, error::missing_settings, "control stream must start with SETTINGS");  // §6.2.1
    return;
  }
  if (is_settings && s.settings_seen) {
    connection_error(now, error::frame_unexpected, "second SETTINGS");  // §7.2.4
    return;
  }
  if (f.kind == FramePiece::data ||
      (f.kind == FramePiece::frame && f.type == frame_type::headers)) {
    connection_error(now, error::frame_unexpected, "DATA or HEADERS on the control stream");  // §7.2.1
    return;
  }
  if (is_settings) {
    Reader r(f.payload);
    uint64_t id, value;
    while (!r.empty())
      if (!r.varint(id) || !r.varint(value)) {
        connection_error(now, error::frame_error, "truncated SETTINGS");
        return;
      }
    s.settings_seen = true;
  }
  // GOAWAY, MAX_PUSH_ID, CANCEL_PUSH and unknown types: nothing to do for
  // an endpoint that neither pushes nor migrates requests.
}

void H3Connection::read_request_stream(Instant now, StreamId id, ByteView bytes, bool fin) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) {
    if (!is_server_) return;  // a stream we gave up on
    it = in_flight_.emplace(id, RequestStream{}).first;
  }
  RequestStream& rs = it->second;
  rs.frames.feed(bytes);
  for (FramePiece f = rs.frames.next(); f.kind != FramePiece::need_more; f = rs.frames.next()) {
    if (f.kind == FramePiece::error) {
      connection_error(now, error::excessive_load, "frame too large");
      return;
    }
    if (f.kind == FramePiece::data) {
      if (!rs.headers_seen) {
        connection_error(now, error::frame_unexpected, "DATA before HEADERS");  // §4.1
        return;
      }
      if (!is_server_) rs.response.body.insert(rs.response.body.end(), f.payload.begin(), f.payload.end());
      continue;
    }
    if (f.type == frame_type::settings || f.type == frame_type::goaway ||
        f.type == frame_type::max_push_id || f.type == frame_type::cancel_push ||
        (is_server_ && f.type == frame_type::push_promise)) {
      connection_error(now, error::frame_unexpected, "control frame on a request stream");  // §7.2
      return;
    }
    if (f.type != frame_type::headers || rs.headers_seen) continue;  // unknown, trailers, push
    auto fields = qpack_decode(f.payload);
    if (!fields) {
      connection_error(now, error::qpack_decompression_failed, "bad field section");
      return;
    }
    rs.headers_seen = true;
    rs.fields = std::move(*fields);
  }
  if (!fin) return;
  if (!rs.frames.at_boundary() || !rs.headers_seen) {
    if (is_server_) {
      (void)conn_.reset(id, error::message_error);  // §4.1.2: a malformed request
      in_flight_.erase(id);
    } else {
      finish_exchange(id, "malformed response");
    }
    return;
  }
  if (is_server_) {
    serve(id, rs);
    in_flight_.erase(id);
    return;
  }
  for (const Field& f : rs.fields)
    if (f.name == ":status") rs.response.status = std::atoi(f.value.c_str());
  rs.response.fields = std::move(rs.fields);
  finish_exchange(id, rs.response.status ? "" : "response without :status");
}

void H3Connection::serve(StreamId id, RequestStream& rs) {
  Response resp = handler_(rs.fields);
  std::vector<Field> fields = {{":status", std::to_string(resp.status)},
                               {"content-length", std::to_string(resp.body.size())}};
  fields.insert(fields.end(), resp.fields.begin(), resp.fields.end());
  Bytes out;
  if (violates(Violation::h3_data_before_headers)) write_frame(out, frame_type::data, Bytes{'x'});
  write_frame(out, frame_type::headers, qpack_encode(fields));
  if (!resp.body.empty()) write_frame(out, frame_type::data, resp.body);
  (void)conn_.write(id, out);
  (void)conn_.finish(id);
  ++served_;
}

void H3Connection::finish_exchange(StreamId id, std::string error) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  Response resp = std::move(it->second.response);
  if (!error.empty()) resp.status = 0;
  finished_.push_back({std::move(it->second.path), std::move(resp), std::move(error)});
  in_flight_.erase(it);
}

void H3Connection::connection_error(Instant now, uint64_t code, std::string reason) {
  // The violations_answered fault: the error is let go and the connection
  // goes on where it can.
  if (conn_.config().violations_answered == ViolationAnswer::ignored) return;
  conn_.close(now, code, std::move(reason));
}

bool H3Connection::violates(Violation v) const { return conn_.config().violation == v; }

}  // namespace conform::quic::h3
