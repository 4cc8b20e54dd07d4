// The raw-QUIC stream workload (docs/interop.md) for conform-quic, so the
// in-house QUIC pairs with the stacks that have no HTTP/3 side (quiche,
// quinn): ALPN "quic"; each endpoint opens its streams once the handshake
// is confirmed, each carrying `bytes` bytes then FIN, waiting at the peer's
// stream limit for MAX_STREAMS; every peer-opened stream is read to FIN, a
// bidirectional one answered with as many bytes as it carried; the client
// closes with application error 0 once its own streams are done (their
// answers read), the streams it expects from the server arrived, and every
// stream is closed on both sides (RFC 9000 §3: what it sent acknowledged).
#pragma once

#include <cstdint>
#include <map>
#include <set>

#include "udp/udp_driver.hpp"

namespace conform::quic::tool {

/// What one endpoint does in the raw workload (the peer programs' options
/// of the same names).
struct RawWork {
  uint64_t open_uni = 0, open_bidi = 0;
  uint64_t bytes = 100;  ///< on each stream it opens
  /// Client: peer-opened streams read to FIN before it closes.
  uint64_t expect_uni = 0, expect_bidi = 0;
};

class RawApp : public udp::ConnectionApp {
 public:
  RawApp(Connection& conn, RawWork work, bool is_client);
  void on_event(Instant now, const Event& event) override;
  /// Client: its work was done and it closed with application error 0.
  bool done() const { return closing_; }
  /// Stream bytes read, on every stream.
  uint64_t bytes_received() const { return bytes_received_; }

 private:
  void open_streams();
  void open(Dir dir, uint64_t& opened, uint64_t wanted);
  void on_readable(StreamId id);
  void maybe_close(Instant now);

  Connection& conn_;
  RawWork work_;
  bool is_client_;
  uint64_t opened_uni_ = 0, opened_bidi_ = 0;
  uint64_t answers_read_ = 0;                 ///< own bidi streams read to FIN
  uint64_t peer_uni_done_ = 0, peer_bidi_done_ = 0;
  std::map<StreamId, uint64_t> received_;     ///< bytes read on each open stream
  std::set<StreamId> read_to_fin_;            ///< a stream's FIN counts once
  uint64_t bytes_received_ = 0;
  Bytes payload_;                             ///< what each stream it opens carries
  bool closing_ = false;
};

}  // namespace conform::quic::tool
