// HKDF for QUIC through BoringSSL (never OpenSSL 3: see PLATFORM-NOTES).
#include "dissect/key_schedule.hpp"

#include <openssl/digest.h>
#include <openssl/hkdf.h>

#include <stdexcept>

namespace conform::dissect {
namespace {

const EVP_MD* digest(HashAlgorithm hash) {
  return hash == HashAlgorithm::sha384 ? EVP_sha384() : EVP_sha256();
}

}  // namespace

Bytes hkdf_extract(HashAlgorithm hash, std::span<const std::uint8_t> salt,
                   std::span<const std::uint8_t> ikm) {
  Bytes out(EVP_MAX_MD_SIZE);
  std::size_t out_len = 0;
  if (!HKDF_extract(out.data(), &out_len, digest(hash), ikm.data(), ikm.size(), salt.data(),
                    salt.size()))
    throw std::runtime_error("HKDF_extract failed");
  out.resize(out_len);
  return out;
}

Bytes hkdf_expand_label(HashAlgorithm hash, std::span<const std::uint8_t> secret,
                        std::string_view label, std::size_t length) {
  // struct { uint16 length; opaque label<7..255> = "tls13 " + Label;
  //          opaque context<0..255>; } HkdfLabel;   (RFC 8446 §7.1)
  static constexpr std::string_view kPrefix = "tls13 ";
  Bytes info;
  info.reserve(4 + kPrefix.size() + label.size());
  info.push_back(static_cast<std::uint8_t>(length >> 8));
  info.push_back(static_cast<std::uint8_t>(length));
  info.push_back(static_cast<std::uint8_t>(kPrefix.size() + label.size()));
  info.insert(info.end(), kPrefix.begin(), kPrefix.end());
  info.insert(info.end(), label.begin(), label.end());
  info.push_back(0);  // empty context
  Bytes out(length);
  if (!HKDF_expand(out.data(), out.size(), digest(hash), secret.data(), secret.size(), info.data(),
                   info.size()))
    throw std::runtime_error("HKDF_expand failed");
  return out;
}

InitialSecrets initial_secrets(std::span<const std::uint8_t> client_dcid) {
  const Bytes initial = hkdf_extract(HashAlgorithm::sha256, kInitialSaltV1, client_dcid);
  return {hkdf_expand_label(HashAlgorithm::sha256, initial, "client in", 32),
          hkdf_expand_label(HashAlgorithm::sha256, initial, "server in", 32)};
}

Bytes next_traffic_secret(HashAlgorithm hash, std::span<const std::uint8_t> secret) {
  return hkdf_expand_label(hash, secret, "quic ku", hash_length(hash));
}

}  // namespace conform::dissect
