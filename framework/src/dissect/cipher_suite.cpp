// Properties of the TLS 1.3 cipher suites QUIC v1 uses.
#include "dissect/cipher_suite.hpp"

namespace conform::dissect {

std::string_view to_string(CipherSuite suite) {
  switch (suite) {
    case CipherSuite::aes_128_gcm_sha256: return "TLS_AES_128_GCM_SHA256";
    case CipherSuite::aes_256_gcm_sha384: return "TLS_AES_256_GCM_SHA384";
    case CipherSuite::chacha20_poly1305_sha256: return "TLS_CHACHA20_POLY1305_SHA256";
  }
  return "?";
}

std::optional<CipherSuite> cipher_suite_from_code(std::uint16_t code) {
  switch (code) {
    case 0x1301: return CipherSuite::aes_128_gcm_sha256;
    case 0x1302: return CipherSuite::aes_256_gcm_sha384;
    case 0x1303: return CipherSuite::chacha20_poly1305_sha256;
    default: return std::nullopt;
  }
}

HashAlgorithm hash_of(CipherSuite suite) {
  return suite == CipherSuite::aes_256_gcm_sha384 ? HashAlgorithm::sha384 : HashAlgorithm::sha256;
}

std::size_t hash_length(HashAlgorithm hash) { return hash == HashAlgorithm::sha384 ? 48 : 32; }

std::size_t key_length(CipherSuite suite) {
  return suite == CipherSuite::aes_128_gcm_sha256 ? 16 : 32;
}

}  // namespace conform::dissect
