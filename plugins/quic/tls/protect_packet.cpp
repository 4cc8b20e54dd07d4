// Packet protection, RFC 9001 §5.3 (payload) and §5.4 (header).
#include "tls/protect_packet.hpp"

#include "codec/packet_number.hpp"

namespace conform::quic {

bool protect_packet(Bytes& buf, size_t start, size_t pn_offset, size_t pn_len, uint64_t pn,
                    const PacketKeys& keys) {
  const size_t header_end = pn_offset + pn_len;
  const size_t payload_len = buf.size() - header_end;
  buf.resize(buf.size() + PacketKeys::kTagLen);
  const ByteView aad(buf.data() + start, header_end - start);
  const ByteView payload(buf.data() + header_end, payload_len);
  if (!keys.seal(pn, aad, payload, buf.data() + header_end)) return false;
  const size_t sample_at = pn_offset + 4;
  if (sample_at + PacketKeys::kSampleLen > buf.size()) return false;
  const auto mask = keys.header_mask(buf.data() + sample_at);
  const bool long_header = buf[start] & 0x80;
  buf[start] ^= mask[0] & (long_header ? 0x0f : 0x1f);
  for (size_t i = 0; i < pn_len; ++i) buf[pn_offset + i] ^= mask[1 + i];
  return true;
}

std::optional<uint8_t> unmasked_first_byte(std::span<const uint8_t> packet, size_t pn_offset,
                                           const PacketKeys& keys) {
  const size_t sample_at = pn_offset + 4;
  if (sample_at + PacketKeys::kSampleLen > packet.size()) return std::nullopt;
  const auto mask = keys.header_mask(packet.data() + sample_at);
  return static_cast<uint8_t>(packet[0] ^ (mask[0] & ((packet[0] & 0x80) ? 0x0f : 0x1f)));
}

std::optional<OpenedPacket> unprotect_packet(std::span<uint8_t> packet, size_t pn_offset,
                                             int64_t largest_received, const PacketKeys& keys) {
  const size_t sample_at = pn_offset + 4;
  if (sample_at + PacketKeys::kSampleLen > packet.size()) return std::nullopt;
  const auto mask = keys.header_mask(packet.data() + sample_at);
  // Unmask in place but remember the header bytes: on an authentication
  // failure the header is restored so a log or a second attempt sees the
  // packet as it arrived.
  const bool long_header = packet[0] & 0x80;
  const uint8_t first = packet[0] ^ (mask[0] & (long_header ? 0x0f : 0x1f));
  const size_t pn_len = (first & 0x03) + 1;
  uint8_t saved[5] = {packet[0]};
  uint64_t truncated = 0;
  for (size_t i = 0; i < pn_len; ++i) {
    saved[1 + i] = packet[pn_offset + i];
    packet[pn_offset + i] ^= mask[1 + i];
    truncated = (truncated << 8) | packet[pn_offset + i];
  }
  packet[0] = first;
  const uint64_t pn = decode_packet_number(largest_received, truncated, pn_len);
  const size_t header_end = pn_offset + pn_len;
  const ByteView aad(packet.data(), header_end);
  const ByteView ciphertext(packet.data() + header_end, packet.size() - header_end);
  const auto len = keys.open(pn, aad, ciphertext, packet.data() + header_end);
  if (!len) {
    packet[0] = saved[0];
    for (size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] = saved[1 + i];
    return std::nullopt;
  }
  return OpenedPacket{pn, pn_len, first, ByteView(packet.data() + header_end, *len)};
}

}  // namespace conform::quic
