// Retry packets, RFC 9000 §17.2.5, and their integrity tag, RFC 9001 §5.8:
// AES-128-GCM with a fixed key over the Retry pseudo-packet (the original
// DCID followed by the Retry packet without its tag).
#pragma once

#include "codec/buffer.hpp"
#include "codec/connection_id.hpp"

namespace conform::quic {

/// A complete Retry packet (tag included) answering a client whose first
/// Initial carried `odcid` as DCID and `client_scid` as SCID.
Bytes write_retry(const ConnectionId& client_scid, const ConnectionId& retry_scid, ByteView token,
                  const ConnectionId& odcid);

/// True when the last 16 bytes of `packet` are its integrity tag for `odcid`.
bool verify_retry(ByteView packet, const ConnectionId& odcid);

}  // namespace conform::quic
