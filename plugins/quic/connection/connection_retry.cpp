// Retry, RFC 9000 §8.1.2 and §17.2.5: a server that validates addresses
// answers a client's first Initial with a token, and starts the connection
// only when the client comes back with it; the client re-derives its
// Initial keys from the server's new connection ID (RFC 9001 §5.2).
#include "connection/connection.hpp"

#include "tls/retry.hpp"

namespace conform::quic {

bool Connection::server_retry_gate(const PacketHeader& h) {
  if (h.token.empty()) {
    if (!retry_scid_) {
      // The server's own CID doubles as the Retry SCID, so the client's new
      // DCID is the one this connection already owns.
      retry_odcid_ = h.dcid;
      retry_scid_ = local_cid_;
      const std::string_view prefix = "conform-retry:";
      retry_token_.assign(prefix.begin(), prefix.end());
      retry_token_.insert(retry_token_.end(), h.dcid.view().begin(), h.dcid.view().end());
      retry_packet_ = write_retry(h.scid, local_cid_, retry_token_, h.dcid);
    }
    return false;
  }
  const bool valid = retry_scid_ && h.dcid == *retry_scid_ &&
                     std::equal(h.token.begin(), h.token.end(), retry_token_.begin(), retry_token_.end());
  if (!valid) ++stats_.packets_dropped;  // §8.1.3: a bad token is dropped
  return valid;
}

void Connection::handle_retry(const PacketHeader& h, ByteView packet) {
  // §17.2.5.2: at most one Retry, only before any other server packet, with
  // a token and a valid integrity tag.
  if (config_.is_server || retry_received_ || peer_cid_confirmed_ || h.token.empty() ||
      !verify_retry(packet, original_dcid_)) {
    ++stats_.packets_dropped;
    return;
  }
  retry_received_ = true;
  retry_scid_ = h.scid;
  retry_token_.assign(h.token.begin(), h.token.end());
  peer_cid_ = h.scid;
  install_initial_keys(h.scid);
  // Everything sent in Initial packets so far is void: send it again.
  recovery_.discard(Space::initial);
  SendBuffer& crypto = space(Space::initial).crypto_send;
  crypto.on_lost(0, static_cast<size_t>(crypto.written()), false);
}

}  // namespace conform::quic
