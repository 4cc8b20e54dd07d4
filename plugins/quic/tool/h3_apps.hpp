// The HTTP/3 applications conform-quic runs on each connection: a server
// answering GET from a document root, and a client fetching a list of paths
// on one connection and closing it when all are done.
#pragma once

#include <string>
#include <vector>

#include "h3/h3_connection.hpp"
#include "udp/udp_driver.hpp"

namespace conform::quic::tool {

/// Serves files under `htdocs` (RFC 9114 §4.3.1 pseudo-headers): "/" is
/// index.html; a path with ".." or a missing file is 404; anything but GET
/// or HEAD is 405.
h3::Response serve_file(const std::string& htdocs, const std::vector<h3::Field>& request);

/// Serves `htdocs`. With `reserved_uni` > 0 it is a scripted peer: once the
/// handshake completes it opens that many unidirectional streams of
/// reserved types (0x1f * N + 0x21, RFC 9114 §6.2.3: the client must read
/// and discard them), each ending at once with FIN, waiting for the
/// client's MAX_STREAMS_UNI whenever it is at the limit; it reads no
/// request before the last is open, so a client that never raises the
/// limit gets no response, in every run alike (the broadcast incident's
/// cliff, toward an HTTP/3 client).
class ServerApp : public udp::ConnectionApp {
 public:
  ServerApp(Connection& conn, std::string htdocs, uint64_t reserved_uni = 0);
  void on_event(Instant now, const Event& event) override;

 private:
  void open_reserved();
  Connection& conn_;
  std::string htdocs_;
  h3::H3Connection h3_;
  uint64_t reserved_total_ = 0;
  uint64_t reserved_opened_ = 0;
  std::vector<Event> held_;  ///< request-stream events until the reserved streams are open
};

/// One response as the client reports it.
struct Fetched {
  std::string path;
  int status = 0;
  size_t bytes = 0;
  std::string error;
};

class ClientApp : public udp::ConnectionApp {
 public:
  /// Requests `paths` in order on `conn`; bodies go to `output_dir` (named
  /// after the path's last component, "index.html" for "/") unless empty.
  ClientApp(Connection& conn, std::string authority, std::vector<std::string> paths,
            std::string output_dir);
  void on_event(Instant now, const Event& event) override;
  const std::vector<Fetched>& fetched() const { return fetched_; }

 private:
  void save(const h3::Exchange& x);
  Connection& conn_;
  h3::H3Connection h3_;
  std::string output_dir_;
  size_t requested_ = 0;
  std::vector<Fetched> fetched_;
  bool closing_ = false;
};

}  // namespace conform::quic::tool
