// Retry integrity, RFC 9001 §5.8 (QUIC v1 key and nonce).
#include "dissect/retry_integrity.hpp"

#include <openssl/aead.h>
#include <openssl/err.h>
#include <openssl/mem.h>

#include <stdexcept>

namespace conform::dissect {
namespace {

constexpr std::uint8_t kRetryKeyV1[16] = {0xbe, 0x0c, 0x69, 0x0b, 0x9f, 0x66, 0x57, 0x5a,
                                          0x1d, 0x76, 0x6b, 0x54, 0xe3, 0x68, 0xc8, 0x4e};
constexpr std::uint8_t kRetryNonceV1[12] = {0x46, 0x15, 0x99, 0xd3, 0x5d, 0x63,
                                            0x2b, 0xf2, 0x23, 0x98, 0x25, 0xbb};

}  // namespace

std::array<std::uint8_t, 16> retry_integrity_tag(std::span<const std::uint8_t> original_dcid,
                                                 std::span<const std::uint8_t> retry_without_tag) {
  // Retry Pseudo-Packet: ODCID Length (8), ODCID, then the Retry packet
  // without its tag; the tag is the AEAD output over an empty plaintext.
  Bytes pseudo;
  pseudo.reserve(1 + original_dcid.size() + retry_without_tag.size());
  pseudo.push_back(static_cast<std::uint8_t>(original_dcid.size()));
  pseudo.insert(pseudo.end(), original_dcid.begin(), original_dcid.end());
  pseudo.insert(pseudo.end(), retry_without_tag.begin(), retry_without_tag.end());

  EVP_AEAD_CTX ctx;
  if (!EVP_AEAD_CTX_init(&ctx, EVP_aead_aes_128_gcm(), kRetryKeyV1, sizeof kRetryKeyV1, 16, nullptr))
    throw std::runtime_error("EVP_AEAD_CTX_init failed");
  std::array<std::uint8_t, 16> tag{};
  std::size_t out_len = 0;
  const int ok = EVP_AEAD_CTX_seal(&ctx, tag.data(), &out_len, tag.size(), kRetryNonceV1,
                                   sizeof kRetryNonceV1, nullptr, 0, pseudo.data(), pseudo.size());
  EVP_AEAD_CTX_cleanup(&ctx);
  if (!ok || out_len != tag.size()) throw std::runtime_error("EVP_AEAD_CTX_seal failed");
  return tag;
}

bool retry_integrity_ok(std::span<const std::uint8_t> original_dcid,
                        std::span<const std::uint8_t> retry_packet) {
  if (retry_packet.size() < 16) return false;
  const auto body = retry_packet.first(retry_packet.size() - 16);
  const auto expected = retry_integrity_tag(original_dcid, body);
  return CRYPTO_memcmp(expected.data(), retry_packet.data() + body.size(), 16) == 0;
}

}  // namespace conform::dissect
