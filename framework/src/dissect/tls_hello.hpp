// What the dissector needs from the TLS handshake in the Initial packets'
// CRYPTO frames (RFC 9001 §4): the ClientHello's random, which names the
// connection's lines in a key log, and the ServerHello's cipher suite,
// which says how the Handshake and 1-RTT secrets become keys (RFC 8446 §4.1);
// and the extensions of the ClientHello and EncryptedExtensions: QUIC's
// transport parameters, the application protocol the server chose.
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/key_log.hpp"

#include <optional>
#include <string>

namespace conform::dissect {

/// The random of a ClientHello at the start of `stream`, or nullopt when the
/// stream does not start with a ClientHello or is too short yet.
std::optional<ClientRandom> client_hello_random(std::span<const std::uint8_t> stream);

/// The cipher suite code of a ServerHello (or HelloRetryRequest) at the
/// start of `stream`, or nullopt when it is not there (yet).
std::optional<std::uint16_t> server_hello_cipher_suite(std::span<const std::uint8_t> stream);

/// The value of extension `extension` in a ClientHello (`type` 1) or
/// EncryptedExtensions (`type` 8) message body (RFC 8446 §4.2), or nullopt.
std::optional<std::span<const std::uint8_t>> tls_extension(std::uint8_t type, std::span<const std::uint8_t> body,
                                                           std::uint16_t extension);

/// The protocol an EncryptedExtensions body says the server selected
/// (application_layer_protocol_negotiation, RFC 7301 §3.1: exactly one
/// name), or nullopt when it holds none.
std::optional<std::string> selected_alpn(std::span<const std::uint8_t> encrypted_extensions);

}  // namespace conform::dissect
