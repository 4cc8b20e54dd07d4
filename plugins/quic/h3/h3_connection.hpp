// A minimal HTTP/3 endpoint (RFC 9114) over one QUIC Connection: the control
// stream with SETTINGS (§6.2.1, §7.2.4), QPACK with the static table only
// (RFC 9204, capacity 0), GET requests and responses made of HEADERS and
// DATA frames. Unknown frame and unidirectional stream types are skipped
// (§7.2.8, §6.2.3); the peer's QPACK streams are read and ignored. No
// server push, no trailers sent, no CONNECT. Sans-IO like the Connection:
// feed it every event the connection emits.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connection/connection.hpp"
#include "h3/frame.hpp"
#include "h3/qpack.hpp"

namespace conform::quic::h3 {

struct Response {
  int status = 0;  ///< 0 when the exchange failed (reset, malformed)
  std::vector<Field> fields;
  Bytes body;
};

/// A finished client exchange.
struct Exchange {
  std::string path;
  Response response;
  std::string error;  ///< why it failed; empty on success
};

class H3Connection {
 public:
  /// Server side: turns a request's fields into the response to send.
  using Handler = std::function<Response(const std::vector<Field>& request)>;

  /// `conn` must outlive this object. A server needs `handler`.
  H3Connection(Connection& conn, bool is_server, Handler handler = {});

  /// Feeds one event of the connection; call for each poll_event().
  void on_event(Instant now, const Event& event);

  /// Client: queues GET `path`; it goes out once the handshake is done and
  /// a stream can be opened (waiting for MAX_STREAMS when at the limit).
  void get(std::string authority, std::string path);
  /// Client: exchanges finished since the last call, in completion order.
  std::vector<Exchange> take_finished() { return std::exchange(finished_, {}); }
  /// Client: requests queued or awaiting their response.
  size_t outstanding() const { return queued_.size() + in_flight_.size(); }
  /// Server: requests answered so far.
  uint64_t requests_served() const { return served_; }

 private:
  struct PeerUniStream {
    std::optional<uint64_t> type;
    Bytes pending;  ///< bytes before the type varint is complete
    FrameReader frames;
    bool settings_seen = false;
  };
  struct RequestStream {
    FrameReader frames;
    std::vector<Field> fields;
    bool headers_seen = false;
    std::string path;  ///< client: what was asked
    Response response;
  };

  void on_handshake_completed(Instant now);
  void open_requests();
  void on_readable(Instant now, StreamId id);
  void read_uni(Instant now, StreamId id, ByteView bytes, bool fin);
  void on_control_frame(Instant now, PeerUniStream& s, const FramePiece& f);
  void read_request_stream(Instant now, StreamId id, ByteView bytes, bool fin);
  void serve(StreamId id, RequestStream& rs);
  void finish_exchange(StreamId id, std::string error);
  void connection_error(Instant now, uint64_t code, std::string reason);
  bool violates(Violation v) const;

  Connection& conn_;
  bool is_server_;
  Handler handler_;
  bool ready_ = false;
  std::deque<std::pair<std::string, std::string>> queued_;  ///< authority, path
  std::map<StreamId, RequestStream> in_flight_;
  std::map<StreamId, PeerUniStream> peer_uni_;
  std::optional<StreamId> peer_control_;
  std::vector<Exchange> finished_;
  uint64_t served_ = 0;
};

}  // namespace conform::quic::h3
