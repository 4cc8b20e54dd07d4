// Packet header parsing and writing, RFC 9000 §17.
#include "codec/packet_header.hpp"

namespace conform::quic {

namespace {

bool read_cid(Reader& r, ConnectionId& cid, size_t max_len) {
  uint8_t len;
  ByteView b;
  if (!r.u8(len) || len > max_len || !r.bytes(len, b)) return false;
  cid = ConnectionId(b);
  return true;
}

std::optional<PacketHeader> parse_long(ByteView data, uint8_t first) {
  Reader r(data);
  PacketHeader h;
  r.skip(1);
  if (!r.u32(h.version)) return std::nullopt;
  // Version-independent properties (RFC 8999 §5.1) allow 255-byte CIDs, but a
  // v1 endpoint only ever needs to read them to answer Version Negotiation.
  const size_t max_cid = h.version == kVersion1 ? ConnectionId::kMaxLen : 255;
  if (!read_cid(r, h.dcid, max_cid) || !read_cid(r, h.scid, max_cid)) return std::nullopt;
  if (h.version == 0) {
    h.type = PacketType::version_negotiation;
    if (r.remaining() == 0 || r.remaining() % 4 != 0) return std::nullopt;
    h.versions = r.rest();
    h.length = data.size();
    return h;
  }
  if (h.version != kVersion1) {
    // Unknown version: only the CIDs are meaningful; the caller answers with
    // Version Negotiation or drops it.
    h.length = data.size();
    h.type = PacketType::initial;
    return h;
  }
  if ((first & 0x40) == 0) return std::nullopt;  // fixed bit, §17.2
  static constexpr PacketType kTypes[] = {PacketType::initial, PacketType::zero_rtt,
                                          PacketType::handshake, PacketType::retry};
  h.type = kTypes[(first >> 4) & 0x03];
  if (h.type == PacketType::retry) {
    // Retry token, then a 16-byte integrity tag (RFC 9001 §5.8).
    if (r.remaining() < 16) return std::nullopt;
    r.bytes(r.remaining() - 16, h.token);
    h.length = data.size();
    return h;
  }
  if (h.type == PacketType::initial) {
    uint64_t token_len;
    if (!r.varint(token_len) || token_len > r.remaining()) return std::nullopt;
    r.bytes(static_cast<size_t>(token_len), h.token);
  }
  uint64_t length;
  if (!r.varint(length) || length > r.remaining()) return std::nullopt;
  h.pn_offset = r.position();
  h.length = h.pn_offset + static_cast<size_t>(length);
  return h;
}

}  // namespace

std::optional<PacketHeader> parse_packet_header(ByteView data, size_t short_dcid_len) {
  if (data.empty()) return std::nullopt;
  const uint8_t first = data[0];
  if (first & 0x80) return parse_long(data, first);
  if ((first & 0x40) == 0) return std::nullopt;
  Reader r(data);
  r.skip(1);
  ByteView dcid;
  if (!r.bytes(short_dcid_len, dcid)) return std::nullopt;
  PacketHeader h;
  h.type = PacketType::one_rtt;
  h.version = kVersion1;
  h.dcid = ConnectionId(dcid);
  h.pn_offset = r.position();
  h.length = data.size();
  return h;
}

size_t write_packet_header(Bytes& out, const HeaderSpec& s) {
  Writer w(out);
  const auto pn_bits = static_cast<uint8_t>(s.pn_len - 1);
  if (s.type == PacketType::one_rtt) {
    w.u8(static_cast<uint8_t>(0x40 | (s.key_phase ? 0x04 : 0) | pn_bits));
    w.bytes(s.dcid.view());
  } else {
    const uint8_t type_bits = s.type == PacketType::initial    ? 0
                              : s.type == PacketType::zero_rtt ? 1
                              : s.type == PacketType::handshake ? 2
                                                                : 3;
    w.u8(static_cast<uint8_t>(0xc0 | (type_bits << 4) | pn_bits));
    w.uint(s.version, 4);
    w.u8(s.dcid.len);
    w.bytes(s.dcid.view());
    w.u8(s.scid.len);
    w.bytes(s.scid.view());
    if (s.type == PacketType::initial) {
      w.varint(s.token.size());
      w.bytes(s.token);
    }
    w.varint_fixed(0, 2);  // Length, set once the payload is known
  }
  const size_t pn_offset = w.size();
  w.uint(s.pn, s.pn_len);
  return pn_offset;
}

void set_long_length(Bytes& out, size_t pn_offset, size_t length) {
  write_varint_fixed(out.data() + pn_offset - 2, length, 2);
}

Bytes write_version_negotiation(const ConnectionId& dcid, const ConnectionId& scid,
                                std::span<const uint32_t> versions, uint8_t unused_bits) {
  Bytes out;
  Writer w(out);
  w.u8(static_cast<uint8_t>(0x80 | (unused_bits & 0x7f)));
  w.uint(0, 4);
  w.u8(dcid.len);
  w.bytes(dcid.view());
  w.u8(scid.len);
  w.bytes(scid.view());
  for (uint32_t v : versions) w.uint(v, 4);
  return out;
}

}  // namespace conform::quic
