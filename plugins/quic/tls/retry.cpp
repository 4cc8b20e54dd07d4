// Retry packet writing and integrity tags, RFC 9001 §5.8 (QUIC v1 key and nonce).
#include "tls/retry.hpp"

#include <openssl/aead.h>
#include <openssl/mem.h>

#include <array>

#include "codec/packet_header.hpp"

namespace conform::quic {

namespace {

constexpr std::array<uint8_t, 16> kRetryKey = {0xbe, 0x0c, 0x69, 0x0b, 0x9f, 0x66, 0x57, 0x5a,
                                               0x1d, 0x76, 0x6b, 0x54, 0xe3, 0x68, 0xc8, 0x4e};
constexpr std::array<uint8_t, 12> kRetryNonce = {0x46, 0x15, 0x99, 0xd3, 0x5d, 0x63,
                                                 0x2b, 0xf2, 0x23, 0x98, 0x25, 0xbb};

// The tag: AEAD of an empty plaintext with the pseudo-packet as AAD.
std::array<uint8_t, 16> retry_tag(ByteView without_tag, const ConnectionId& odcid) {
  Bytes pseudo;
  Writer w(pseudo);
  w.u8(odcid.len);
  w.bytes(odcid.view());
  w.bytes(without_tag);
  std::array<uint8_t, 16> tag{};
  EVP_AEAD_CTX* ctx = EVP_AEAD_CTX_new(EVP_aead_aes_128_gcm(), kRetryKey.data(), kRetryKey.size(), 16);
  if (ctx == nullptr) return tag;
  size_t out_len = 0;
  EVP_AEAD_CTX_seal(ctx, tag.data(), &out_len, tag.size(), kRetryNonce.data(), kRetryNonce.size(),
                    nullptr, 0, pseudo.data(), pseudo.size());
  EVP_AEAD_CTX_free(ctx);
  return tag;
}

}  // namespace

Bytes write_retry(const ConnectionId& client_scid, const ConnectionId& retry_scid, ByteView token,
                  const ConnectionId& odcid) {
  Bytes out;
  Writer w(out);
  w.u8(0xf0);  // long header, fixed bit, type Retry, unused bits 0
  w.uint(kVersion1, 4);
  w.u8(client_scid.len);
  w.bytes(client_scid.view());
  w.u8(retry_scid.len);
  w.bytes(retry_scid.view());
  w.bytes(token);
  const auto tag = retry_tag(out, odcid);
  w.bytes(tag);
  return out;
}

bool verify_retry(ByteView packet, const ConnectionId& odcid) {
  if (packet.size() < 16) return false;
  const auto tag = retry_tag(packet.first(packet.size() - 16), odcid);
  return CRYPTO_memcmp(tag.data(), packet.data() + packet.size() - 16, 16) == 0;
}

}  // namespace conform::quic
