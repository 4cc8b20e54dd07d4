// Where a server validated its client's address (RFC 9000 §8.1): until
// then it may send at most three times the bytes it received.
#pragma once

#include "dissect/timeline.hpp"

#include <optional>

namespace conform::quic_checks {

/// The client datagram that validated the client's address: the first with
/// a Handshake packet the capture decrypts (§8.1: the server processed
/// it), or an Initial carrying the token of a Retry the server sent before
/// (§8.1.2); nullopt when none did.
std::optional<std::size_t> address_validated_at(const dissect::Connection& c);

}  // namespace conform::quic_checks
