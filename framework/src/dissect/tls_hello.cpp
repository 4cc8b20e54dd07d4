// Reading the ClientHello random and ServerHello cipher suite, RFC 8446 §4.1.2-4.1.3.
#include "dissect/tls_hello.hpp"

#include "dissect/wire_reader.hpp"

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

std::optional<std::span<const std::uint8_t>> tls_extension(std::uint8_t type, std::span<const std::uint8_t> body,
                                                           std::uint16_t extension) {
  WireReader r(body);
  auto skip_vector = [&](std::size_t length_bytes) {
    auto n = r.uint(length_bytes);
    return n && r.bytes(*n);
  };
  if (type == 1) {  // ClientHello: legacy_version, random, session id, suites, compression
    if (!r.bytes(2 + 32) || !skip_vector(1) || !skip_vector(2) || !skip_vector(1)) return std::nullopt;
  } else if (type != 8) {  // EncryptedExtensions holds only extensions
    return std::nullopt;
  }
  auto total = r.uint(2);
  auto extensions = total ? r.bytes(*total) : std::nullopt;
  if (!extensions) return std::nullopt;
  WireReader e(*extensions);
  while (!e.empty()) {
    auto ext_type = e.uint(2);
    auto length = ext_type ? e.uint(2) : std::nullopt;
    auto data = length ? e.bytes(*length) : std::nullopt;
    if (!data) return std::nullopt;
    if (*ext_type == extension) return data;
  }
  return std::nullopt;
}

std::optional<std::string> selected_alpn(std::span<const std::uint8_t> encrypted_extensions) {
  constexpr std::uint16_t kAlpn = 16;  // RFC 7301 §3.1
  const auto value = tls_extension(8, encrypted_extensions, kAlpn);
  if (!value) return std::nullopt;
  WireReader r(*value);
  auto list_length = r.uint(2);
  auto name_length = list_length ? r.uint(1) : std::nullopt;
  auto name = name_length ? r.bytes(*name_length) : std::nullopt;
  if (!name || *list_length != *name_length + 1) return std::nullopt;
  return std::string(name->begin(), name->end());
}

}  // namespace conform::dissect
