// Stream IDs, RFC 9000 §2.1: bit 0 is the initiator (0 client, 1 server),
// bit 1 the direction (0 bidirectional, 1 unidirectional); the rest counts
// streams of that type from 0.
#pragma once

#include <cstdint>

namespace conform::quic {

using StreamId = uint64_t;

enum class Dir : uint8_t { bidi = 0, uni = 1 };

constexpr bool is_server_initiated(StreamId id) { return id & 0x1; }
constexpr Dir dir_of(StreamId id) { return (id & 0x2) ? Dir::uni : Dir::bidi; }
constexpr uint64_t index_of(StreamId id) { return id >> 2; }
constexpr StreamId make_stream_id(uint64_t index, bool server, Dir dir) {
  return (index << 2) | (dir == Dir::uni ? 0x2 : 0) | (server ? 0x1 : 0);
}

}  // namespace conform::quic
