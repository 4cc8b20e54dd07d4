// The QUIC key schedule, RFC 9001 §5: Initial secrets from the client's first
// Destination Connection ID (§5.2), HKDF-Expand-Label (RFC 8446 §7.1) for the
// packet key, IV and header-protection key (§5.1), and the key-update step
// (§6.1).
#pragma once

#include <cstdint>
#include <string_view>

#include "codec/buffer.hpp"

namespace conform::quic {

/// TLS 1.3 cipher suites QUIC uses, by their IANA number.
enum class CipherSuite : uint16_t { aes128gcm = 0x1301, aes256gcm = 0x1302, chacha20 = 0x1303 };

/// Bytes of a traffic secret for this suite (the hash length: 32 or 48).
size_t secret_length(CipherSuite suite);
size_t key_length(CipherSuite suite);

/// HKDF-Expand-Label(secret, "tls13 " + label, "", length) with the suite's
/// hash (RFC 8446 §7.1); an empty result if BoringSSL refuses.
Bytes hkdf_expand_label(CipherSuite suite, ByteView secret, std::string_view label, size_t length);

/// The Initial secrets of QUIC v1 (RFC 9001 §5.2): both derived from
/// HKDF-Extract(initial_salt, client_dcid), labelled "client in"/"server in".
struct InitialSecrets {
  Bytes client;
  Bytes server;
};
InitialSecrets derive_initial_secrets(ByteView client_dcid);

/// The secret of the next key phase: HKDF-Expand-Label(secret, "quic ku")
/// (RFC 9001 §6.1).
Bytes next_generation_secret(CipherSuite suite, ByteView secret);

}  // namespace conform::quic
