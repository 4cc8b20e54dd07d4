// The Huffman code of HPACK (RFC 7541 §5.2, Appendix B), which QPACK string
// literals use too (RFC 9204 §4.1.2). Only decoding: our encoder sends
// literals raw (H = 0), which every decoder must accept.
#pragma once

#include <optional>
#include <string>

#include "codec/buffer.hpp"

namespace conform::quic::h3 {

/// Decodes a Huffman-coded string. nullopt when the input holds the EOS
/// symbol, or ends in padding longer than 7 bits or not made of 1 bits
/// (RFC 7541 §5.2: both are decoding errors).
std::optional<std::string> huffman_decode(ByteView coded);

}  // namespace conform::quic::h3
