// The clear-text walk over coalesced long-header packets.
#include "net/quic_long_header.hpp"

namespace conform {
namespace {

constexpr std::uint32_t kVersion1 = 0x00000001;
constexpr std::uint32_t kVersion2 = 0x6b3343cf;

// A variable-length integer (RFC 9000 §16) at `pos`, advancing it; nothing
// if it runs past the end.
std::optional<std::uint64_t> read_varint(std::span<const std::uint8_t> d, std::size_t& pos) {
  if (pos >= d.size()) return std::nullopt;
  const std::size_t len = std::size_t{1} << (d[pos] >> 6);
  if (pos + len > d.size()) return std::nullopt;
  std::uint64_t v = d[pos] & 0x3f;
  for (std::size_t i = 1; i < len; ++i) v = (v << 8) | d[pos + i];
  pos += len;
  return v;
}

// The version-1 name of the two type bits of `version`'s first byte.
std::optional<LongType> type_of(std::uint32_t version, std::uint8_t first) {
  const std::uint8_t bits = (first >> 4) & 0x03;
  if (version == kVersion1) return static_cast<LongType>(bits);
  // RFC 9369 §3.2: Initial 0b01, 0-RTT 0b10, Handshake 0b11, Retry 0b00.
  if (version == kVersion2) return static_cast<LongType>((bits + 3) & 0x03);
  return std::nullopt;
}

}  // namespace

const char* to_string(LongType t) {
  switch (t) {
    case LongType::initial: return "initial";
    case LongType::zero_rtt: return "0rtt";
    case LongType::handshake: return "handshake";
    case LongType::retry: return "retry";
  }
  return "?";
}

std::optional<LongType> long_type_from_string(std::string_view s) {
  for (auto t : {LongType::initial, LongType::zero_rtt, LongType::handshake, LongType::retry})
    if (s == to_string(t)) return t;
  return std::nullopt;
}

DatagramHeaders datagram_headers(std::span<const std::uint8_t> d) {
  DatagramHeaders out;
  std::size_t pos = 0;
  while (pos + 5 <= d.size() && (d[pos] & 0x80)) {
    const std::uint32_t version = (std::uint32_t{d[pos + 1]} << 24) | (std::uint32_t{d[pos + 2]} << 16) |
                                  (std::uint32_t{d[pos + 3]} << 8) | d[pos + 4];
    const auto type = type_of(version, d[pos]);
    if (!type) return out;
    out.long_types |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(*type));
    if (*type == LongType::retry) return out;  // a Retry has no Length: it ends the datagram
    std::size_t p = pos + 5;
    for (int cid = 0; cid < 2; ++cid) {  // Destination, then Source Connection ID
      if (p >= d.size()) return out;
      p += 1 + d[p];
    }
    if (*type == LongType::initial) {
      auto token_len = read_varint(d, p);
      if (!token_len) return out;
      p += *token_len;
    }
    auto length = read_varint(d, p);
    if (!length || *length > d.size() - std::min(p, d.size())) return out;
    pos = p + *length;
  }
  // RFC 9000 §12.2: a short-header packet can only come last. Trailing zero
  // bytes (padding after a long-header packet) are not one: a short header
  // has the Fixed Bit set (§17.3.1).
  out.short_header = pos < d.size() && !(d[pos] & 0x80) && (d[pos] & 0x40);
  return out;
}

std::uint8_t long_header_types(std::span<const std::uint8_t> d) { return datagram_headers(d).long_types; }

}  // namespace conform
