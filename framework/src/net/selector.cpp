// Parsing and matching of datagram selectors.
#include "net/selector.hpp"

#include <charconv>

namespace conform {
namespace {

bool valid_sender(std::string_view s) {
  if (s == "client" || s == "server") return true;
  if (s.substr(0, 7) != "client-" || s.size() == 7) return false;
  for (char c : s.substr(7))
    if (c < '0' || c > '9') return false;
  return s[7] != '0';
}

}  // namespace

std::optional<DatagramSelector> parse_selector(std::string_view text, std::string& error) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    auto colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) {
    error = "'" + std::string(text) +
            "' must read <sender>:<n> or <sender>:<type>:<n>, e.g. client:3 or server:initial:1";
    return std::nullopt;
  }
  DatagramSelector sel;
  if (!valid_sender(parts[0])) {
    error = "'" + std::string(text) + "': sender must be client, client-<k> (k from 1) or server";
    return std::nullopt;
  }
  sel.sender = std::string(parts[0]);
  if (parts.size() == 3) {
    sel.type = long_type_from_string(parts[1]);
    if (!sel.type) {
      error = "'" + std::string(text) + "': packet type must be initial, 0rtt, handshake or retry";
      return std::nullopt;
    }
  }
  const std::string_view n = parts.back();
  auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), sel.nth);
  if (ec != std::errc() || end != n.data() + n.size() || sel.nth < 1) {
    error = "'" + std::string(text) + "': the datagram number must be an integer from 1";
    return std::nullopt;
  }
  return sel;
}

bool selects(const DatagramSelector& s, const DatagramPosition& pos) {
  if (s.sender != pos.group && s.sender != pos.name) return false;
  if (!s.type) return pos.index == s.nth;
  const auto t = static_cast<unsigned>(*s.type);
  return (pos.types & (1u << t)) && pos.type_index[t] == s.nth;
}

bool any_selects(const std::vector<DatagramSelector>& selectors, const DatagramPosition& pos) {
  for (const auto& s : selectors)
    if (selects(s, pos)) return true;
  return false;
}

}  // namespace conform
