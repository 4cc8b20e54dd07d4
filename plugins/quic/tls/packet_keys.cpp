// Payload AEAD and header-protection masks, RFC 9001 §5.3 and §5.4, on
// BoringSSL's EVP_AEAD, AES block and ChaCha20 primitives.
#include "tls/packet_keys.hpp"

#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/chacha.h>

#include <utility>

namespace conform::quic {

std::optional<PacketKeys> PacketKeys::from_secret(CipherSuite suite, ByteView secret) {
  if (secret.size() != secret_length(suite)) return std::nullopt;
  PacketKeys k;
  k.suite_ = suite;
  k.secret_.assign(secret.begin(), secret.end());
  k.key_ = hkdf_expand_label(suite, secret, "quic key", key_length(suite));
  k.iv_ = hkdf_expand_label(suite, secret, "quic iv", 12);
  k.hp_ = hkdf_expand_label(suite, secret, "quic hp", key_length(suite));
  if (k.key_.empty() || k.iv_.empty() || k.hp_.empty()) return std::nullopt;
  const EVP_AEAD* aead = suite == CipherSuite::aes128gcm   ? EVP_aead_aes_128_gcm()
                         : suite == CipherSuite::aes256gcm ? EVP_aead_aes_256_gcm()
                                                           : EVP_aead_chacha20_poly1305();
  k.aead_ = EVP_AEAD_CTX_new(aead, k.key_.data(), k.key_.size(), kTagLen);
  if (k.aead_ == nullptr) return std::nullopt;
  return k;
}

std::optional<PacketKeys> PacketKeys::next_generation() const {
  auto next = from_secret(suite_, next_generation_secret(suite_, secret_));
  if (next) next->hp_ = hp_;
  return next;
}

PacketKeys::PacketKeys(PacketKeys&& o) noexcept
    : suite_(o.suite_), secret_(std::move(o.secret_)), key_(std::move(o.key_)),
      iv_(std::move(o.iv_)), hp_(std::move(o.hp_)), aead_(std::exchange(o.aead_, nullptr)) {}

PacketKeys& PacketKeys::operator=(PacketKeys&& o) noexcept {
  if (this != &o) {
    if (aead_) EVP_AEAD_CTX_free(aead_);
    suite_ = o.suite_;
    secret_ = std::move(o.secret_);
    key_ = std::move(o.key_);
    iv_ = std::move(o.iv_);
    hp_ = std::move(o.hp_);
    aead_ = std::exchange(o.aead_, nullptr);
  }
  return *this;
}

PacketKeys::~PacketKeys() {
  if (aead_) EVP_AEAD_CTX_free(aead_);
}

void PacketKeys::nonce(uint64_t pn, uint8_t* out) const {
  // §5.3: the 62-bit packet number, left-padded to the IV size, XOR the IV.
  for (size_t i = 0; i < 12; ++i) out[i] = iv_[i];
  for (size_t i = 0; i < 8; ++i) out[11 - i] ^= static_cast<uint8_t>(pn >> (8 * i));
}

bool PacketKeys::seal(uint64_t pn, ByteView aad, ByteView payload, uint8_t* out) const {
  uint8_t n[12];
  nonce(pn, n);
  size_t out_len = 0;
  return EVP_AEAD_CTX_seal(aead_, out, &out_len, payload.size() + kTagLen, n, sizeof n,
                           payload.data(), payload.size(), aad.data(), aad.size()) == 1;
}

std::optional<size_t> PacketKeys::open(uint64_t pn, ByteView aad, ByteView ciphertext,
                                       uint8_t* out) const {
  if (ciphertext.size() < kTagLen) return std::nullopt;
  uint8_t n[12];
  nonce(pn, n);
  size_t out_len = 0;
  if (EVP_AEAD_CTX_open(aead_, out, &out_len, ciphertext.size(), n, sizeof n, ciphertext.data(),
                        ciphertext.size(), aad.data(), aad.size()) != 1)
    return std::nullopt;
  return out_len;
}

std::array<uint8_t, 5> PacketKeys::header_mask(const uint8_t* sample) const {
  std::array<uint8_t, 5> mask{};
  if (suite_ == CipherSuite::chacha20) {
    // §5.4.4: counter = first 4 sample bytes (little-endian), nonce = the
    // other 12; the mask is ChaCha20 of five zero bytes.
    const uint32_t counter = uint32_t{sample[0]} | uint32_t{sample[1]} << 8 |
                             uint32_t{sample[2]} << 16 | uint32_t{sample[3]} << 24;
    const uint8_t zeros[5] = {};
    CRYPTO_chacha_20(mask.data(), zeros, sizeof zeros, hp_.data(), sample + 4, counter);
    return mask;
  }
  // §5.4.3: AES-ECB of the sample; the first 5 bytes are the mask.
  AES_KEY key;
  AES_set_encrypt_key(hp_.data(), static_cast<unsigned>(hp_.size() * 8), &key);
  uint8_t block[16];
  AES_encrypt(sample, block, &key);
  for (size_t i = 0; i < 5; ++i) mask[i] = block[i];
  return mask;
}

}  // namespace conform::quic
