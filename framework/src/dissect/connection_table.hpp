// Which connection a datagram belongs to, and which endpoint sent it: by the
// Destination Connection ID (each endpoint chooses the IDs it is addressed
// by, RFC 9000 §5.1), or by the address pair when a connection ID is empty
// (§5.2) or not yet known.
#pragma once

#include "dissect/bytes.hpp"

#include "capture/pcap_reader.hpp"

#include <algorithm>
#include <functional>
#include <span>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace conform::dissect {

enum class Side : std::uint8_t { client = 0, server = 1 };
inline Side other(Side s) { return s == Side::client ? Side::server : Side::client; }

struct Route {
  std::size_t connection = 0;
  Side sender = Side::client;
};

class ConnectionTable {
 public:
  /// Records that `owner` of `connection` is addressed by `cid` (ignored
  /// when empty: an empty ID names no one).
  void add_cid(std::size_t connection, Side owner, const ConnectionId& cid);
  /// Records the addresses of a connection's client and server.
  void add_addresses(std::size_t connection, NetEndpoint client, NetEndpoint server);
  /// Forgets `connection`: its IDs and addresses route nothing more (those a
  /// later connection took over stay that one's).
  void remove(std::size_t connection);

  /// The connection of a long header packet addressed to `dcid`.
  std::optional<Route> by_dcid(const ConnectionId& dcid) const;
  /// The connection of a short header packet: the longest known connection
  /// ID that prefixes the bytes after the first byte.
  std::optional<Route> by_short_header(std::span<const std::uint8_t> datagram) const;
  std::optional<Route> by_addresses(NetEndpoint from, NetEndpoint to) const;

  /// The connection IDs `owner` of `connection` is addressed by, oldest first.
  const std::vector<ConnectionId>& cids(std::size_t connection, Side owner) const;

 private:
  using Key = std::pair<NetEndpoint, NetEndpoint>;  // (client, server)

  // Hashed and searchable by a view, so a lookup per datagram allocates
  // nothing and compares one ID, not a tree's path of them.
  struct ByteHash {
    using is_transparent = void;
    std::size_t operator()(std::span<const std::uint8_t> id) const {
      return std::hash<std::string_view>{}({reinterpret_cast<const char*>(id.data()), id.size()});
    }
  };
  struct ByteEqual {
    using is_transparent = void;
    bool operator()(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) const {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
  };
  std::unordered_map<ConnectionId, std::pair<std::size_t, Side>, ByteHash, ByteEqual> owners_;
  std::set<std::size_t, std::greater<>> lengths_;
  std::map<Key, std::size_t> client_server_;
  // By connection: what remove() takes out again, so letting a connection
  // go costs its own entries, not a walk over every open connection's.
  std::unordered_map<std::size_t, std::vector<Key>> addresses_;
  // By connection * 2 + owner: read for every short header packet.
  std::unordered_map<std::size_t, std::vector<ConnectionId>> cids_;
  static std::size_t cids_key(std::size_t connection, Side owner) {
    return connection * 2 + static_cast<std::size_t>(owner);
  }
};

/// The DCID length of a short header packet addressed to an endpoint known
/// by `cids`: the longest that prefixes the bytes after the first byte, else
/// the newest ID's length (0 when the endpoint uses empty IDs).
std::size_t short_dcid_length(const std::vector<ConnectionId>& cids,
                              std::span<const std::uint8_t> packet);

}  // namespace conform::dissect
