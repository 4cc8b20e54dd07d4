// Packet protection keys on BoringSSL: EVP_AEAD for payloads, raw AES and
// ChaCha20 for header protection.
#include "dissect/packet_protection.hpp"

#include "dissect/key_schedule.hpp"

#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/chacha.h>
#include <openssl/err.h>

#include <stdexcept>

namespace conform::dissect {

struct PacketKeys::State {
  CipherSuite suite{};
  Bytes secret, key, iv, hp;
  AES_KEY hp_aes{};  // unused for ChaCha20
  EVP_AEAD_CTX* aead = nullptr;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    if (aead) EVP_AEAD_CTX_free(aead);
  }
};

namespace {

const EVP_AEAD* aead_of(CipherSuite suite) {
  switch (suite) {
    case CipherSuite::aes_128_gcm_sha256: return EVP_aead_aes_128_gcm();
    case CipherSuite::aes_256_gcm_sha384: return EVP_aead_aes_256_gcm();
    case CipherSuite::chacha20_poly1305_sha256: return EVP_aead_chacha20_poly1305();
  }
  return nullptr;
}

// The nonce is the IV with the packet number, left-padded to the IV's
// length in network byte order, XORed into it (RFC 9001 §5.3).
std::array<std::uint8_t, 12> nonce_for(const Bytes& iv, std::uint64_t packet_number) {
  std::array<std::uint8_t, 12> nonce{};
  std::copy(iv.begin(), iv.end(), nonce.begin());
  for (int i = 0; i < 8; ++i) nonce[11 - i] ^= static_cast<std::uint8_t>(packet_number >> (8 * i));
  return nonce;
}

std::shared_ptr<const PacketKeys::State> make_state(CipherSuite suite, Bytes secret, Bytes hp);

}  // namespace

PacketKeys PacketKeys::from_secret(CipherSuite suite, std::span<const std::uint8_t> secret) {
  Bytes hp = hkdf_expand_label(hash_of(suite), secret, "quic hp", key_length(suite));
  PacketKeys keys;
  keys.state_ = make_state(suite, Bytes(secret.begin(), secret.end()), std::move(hp));
  return keys;
}

PacketKeys PacketKeys::next_generation() const {
  PacketKeys keys;
  keys.state_ = make_state(state_->suite, next_traffic_secret(hash_of(state_->suite), state_->secret),
                           state_->hp);
  return keys;
}

namespace {

std::shared_ptr<const PacketKeys::State> make_state(CipherSuite suite, Bytes secret, Bytes hp) {
  if (secret.size() != hash_length(hash_of(suite)))
    throw std::invalid_argument("traffic secret length does not match the cipher suite's hash");
  auto s = std::make_shared<PacketKeys::State>();
  s->suite = suite;
  s->key = hkdf_expand_label(hash_of(suite), secret, "quic key", key_length(suite));
  s->iv = hkdf_expand_label(hash_of(suite), secret, "quic iv", 12);
  s->secret = std::move(secret);
  s->hp = std::move(hp);
  if (suite != CipherSuite::chacha20_poly1305_sha256 &&
      AES_set_encrypt_key(s->hp.data(), static_cast<unsigned>(s->hp.size() * 8), &s->hp_aes) != 0)
    throw std::runtime_error("AES_set_encrypt_key failed");
  s->aead = EVP_AEAD_CTX_new(aead_of(suite), s->key.data(), s->key.size(), kAeadTagLength);
  if (!s->aead) throw std::runtime_error("EVP_AEAD_CTX_new failed");
  return s;
}

}  // namespace

CipherSuite PacketKeys::suite() const { return state_->suite; }
const Bytes& PacketKeys::secret() const { return state_->secret; }
const Bytes& PacketKeys::key() const { return state_->key; }
const Bytes& PacketKeys::iv() const { return state_->iv; }
const Bytes& PacketKeys::hp() const { return state_->hp; }

std::array<std::uint8_t, 5> PacketKeys::header_mask(std::span<const std::uint8_t> sample) const {
  if (sample.size() < kHeaderSampleLength) throw std::invalid_argument("header protection sample too short");
  std::array<std::uint8_t, 5> mask{};
  if (state_->suite == CipherSuite::chacha20_poly1305_sha256) {
    // counter = sample[0..3] little-endian, nonce = sample[4..15].
    const std::uint32_t counter = std::uint32_t{sample[0]} | std::uint32_t{sample[1]} << 8 |
                                  std::uint32_t{sample[2]} << 16 | std::uint32_t{sample[3]} << 24;
    static constexpr std::uint8_t kZeros[5] = {};
    CRYPTO_chacha_20(mask.data(), kZeros, mask.size(), state_->hp.data(), sample.data() + 4, counter);
  } else {
    std::uint8_t block[16];
    AES_encrypt(sample.data(), block, &state_->hp_aes);
    std::copy(block, block + mask.size(), mask.begin());
  }
  return mask;
}

std::optional<std::size_t> PacketKeys::open(std::uint64_t packet_number,
                                            std::span<const std::uint8_t> header,
                                            std::span<std::uint8_t> payload) const {
  if (payload.size() < kAeadTagLength) return std::nullopt;
  const auto nonce = nonce_for(state_->iv, packet_number);
  std::size_t out_len = 0;
  if (!EVP_AEAD_CTX_open(state_->aead, payload.data(), &out_len, payload.size(), nonce.data(),
                         nonce.size(), payload.data(), payload.size(), header.data(), header.size())) {
    // A failed open is an expected outcome (wrong keys, trial decryption):
    // keep the thread's error queue from growing.
    ERR_clear_error();
    return std::nullopt;
  }
  return out_len;
}

Bytes PacketKeys::seal(std::uint64_t packet_number, std::span<const std::uint8_t> header,
                       std::span<const std::uint8_t> plaintext) const {
  const auto nonce = nonce_for(state_->iv, packet_number);
  Bytes out(plaintext.size() + kAeadTagLength);
  std::size_t out_len = 0;
  if (!EVP_AEAD_CTX_seal(state_->aead, out.data(), &out_len, out.size(), nonce.data(), nonce.size(),
                         plaintext.data(), plaintext.size(), header.data(), header.size()))
    throw std::runtime_error("EVP_AEAD_CTX_seal failed");
  out.resize(out_len);
  return out;
}

}  // namespace conform::dissect
