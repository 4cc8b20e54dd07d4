// The keys that protect the packets one endpoint sends at one encryption
// level and key phase (RFC 9001 §5): an AEAD key and IV for the payload
// (§5.3) and a header protection key (§5.4), all derived from one TLS
// traffic secret (§5.1).
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/cipher_suite.hpp"

#include <array>
#include <memory>

namespace conform::dissect {

/// Bytes of every QUIC v1 AEAD's authentication tag (RFC 9001 §5.3).
inline constexpr std::size_t kAeadTagLength = 16;
/// Bytes of ciphertext sampled for header protection (RFC 9001 §5.4.2).
inline constexpr std::size_t kHeaderSampleLength = 16;

class PacketKeys {
 public:
  /// Empty keys: only assignable. Use from_secret().
  PacketKeys() = default;

  /// Derives "quic key", "quic iv" and "quic hp" from `secret` with the
  /// suite's hash (RFC 9001 §5.1). `secret` must have the hash's length.
  static PacketKeys from_secret(CipherSuite suite, std::span<const std::uint8_t> secret);

  /// The keys after one key update: a new secret from "quic ku", new AEAD key
  /// and IV from it, and the same header protection key (RFC 9001 §6, whose
  /// header protection keys are never updated).
  PacketKeys next_generation() const;

  CipherSuite suite() const;
  const Bytes& secret() const;
  const Bytes& key() const;
  const Bytes& iv() const;
  const Bytes& hp() const;

  /// The 5-byte header protection mask for a 16-byte ciphertext sample:
  /// AES-ECB of the sample (§5.4.3), or ChaCha20 with the sample as counter
  /// and nonce applied to zeros (§5.4.4).
  std::array<std::uint8_t, 5> header_mask(std::span<const std::uint8_t> sample) const;

  /// Authenticates and decrypts `payload` (ciphertext followed by the 16-byte
  /// tag) in place, with `header` (the unprotected header up to and including
  /// the packet number) as associated data and the IV XOR the packet number
  /// as nonce (§5.3). Returns the plaintext length, or nullopt when the tag
  /// does not verify.
  std::optional<std::size_t> open(std::uint64_t packet_number,
                                  std::span<const std::uint8_t> header,
                                  std::span<std::uint8_t> payload) const;

  /// The inverse of open(): ciphertext followed by the tag. Used to build
  /// test packets; the dissector itself never seals.
  Bytes seal(std::uint64_t packet_number, std::span<const std::uint8_t> header,
             std::span<const std::uint8_t> plaintext) const;

  /// Opaque: the derived keys and the BoringSSL contexts, shared by copies.
  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace conform::dissect
