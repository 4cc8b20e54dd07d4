// The TLS 1.3 cipher suites QUIC v1 packets may be protected with (RFC 9001
// §5.3), and what each implies: the hash that derives keys from secrets, the
// AEAD and the header protection cipher.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace conform::dissect {

/// The TLS cipher suite code points (RFC 8446 §B.4). TLS_AES_128_CCM_SHA256
/// is not used by any QUIC stack we judge and is not supported.
enum class CipherSuite : std::uint16_t {
  aes_128_gcm_sha256 = 0x1301,
  aes_256_gcm_sha384 = 0x1302,
  chacha20_poly1305_sha256 = 0x1303,
};

enum class HashAlgorithm { sha256, sha384 };

/// "TLS_AES_128_GCM_SHA256" and so on.
std::string_view to_string(CipherSuite suite);
/// The suite with this code point, or nullopt for one QUIC cannot use here.
std::optional<CipherSuite> cipher_suite_from_code(std::uint16_t code);

HashAlgorithm hash_of(CipherSuite suite);
/// Bytes of a traffic secret and of the hash output: 32 or 48.
std::size_t hash_length(HashAlgorithm hash);
/// Bytes of the AEAD key, which is also the header protection key length:
/// 16 for AES-128, 32 for AES-256 and ChaCha20 (RFC 9001 §5.1, §5.4).
std::size_t key_length(CipherSuite suite);

}  // namespace conform::dissect
