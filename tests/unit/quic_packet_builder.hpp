// Builds protected QUIC v1 packets for the dissector's tests (RFC 9000 §17,
// RFC 9001 §5.3-5.4), written here from the RFC independently of the
// dissector's own decoding path.
#pragma once

#include "dissect/packet_protection.hpp"

#include <boost/test/unit_test.hpp>

namespace conform::test {

using dissect::Bytes;
using dissect::PacketKeys;

inline Bytes hex(const char* text) {
  auto b = dissect::from_hex(text);
  BOOST_REQUIRE(b.has_value());
  return *b;
}

inline void put_varint(Bytes& out, std::uint64_t v) {
  if (v < 64) {
    out.push_back(static_cast<std::uint8_t>(v));
  } else if (v < 16384) {
    out.push_back(static_cast<std::uint8_t>(0x40 | v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
  } else if (v < (1u << 30)) {
    for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>((i == 3 ? 0x80 : 0) | v >> (8 * i)));
  } else {
    for (int i = 7; i >= 0; --i) out.push_back(static_cast<std::uint8_t>((i == 7 ? 0xc0 : 0) | v >> (8 * i)));
  }
}

// Seals `payload` after `header` (which ends with the packet number) and
// applies header protection.
inline Bytes protect(const PacketKeys& keys, Bytes header, std::size_t pn_offset, std::uint64_t pn,
                     const Bytes& payload, const PacketKeys* hp_keys = nullptr) {
  const std::size_t pn_len = (header[0] & 0x03) + 1;
  const Bytes sealed = keys.seal(pn, header, payload);
  Bytes packet = std::move(header);
  packet.insert(packet.end(), sealed.begin(), sealed.end());
  const auto mask = (hp_keys ? *hp_keys : keys).header_mask(std::span(packet).subspan(pn_offset + 4, 16));
  packet[0] ^= mask[0] & ((packet[0] & 0x80) ? 0x0f : 0x1f);
  for (std::size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] ^= mask[1 + i];
  return packet;
}

// Pads a payload with PADDING so the header protection sample fits.
inline Bytes padded(Bytes payload, std::size_t at_least = 20) {
  if (payload.size() < at_least) payload.resize(at_least, 0x00);
  return payload;
}

/// A long header packet (type_bits: 0 Initial, 1 0-RTT, 2 Handshake) with a
/// 2-byte packet number.
inline Bytes long_packet(const PacketKeys& keys, unsigned type_bits, const Bytes& dcid, const Bytes& scid,
                         std::uint64_t pn, const Bytes& payload_in, const Bytes& token = {}) {
  const Bytes payload = padded(payload_in);
  Bytes h{static_cast<std::uint8_t>(0xc0 | type_bits << 4 | 0x01), 0, 0, 0, 1};
  h.push_back(static_cast<std::uint8_t>(dcid.size()));
  h.insert(h.end(), dcid.begin(), dcid.end());
  h.push_back(static_cast<std::uint8_t>(scid.size()));
  h.insert(h.end(), scid.begin(), scid.end());
  if (type_bits == 0) {
    put_varint(h, token.size());
    h.insert(h.end(), token.begin(), token.end());
  }
  // Length as a 2-byte varint: packet number + payload + tag.
  const std::size_t length = 2 + payload.size() + 16;
  h.push_back(static_cast<std::uint8_t>(0x40 | length >> 8));
  h.push_back(static_cast<std::uint8_t>(length));
  const std::size_t pn_offset = h.size();
  h.push_back(static_cast<std::uint8_t>(pn >> 8));
  h.push_back(static_cast<std::uint8_t>(pn));
  return protect(keys, h, pn_offset, pn, payload);
}

/// A short header packet with a 2-byte packet number.
inline Bytes short_packet(const PacketKeys& keys, const Bytes& dcid, std::uint64_t pn, unsigned key_phase,
                          const Bytes& payload_in, const PacketKeys* hp_keys = nullptr) {
  const Bytes payload = padded(payload_in);
  Bytes h{static_cast<std::uint8_t>(0x40 | key_phase << 2 | 0x01)};
  h.insert(h.end(), dcid.begin(), dcid.end());
  const std::size_t pn_offset = h.size();
  h.push_back(static_cast<std::uint8_t>(pn >> 8));
  h.push_back(static_cast<std::uint8_t>(pn));
  return protect(keys, h, pn_offset, pn, payload, hp_keys);
}

}  // namespace conform::test
