// A datagram selector of a case's `network` table: which datagram of a
// direction an explicit impairment (drop, reorder, duplicate, corrupt) hits,
// written `<sender>:<n>` (the n-th datagram that sender sends, from 1) or
// `<sender>:<type>:<n>` (the n-th datagram carrying a long-header packet of
// that type: initial, 0rtt, handshake, retry).
#pragma once

#include "net/quic_long_header.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

/// `sender` is "server" (each server-to-client direction, counted per
/// client), "client" (every client's direction to the server, each counted
/// on its own), or "client-<k>" (only the k-th client, from 1).
struct DatagramSelector {
  std::string sender;
  std::optional<LongType> type;
  std::int64_t nth = 1;
};

/// Parses one selector; on failure returns nothing and sets `error`.
std::optional<DatagramSelector> parse_selector(std::string_view text, std::string& error);

/// What a direction knows about the datagram it is carrying: who sends it
/// (`group` "client" or "server", `name` "client-2" or "server"), its index
/// among the datagrams of the direction (from 1), the long-header types it
/// carries (bit mask) and for each type its index among the datagrams
/// carrying that type.
struct DatagramPosition {
  std::string_view group;
  std::string_view name;
  std::int64_t index = 0;
  std::uint8_t types = 0;
  std::int64_t type_index[4] = {0, 0, 0, 0};
};

/// Whether `selector` picks the datagram at `pos`.
bool selects(const DatagramSelector& selector, const DatagramPosition& pos);
/// Whether any of `selectors` picks it.
bool any_selects(const std::vector<DatagramSelector>& selectors, const DatagramPosition& pos);

}  // namespace conform
