// Connection lookup by connection ID and addresses.
#include "dissect/connection_table.hpp"

#include <algorithm>

namespace conform::dissect {

void ConnectionTable::add_cid(std::size_t connection, Side owner, const ConnectionId& cid) {
  if (cid.empty()) return;
  owners_[cid] = {connection, owner};
  lengths_.insert(cid.size());
  auto& list = cids_[cids_key(connection, owner)];
  if (std::find(list.begin(), list.end(), cid) == list.end()) list.push_back(cid);
}

void ConnectionTable::add_addresses(std::size_t connection, NetEndpoint client, NetEndpoint server) {
  const Key key{client, server};
  client_server_[key] = connection;
  auto& keys = addresses_[connection];
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
}

void ConnectionTable::remove(std::size_t connection) {
  for (Side owner : {Side::client, Side::server}) {
    const auto it = cids_.find(cids_key(connection, owner));
    if (it == cids_.end()) continue;
    for (const auto& cid : it->second)
      if (const auto o = owners_.find(cid); o != owners_.end() && o->second.first == connection) owners_.erase(o);
    cids_.erase(it);
  }
  if (const auto a = addresses_.find(connection); a != addresses_.end()) {
    for (const Key& key : a->second)
      if (const auto it = client_server_.find(key); it != client_server_.end() && it->second == connection)
        client_server_.erase(it);
    addresses_.erase(a);
  }
}

std::optional<Route> ConnectionTable::by_dcid(const ConnectionId& dcid) const {
  auto it = owners_.find(dcid);
  if (it == owners_.end()) return std::nullopt;
  return Route{it->second.first, other(it->second.second)};
}

std::optional<Route> ConnectionTable::by_short_header(std::span<const std::uint8_t> datagram) const {
  for (std::size_t length : lengths_) {
    if (datagram.size() < 1 + length) continue;
    auto it = owners_.find(datagram.subspan(1, length));
    if (it != owners_.end()) return Route{it->second.first, other(it->second.second)};
  }
  return std::nullopt;
}

std::optional<Route> ConnectionTable::by_addresses(NetEndpoint from, NetEndpoint to) const {
  if (auto it = client_server_.find({from, to}); it != client_server_.end())
    return Route{it->second, Side::client};
  if (auto it = client_server_.find({to, from}); it != client_server_.end())
    return Route{it->second, Side::server};
  return std::nullopt;
}

const std::vector<ConnectionId>& ConnectionTable::cids(std::size_t connection, Side owner) const {
  static const std::vector<ConnectionId> kNone;
  auto it = cids_.find(cids_key(connection, owner));
  return it == cids_.end() ? kNone : it->second;
}

std::size_t short_dcid_length(const std::vector<ConnectionId>& cids,
                              std::span<const std::uint8_t> packet) {
  std::size_t best = 0;
  bool found = false;
  for (const auto& cid : cids) {
    if (packet.size() >= 1 + cid.size() && cid.size() >= best &&
        std::equal(cid.begin(), cid.end(), packet.begin() + 1)) {
      best = cid.size();
      found = true;
    }
  }
  if (found || cids.empty()) return best;
  return cids.back().size();
}

}  // namespace conform::dissect
