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

// HTTP/3's application error codes, RFC 9114 §8.1.
constexpr std::array<std::pair<std::string_view, std::uint64_t>, 17> kH3Errors{{
    {"H3_NO_ERROR", 0x100}, {"H3_GENERAL_PROTOCOL_ERROR", 0x101}, {"H3_INTERNAL_ERROR", 0x102},
    {"H3_STREAM_CREATION_ERROR", 0x103}, {"H3_CLOSED_CRITICAL_STREAM", 0x104}, {"H3_FRAME_UNEXPECTED", 0x105},
    {"H3_FRAME_ERROR", 0x106}, {"H3_EXCESSIVE_LOAD", 0x107}, {"H3_ID_ERROR", 0x108},
    {"H3_SETTINGS_ERROR", 0x109}, {"H3_MISSING_SETTINGS", 0x10a}, {"H3_REQUEST_REJECTED", 0x10b},
    {"H3_REQUEST_CANCELLED", 0x10c}, {"H3_REQUEST_INCOMPLETE", 0x10d}, {"H3_MESSAGE_ERROR", 0x10e},
    {"H3_CONNECT_ERROR", 0x10f}, {"H3_VERSION_FALLBACK", 0x110},
}};

const auto& names_of(CloseKind kind) { return kind == CloseKind::transport ? kErrors : kH3Errors; }

}  // namespace

std::string error_name(std::uint64_t code, CloseKind kind) {
  for (const auto& [name, value] : names_of(kind))
    if (value == code) return std::string(name);
  if (kind == CloseKind::transport && code >= 0x100 && code <= 0x1ff) return fmt::format("CRYPTO_ERROR(0x{:x})", code);
  return fmt::format("0x{:x}", code);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> error_range(const std::string& spec, CloseKind kind) {
  for (const auto& [name, value] : names_of(kind))
    if (spec == name) return std::pair{value, value};
  if (kind == CloseKind::transport && spec == "CRYPTO_ERROR")
    return std::pair{std::uint64_t{0x100}, std::uint64_t{0x1ff}};
  const bool hex = spec.rfind("0x", 0) == 0;
  std::uint64_t v = 0;
  const char* first = spec.data() + (hex ? 2 : 0);
  auto [end, ec] = std::from_chars(first, spec.data() + spec.size(), v, hex ? 16 : 10);
  // A code travels as a varint (RFC 9000 §16): at most 2^62 - 1.
  if (ec != std::errc() || end != spec.data() + spec.size() || first == end || v >= (std::uint64_t{1} << 62))
    return std::nullopt;
  return std::pair{v, v};
}

std::vector<Side> sides(const std::string& by) {
  if (by == "client") return {Side::client};
  if (by == "server") return {Side::server};
  return {Side::client, Side::server};
}

}  // namespace conform::quic_checks
