// Owned byte strings and their hexadecimal spelling, as key logs, test
// vectors and the timeline's output write them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace conform::dissect {

using Bytes = std::vector<std::uint8_t>;

/// A QUIC connection ID: 0 to 20 bytes (RFC 9000 §17.2).
using ConnectionId = Bytes;
inline constexpr std::size_t kMaxConnectionIdLength = 20;

/// Lower-case hex, two digits a byte, no separators.
std::string to_hex(std::span<const std::uint8_t> bytes);

/// The bytes spelled by `hex` (either case; spaces and newlines are skipped,
/// so RFC text can be pasted), or nullopt for an odd count or a non-hex digit.
std::optional<Bytes> from_hex(std::string_view hex);

/// `text` between `quote` characters, each byte outside printable ASCII
/// (and `quote` itself) spelled \xNN, so bytes read from a file print
/// safely on one line. Past `max_bytes` bytes of `text` the rest is left
/// out and "..." follows the closing quote.
std::string quote_bytes(std::string_view text, char quote = '"',
                   std::size_t max_bytes = std::string_view::npos);

}  // namespace conform::dissect
