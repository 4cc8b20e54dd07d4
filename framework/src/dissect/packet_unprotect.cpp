// Header protection removal and payload decryption of one packet.
#include "dissect/packet_unprotect.hpp"

#include "dissect/packet_number.hpp"

#include <cstring>

namespace conform::dissect {

UnmaskedHeader remove_header_protection(const PacketKeys& keys, std::span<const std::uint8_t> packet,
                                        const ParsedHeader& header,
                                        std::optional<std::uint64_t> largest_received, Bytes& scratch) {
  // The sample starts 4 bytes after the packet number starts, as if the
  // packet number were 4 bytes long (RFC 9001 §5.4.2).
  const auto mask = keys.header_mask(packet.subspan(header.pn_offset + 4, kHeaderSampleLength));
  UnmaskedHeader out;
  // Long headers protect the low 4 bits of the first byte, short headers
  // the low 5 (RFC 9001 §5.4.1).
  out.first_byte = packet[0] ^ (mask[0] & (header.long_header ? 0x0f : 0x1f));
  out.packet_number_length = (out.first_byte & 0x03) + 1u;
  out.header_length = header.pn_offset + out.packet_number_length;
  scratch.resize(packet.size());
  std::memcpy(scratch.data(), packet.data(), out.header_length);
  scratch[0] = out.first_byte;
  std::uint64_t truncated = 0;
  for (unsigned i = 0; i < out.packet_number_length; ++i) {
    scratch[header.pn_offset + i] ^= mask[1 + i];
    truncated = truncated << 8 | scratch[header.pn_offset + i];
  }
  out.packet_number = decode_packet_number(largest_received, truncated, out.packet_number_length);
  return out;
}

std::optional<std::span<const std::uint8_t>> open_payload(const PacketKeys& keys,
                                                          std::span<const std::uint8_t> packet,
                                                          const UnmaskedHeader& header,
                                                          Bytes& scratch) {
  // Copy the ciphertext afresh: a failed open may leave garbage behind.
  std::memcpy(scratch.data() + header.header_length, packet.data() + header.header_length,
              packet.size() - header.header_length);
  auto body = std::span(scratch).subspan(header.header_length, packet.size() - header.header_length);
  auto n = keys.open(header.packet_number, std::span(scratch).first(header.header_length), body);
  if (!n) return std::nullopt;
  return std::span<const std::uint8_t>(body.data(), *n);
}

}  // namespace conform::dissect
