// Packet number truncation and recovery, RFC 9000 §17.1 and Appendix A.2/A.3:
// a sender sends only the low bits needed to be unambiguous against the
// largest number its peer acknowledged; the receiver expands them against
// the largest number it has received.
#pragma once

#include <cstddef>
#include <cstdint>

namespace conform::quic {

/// Bytes (1..4) to encode `pn` when the peer has acknowledged up to
/// `largest_acked` (-1 when nothing yet): enough for twice the distance
/// (Appendix A.2).
size_t packet_number_length(uint64_t pn, int64_t largest_acked);

/// The full packet number closest to `largest_received + 1` whose low
/// `len` bytes equal `truncated` (Appendix A.3). `largest_received` is -1
/// before any packet of the space was received.
uint64_t decode_packet_number(int64_t largest_received, uint64_t truncated, size_t len);

}  // namespace conform::quic
