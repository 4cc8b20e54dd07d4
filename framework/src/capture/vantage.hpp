// Where a capture was taken, and so what it shows of each endpoint
// (docs/offline.md, "Vantage"). A capture on an endpoint's host shows
// that endpoint's datagrams when it sent them and its peer's when they
// reached it: what it knew, when. Anywhere else, each side's datagrams are
// seen a one-way delay the capture cannot measure after they were sent, or
// before they arrive, and one lost beyond the capture point looks
// delivered.
#pragma once

#include "dissect/connection_table.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace conform {

enum class Vantage {
  client,  ///< on the client's host
  server,  ///< on the server's host
  path,    ///< between them (a relay, a tap, a middlebox), or behind a drop at an endpoint
  both,    ///< on one host running both endpoints (loopback), with nothing dropped past it
};

constexpr std::string_view to_string(Vantage v) {
  switch (v) {
    case Vantage::client: return "client";
    case Vantage::server: return "server";
    case Vantage::path: return "path";
    case Vantage::both: return "both";
  }
  return "path";
}

/// The accepted spellings, for an error that names them.
inline constexpr std::string_view kVantageNames = "client, server, path, both";

constexpr std::optional<Vantage> parse_vantage(std::string_view text) {
  for (auto v : {Vantage::client, Vantage::server, Vantage::path, Vantage::both})
    if (text == to_string(v)) return v;
  return std::nullopt;
}

/// Whether a capture from `v` shows what `endpoint` sent and received at
/// the moment it did: the basis of judging what it knew.
constexpr bool at_endpoint(Vantage v, dissect::Side endpoint) {
  return v == Vantage::both || (v == Vantage::client && endpoint == dissect::Side::client) ||
         (v == Vantage::server && endpoint == dissect::Side::server);
}

/// "the client's host", "the path between the endpoints", ...: how a
/// verdict names where its capture was taken.
std::string describe(Vantage v);

/// The file in a case or unit folder that says where its captures were
/// taken (one line, a to_string() spelling); without it each capture is
/// where vantage_by_name() puts it, as conform's runs write them.
inline constexpr std::string_view kVantageFile = "vantage";

/// Where a capture conform's runs write was taken, by its file name:
/// server.pcap at the server, client.pcap and client-N.pcap at a client
/// (the simulator's taps and the UDP relay's stand at each endpoint),
/// loopback.pcap at both (the TCP relay's, on the one host its client,
/// relay and server share); any other name on the path.
Vantage vantage_by_name(std::string_view file);

/// What `folder`'s vantage file says, nullopt without one. Throws InputError
/// naming the file when it holds no vantage.
std::optional<Vantage> folder_vantage(const std::string& folder);

/// Every capture (*.pcap) of `folder`, in name order, with where it was
/// taken: the folder's vantage file for all, else by name.
std::vector<std::pair<std::string, Vantage>> capture_vantages(const std::string& folder);

}  // namespace conform
