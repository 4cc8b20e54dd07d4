// Reading the ClientHello random and ServerHello cipher suite, RFC 8446 §4.1.2-4.1.3.
#include "dissect/tls_hello.hpp"

#include <algorithm>

namespace conform::dissect {

namespace {
// Handshake header: msg_type (1), length (3); then legacy_version (2) and
// random (32) for both hellos.
constexpr std::size_t kRandomAt = 4 + 2;
}  // namespace

std::optional<ClientRandom> client_hello_random(std::span<const std::uint8_t> stream) {
  if (stream.size() < kRandomAt + 32 || stream[0] != 1) return std::nullopt;  // client_hello(1)
  ClientRandom random{};
  std::copy_n(stream.begin() + kRandomAt, 32, random.begin());
  return random;
}

std::optional<std::uint16_t> server_hello_cipher_suite(std::span<const std::uint8_t> stream) {
  if (stream.size() < kRandomAt + 33 || stream[0] != 2) return std::nullopt;  // server_hello(2)
  const std::size_t session_id_length = stream[kRandomAt + 32];
  const std::size_t at = kRandomAt + 33 + session_id_length;
  if (session_id_length > 32 || stream.size() < at + 2) return std::nullopt;
  return static_cast<std::uint16_t>(stream[at] << 8 | stream[at + 1]);
}

}  // namespace conform::dissect
