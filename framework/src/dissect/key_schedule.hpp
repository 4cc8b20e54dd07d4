// QUIC's use of the TLS 1.3 key schedule: HKDF-Expand-Label (RFC 8446 §7.1)
// with QUIC's labels, the Initial secrets every observer can derive from the
// client's first Destination Connection ID (RFC 9001 §5.2), and the next
// generation of 1-RTT secrets after a key update (RFC 9001 §6.1).
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/cipher_suite.hpp"

#include <string_view>

namespace conform::dissect {

/// HKDF-Extract(salt, ikm) (RFC 5869 §2.2).
Bytes hkdf_extract(HashAlgorithm hash, std::span<const std::uint8_t> salt,
                   std::span<const std::uint8_t> ikm);

/// HKDF-Expand-Label(secret, label, "", length): `label` without the
/// "tls13 " prefix, which this adds (RFC 8446 §7.1). QUIC always passes an
/// empty context (RFC 9001 §5.1).
Bytes hkdf_expand_label(HashAlgorithm hash, std::span<const std::uint8_t> secret,
                        std::string_view label, std::size_t length);

/// The QUIC v1 Initial salt (RFC 9001 §5.2).
inline constexpr std::uint8_t kInitialSaltV1[] = {
    0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};

/// The two 32-byte Initial secrets; both sides protect Initial packets with
/// AES-128-GCM keys derived from them (RFC 9001 §5.2).
struct InitialSecrets {
  Bytes client;
  Bytes server;
};

/// Initial secrets from the Destination Connection ID of the client's first
/// Initial packet (or of its Initial after a Retry).
InitialSecrets initial_secrets(std::span<const std::uint8_t> client_dcid);

/// The secret of the next key phase: HKDF-Expand-Label(secret, "quic ku", "",
/// Hash.length) (RFC 9001 §6.1).
Bytes next_traffic_secret(HashAlgorithm hash, std::span<const std::uint8_t> secret);

}  // namespace conform::dissect
