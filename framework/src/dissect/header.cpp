// QUIC header parsing up to the packet number, RFC 9000 §17.
#include "dissect/header.hpp"

#include "dissect/packet_protection.hpp"
#include "dissect/wire_reader.hpp"

namespace conform::dissect {

std::string_view to_string(PacketType type) {
  switch (type) {
    case PacketType::initial: return "Initial";
    case PacketType::zero_rtt: return "0-RTT";
    case PacketType::handshake: return "Handshake";
    case PacketType::retry: return "Retry";
    case PacketType::version_negotiation: return "VersionNegotiation";
    case PacketType::one_rtt: return "1-RTT";
    case PacketType::unknown_version: return "UnknownVersion";
  }
  return "?";
}

std::string_view to_string(PacketSpace space) {
  switch (space) {
    case PacketSpace::initial: return "initial";
    case PacketSpace::handshake: return "handshake";
    case PacketSpace::application: return "application";
    case PacketSpace::none: return "none";
  }
  return "?";
}

PacketSpace space_of(PacketType type) {
  switch (type) {
    case PacketType::initial: return PacketSpace::initial;
    case PacketType::handshake: return PacketSpace::handshake;
    case PacketType::zero_rtt:
    case PacketType::one_rtt: return PacketSpace::application;
    default: return PacketSpace::none;
  }
}

namespace {

bool read_cid(WireReader& r, ConnectionId& out, bool v1, std::string& why, const char* name) {
  auto len = r.u8();
  if (!len) {
    why = std::string(name) + " length cut short";
    return false;
  }
  // Only v1 bounds connection IDs at 20 bytes; other versions may use up to
  // 255 in their long header (RFC 8999 §5.1).
  if (v1 && *len > kMaxConnectionIdLength) {
    why = std::string(name) + " length " + std::to_string(*len) + " exceeds 20 (RFC 9000 §17.2)";
    return false;
  }
  auto cid = r.bytes(*len);
  if (!cid) {
    why = std::string(name) + " cut short";
    return false;
  }
  out.assign(cid->begin(), cid->end());
  return true;
}

// The packet number and the sample behind it must fit: the sample starts 4
// bytes after the packet number's start (RFC 9001 §5.4.2).
bool sample_fits(std::size_t pn_offset, std::size_t end, std::string& why) {
  if (pn_offset + 4 + kHeaderSampleLength > end) {
    why = "packet too short to sample for header protection (RFC 9001 §5.4.2)";
    return false;
  }
  return true;
}

}  // namespace

std::optional<ParsedHeader> parse_header(std::span<const std::uint8_t> bytes,
                                         std::size_t short_dcid_length, std::string& why) {
  WireReader r(bytes);
  auto first = r.u8();
  if (!first) {
    why = "empty";
    return std::nullopt;
  }
  ParsedHeader h;
  h.long_header = *first & 0x80;
  if (!h.long_header) {
    h.type = PacketType::one_rtt;
    auto dcid = r.bytes(short_dcid_length);
    if (!dcid) {
      why = "short header cut short in its Destination Connection ID";
      return std::nullopt;
    }
    h.dcid.assign(dcid->begin(), dcid->end());
    h.pn_offset = r.position();
    h.end = bytes.size();
    if (!sample_fits(h.pn_offset, h.end, why)) return std::nullopt;
    return h;
  }

  auto version = r.uint(4);
  if (!version) {
    why = "long header cut short in its Version";
    return std::nullopt;
  }
  h.version = static_cast<std::uint32_t>(*version);
  const bool v1 = h.version == kQuicVersion1;
  if (!read_cid(r, h.dcid, v1, why, "Destination Connection ID") ||
      !read_cid(r, h.scid, v1, why, "Source Connection ID"))
    return std::nullopt;
  h.end = bytes.size();
  if (h.version == 0) {
    h.type = PacketType::version_negotiation;
    h.pn_offset = r.position();  // the Supported Versions start here
    return h;
  }
  if (!v1) {
    h.type = PacketType::unknown_version;
    h.pn_offset = r.position();
    return h;
  }
  static constexpr PacketType kLongTypes[] = {PacketType::initial, PacketType::zero_rtt,
                                              PacketType::handshake, PacketType::retry};
  h.type = kLongTypes[(*first >> 4) & 0x03];
  if (h.type == PacketType::retry) {
    // Retry Token fills what the 16-byte Retry Integrity Tag leaves (§17.2.5).
    if (r.remaining() < 16) {
      why = "Retry shorter than its integrity tag";
      return std::nullopt;
    }
    h.token = r.rest().first(r.remaining() - 16);
    h.pn_offset = r.position();
    return h;
  }
  if (h.type == PacketType::initial) {
    auto token_length = r.varint();
    if (!token_length) {
      why = "Initial cut short in its Token Length";
      return std::nullopt;
    }
    auto token = r.bytes(*token_length);
    if (!token) {
      why = "Initial Token runs past the end of the datagram";
      return std::nullopt;
    }
    h.token = *token;
  }
  auto length = r.varint();
  if (!length) {
    why = "long header cut short in its Length";
    return std::nullopt;
  }
  h.pn_offset = r.position();
  if (*length > r.remaining()) {
    why = "Length " + std::to_string(*length) + " runs past the end of the datagram (" +
          std::to_string(r.remaining()) + " bytes left)";
    return std::nullopt;
  }
  h.end = h.pn_offset + static_cast<std::size_t>(*length);
  if (!sample_fits(h.pn_offset, h.end, why)) return std::nullopt;
  return h;
}

std::vector<std::uint32_t> supported_versions(std::span<const std::uint8_t> list) {
  std::vector<std::uint32_t> out;
  WireReader r(list);
  while (auto v = r.uint(4)) out.push_back(static_cast<std::uint32_t>(*v));
  return out;
}

}  // namespace conform::dissect
