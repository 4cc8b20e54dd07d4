// QPACK field sections (RFC 9204) without a dynamic table: we advertise
// SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0, so a peer may only use the static
// table (Appendix A) and literals, and every Required Insert Count is 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codec/buffer.hpp"

namespace conform::quic::h3 {

struct Field {
  std::string name;
  std::string value;
  bool operator==(const Field&) const = default;
};

/// Encodes a field section (§4.5): static-table references where an entry
/// matches, literals (never Huffman-coded) otherwise.
Bytes qpack_encode(const std::vector<Field>& fields);

/// Decodes a field section. nullopt means QPACK_DECOMPRESSION_FAILED
/// (0x200, §6): a dynamic-table reference or a non-zero Required Insert
/// Count, a static index beyond the table, a truncated or bad integer,
/// string or Huffman code.
std::optional<std::vector<Field>> qpack_decode(ByteView section);

}  // namespace conform::quic::h3
