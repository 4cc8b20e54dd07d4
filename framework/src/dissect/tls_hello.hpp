// What the dissector needs from the TLS handshake in the Initial packets'
// CRYPTO frames (RFC 9001 §4): the ClientHello's random, which names the
// connection's lines in a key log, and the ServerHello's cipher suite,
// which says how the Handshake and 1-RTT secrets become keys (RFC 8446 §4.1).
#pragma once

#include "dissect/bytes.hpp"
#include "dissect/key_log.hpp"

#include <bitset>
#include <optional>

namespace conform::dissect {

/// The first bytes of one CRYPTO stream, assembled from frames in any order
/// (clients such as Chrome send the ClientHello in shuffled pieces).
class CryptoPrefix {
 public:
  /// Enough for a ServerHello up to its cipher suite: 4 + 2 + 32 + 1 + 32 + 2.
  static constexpr std::size_t kCapacity = 128;

  /// Records the bytes of a CRYPTO frame at `offset`; bytes past kCapacity
  /// are not kept.
  void add(std::uint64_t offset, std::span<const std::uint8_t> data);
  /// The bytes known from offset 0 without a gap.
  std::span<const std::uint8_t> contiguous() const;

 private:
  std::array<std::uint8_t, kCapacity> bytes_{};
  std::bitset<kCapacity> have_;
  std::size_t contiguous_ = 0;
};

/// The random of a ClientHello at the start of `stream`, or nullopt when the
/// stream does not start with a ClientHello or is too short yet.
std::optional<ClientRandom> client_hello_random(std::span<const std::uint8_t> stream);

/// The cipher suite code of a ServerHello (or HelloRetryRequest) at the
/// start of `stream`, or nullopt when it is not there (yet).
std::optional<std::uint16_t> server_hello_cipher_suite(std::span<const std::uint8_t> stream);

}  // namespace conform::dissect
