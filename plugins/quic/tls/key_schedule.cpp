// HKDF-based key derivation for QUIC (RFC 9001 §5.1, §5.2, §6.1) on
// BoringSSL's HKDF.
#include "tls/key_schedule.hpp"

#include <openssl/digest.h>
#include <openssl/hkdf.h>

#include <array>
#include <string>

namespace conform::quic {

namespace {

const EVP_MD* digest_of(CipherSuite suite) {
  return suite == CipherSuite::aes256gcm ? EVP_sha384() : EVP_sha256();
}

// RFC 9001 §5.2, QUIC version 1.
constexpr std::array<uint8_t, 20> kInitialSaltV1 = {
    0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
    0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};

}  // namespace

size_t secret_length(CipherSuite suite) { return suite == CipherSuite::aes256gcm ? 48 : 32; }

size_t key_length(CipherSuite suite) { return suite == CipherSuite::aes128gcm ? 16 : 32; }

Bytes hkdf_expand_label(CipherSuite suite, ByteView secret, std::string_view label, size_t length) {
  // struct { uint16 length; opaque label<7..255> = "tls13 " + Label;
  //          opaque context<0..255> = ""; } HkdfLabel;
  const std::string full = "tls13 " + std::string(label);
  Bytes info;
  Writer w(info);
  w.uint(length, 2);
  w.u8(static_cast<uint8_t>(full.size()));
  w.bytes({reinterpret_cast<const uint8_t*>(full.data()), full.size()});
  w.u8(0);
  Bytes out(length);
  if (!HKDF_expand(out.data(), out.size(), digest_of(suite), secret.data(), secret.size(),
                   info.data(), info.size()))
    return {};
  return out;
}

InitialSecrets derive_initial_secrets(ByteView client_dcid) {
  std::array<uint8_t, EVP_MAX_MD_SIZE> prk{};
  size_t prk_len = 0;
  InitialSecrets s;
  if (!HKDF_extract(prk.data(), &prk_len, EVP_sha256(), client_dcid.data(), client_dcid.size(),
                    kInitialSaltV1.data(), kInitialSaltV1.size()))
    return s;
  const ByteView initial(prk.data(), prk_len);
  s.client = hkdf_expand_label(CipherSuite::aes128gcm, initial, "client in", 32);
  s.server = hkdf_expand_label(CipherSuite::aes128gcm, initial, "server in", 32);
  return s;
}

Bytes next_generation_secret(CipherSuite suite, ByteView secret) {
  return hkdf_expand_label(suite, secret, "quic ku", secret_length(suite));
}

}  // namespace conform::quic
