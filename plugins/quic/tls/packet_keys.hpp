// The keys of one direction of one encryption level (RFC 9001 §5): an AEAD
// key and IV for the payload, and a header-protection key. Built from a
// traffic secret; owns its BoringSSL contexts.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "codec/buffer.hpp"
#include "tls/key_schedule.hpp"

struct evp_aead_ctx_st;

namespace conform::quic {

class PacketKeys {
 public:
  /// Derives "quic key", "quic iv" and "quic hp" from `secret` (§5.1).
  /// nullopt if the secret has the wrong length for the suite.
  static std::optional<PacketKeys> from_secret(CipherSuite suite, ByteView secret);

  /// The keys of the next key phase (RFC 9001 §6.1): AEAD key and IV from
  /// the "quic ku" secret; the header-protection key does not change.
  std::optional<PacketKeys> next_generation() const;

  PacketKeys(PacketKeys&&) noexcept;
  PacketKeys& operator=(PacketKeys&&) noexcept;
  ~PacketKeys();

  CipherSuite suite() const { return suite_; }
  ByteView secret() const { return secret_; }
  ByteView key() const { return key_; }
  ByteView iv() const { return iv_; }
  ByteView hp_key() const { return hp_; }

  static constexpr size_t kTagLen = 16;
  static constexpr size_t kSampleLen = 16;

  /// AEAD-seals `payload` in place (§5.3): the nonce is the IV XOR the packet
  /// number, `aad` is the unprotected header. `out` receives payload+tag and
  /// must hold payload.size() + kTagLen bytes; it may alias payload.
  bool seal(uint64_t pn, ByteView aad, ByteView payload, uint8_t* out) const;
  /// Opens `ciphertext` (payload+tag) into `out` (may alias); returns the
  /// plaintext length, or nullopt when authentication fails.
  std::optional<size_t> open(uint64_t pn, ByteView aad, ByteView ciphertext, uint8_t* out) const;

  /// The 5-byte header-protection mask for a 16-byte sample (§5.4.3 AES,
  /// §5.4.4 ChaCha20).
  std::array<uint8_t, 5> header_mask(const uint8_t* sample) const;

 private:
  PacketKeys() = default;
  void nonce(uint64_t pn, uint8_t* out) const;

  CipherSuite suite_ = CipherSuite::aes128gcm;
  Bytes secret_, key_, iv_, hp_;
  evp_aead_ctx_st* aead_ = nullptr;
};

}  // namespace conform::quic
