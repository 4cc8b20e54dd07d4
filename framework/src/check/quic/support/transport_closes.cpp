// Transport error names and the sides a `by` names.
#include "check/quic/support/transport_closes.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>

namespace conform::quic_checks {
namespace {

// RFC 9000 §20.1 and RFC 9001 §4.8 (CRYPTO_ERROR is 0x0100-0x01ff).
constexpr std::array<std::pair<std::string_view, std::uint64_t>, 17> kErrors{{
    {"NO_ERROR", 0x00}, {"INTERNAL_ERROR", 0x01}, {"CONNECTION_REFUSED", 0x02},
    {"FLOW_CONTROL_ERROR", 0x03}, {"STREAM_LIMIT_ERROR", 0x04}, {"STREAM_STATE_ERROR", 0x05},
    {"FINAL_SIZE_ERROR", 0x06}, {"FRAME_ENCODING_ERROR", 0x07}, {"TRANSPORT_PARAMETER_ERROR", 0x08},
    {"CONNECTION_ID_LIMIT_ERROR", 0x09}, {"PROTOCOL_VIOLATION", 0x0a}, {"INVALID_TOKEN", 0x0b},
    {"APPLICATION_ERROR", 0x0c}, {"CRYPTO_BUFFER_EXCEEDED", 0x0d}, {"KEY_UPDATE_ERROR", 0x0e},
    {"AEAD_LIMIT_REACHED", 0x0f}, {"NO_VIABLE_PATH", 0x10},
}};

}  // namespace

std::string error_name(std::uint64_t code) {
  for (const auto& [name, value] : kErrors)
    if (value == code) return std::string(name);
  if (code >= 0x100 && code <= 0x1ff) return fmt::format("CRYPTO_ERROR(0x{:x})", code);
  return fmt::format("0x{:x}", code);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> error_range(const std::string& spec) {
  for (const auto& [name, value] : kErrors)
    if (spec == name) return std::pair{value, value};
  if (spec == "CRYPTO_ERROR") return std::pair{std::uint64_t{0x100}, std::uint64_t{0x1ff}};
  const bool hex = spec.rfind("0x", 0) == 0;
  std::uint64_t v = 0;
  const char* first = spec.data() + (hex ? 2 : 0);
  auto [end, ec] = std::from_chars(first, spec.data() + spec.size(), v, hex ? 16 : 10);
  if (ec != std::errc() || end != spec.data() + spec.size() || first == end) return std::nullopt;
  return std::pair{v, v};
}

std::vector<Side> sides(const std::string& by) {
  if (by == "client") return {Side::client};
  if (by == "server") return {Side::server};
  return {Side::client, Side::server};
}

}  // namespace conform::quic_checks
