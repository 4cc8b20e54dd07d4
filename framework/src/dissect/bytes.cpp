// Hex spelling of byte strings.
#include "dissect/bytes.hpp"

#include <fmt/format.h>

namespace conform::dissect {

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0f]);
  }
  return out;
}

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::optional<Bytes> from_hex(std::string_view hex) {
  Bytes out;
  out.reserve(hex.size() / 2);
  int high = -1;
  for (char c : hex) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    int v = hex_value(c);
    if (v < 0) return std::nullopt;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(high << 4 | v));
      high = -1;
    }
  }
  if (high >= 0) return std::nullopt;
  return out;
}

std::string quote_bytes(std::string_view text, char quote, std::size_t max_bytes) {
  std::string out(1, quote);
  for (unsigned char c : text.substr(0, max_bytes))
    out += c >= 0x20 && c < 0x7f && c != quote ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
  out += quote;
  if (text.size() > max_bytes) out += "...";
  return out;
}

}  // namespace conform::dissect
