// The raw-QUIC stream workload for conform-quic (tool/raw_app.hpp).
#include "tool/raw_app.hpp"

#include <array>

namespace conform::quic::tool {

RawApp::RawApp(Connection& conn, RawWork work, bool is_client)
    : conn_(conn), work_(work), is_client_(is_client), payload_(work.bytes, 'r') {}

void RawApp::on_event(Instant now, const Event& event) {
  // Streams wait for the handshake to be confirmed: quiche's server (in
  // @matrixai/quic 2.0.9) resets a stream whose data came with the
  // client's Finished, before its application took the connection.
  if (std::holds_alternative<HandshakeConfirmed>(event) || std::holds_alternative<StreamsAvailable>(event))
    open_streams();
  if (const auto* r = std::get_if<StreamReadable>(&event)) on_readable(r->id);
  maybe_close(now);
}

void RawApp::open_streams() {
  open(Dir::uni, opened_uni_, work_.open_uni);
  open(Dir::bidi, opened_bidi_, work_.open_bidi);
}

// Opens streams of `dir` until `wanted` are open or the peer's limit stops
// it (StreamsAvailable brings it back).
void RawApp::open(Dir dir, uint64_t& opened, uint64_t wanted) {
  while (opened < wanted) {
    const auto id = conn_.open_stream(dir);
    if (!id) return;
    (void)conn_.write(id.value(), payload_);
    (void)conn_.finish(id.value());
    ++opened;
  }
}

void RawApp::on_readable(StreamId id) {
  if (read_to_fin_.count(id)) return;  // a late event of a stream already done
  std::array<uint8_t, 16384> buf;
  for (;;) {
    const auto r = conn_.read(id, buf);
    if (!r) return;
    received_[id] += r.value().bytes;
    bytes_received_ += r.value().bytes;
    if (r.value().fin) break;
    if (r.value().bytes == 0) return;
  }
  const uint64_t bytes = received_[id];
  received_.erase(id);
  read_to_fin_.insert(id);
  const bool own = is_server_initiated(id) != is_client_;
  if (own) {
    ++answers_read_;
    return;
  }
  if (dir_of(id) == Dir::uni) {
    ++peer_uni_done_;
    return;
  }
  ++peer_bidi_done_;
  (void)conn_.write(id, Bytes(bytes, 'a'));  // the answer: as many bytes as it carried
  (void)conn_.finish(id);
}

void RawApp::maybe_close(Instant now) {
  if (!is_client_ || closing_ || !conn_.handshake_complete()) return;
  const bool own_done = opened_uni_ == work_.open_uni && opened_bidi_ == work_.open_bidi &&
                        answers_read_ == work_.open_bidi;
  // Every stream closed on both sides: what it sent, answers included, was
  // acknowledged, so the close loses nothing (StreamClosed brings us back).
  if (own_done && peer_uni_done_ >= work_.expect_uni && peer_bidi_done_ >= work_.expect_bidi &&
      conn_.open_streams() == 0) {
    closing_ = true;
    conn_.close(now, 0, "");
  }
}

}  // namespace conform::quic::tool
