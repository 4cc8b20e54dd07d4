// What the dissector needs from the TLS handshake in the Initial packets'
// CRYPTO frames (RFC 9001 §4): the ClientHello's random, which names the
// connection's lines in a key log, and the ServerHello's cipher suite,
// which says how the Handshake and 1-RTT secrets become keys (RFC 8446 §4.1).
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/key_log.hpp"

#include <optional>

namespace conform::dissect {

/// The random of a ClientHello at the start of `stream`, or nullopt when the
/// stream does not start with a ClientHello or is too short yet.
std::optional<ClientRandom> client_hello_random(std::span<const std::uint8_t> stream);

/// The cipher suite code of a ServerHello (or HelloRetryRequest) at the
/// start of `stream`, or nullopt when it is not there (yet).
std::optional<std::uint16_t> server_hello_cipher_suite(std::span<const std::uint8_t> stream);

}  // namespace conform::dissect
