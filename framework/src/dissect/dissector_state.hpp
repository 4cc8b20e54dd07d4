// Inside the dissector (dissector.cpp, dissector_keys.cpp): what it
// tracks of each connection and endpoint, and the state machine's steps.
// Not for use outside dissect/.
#pragma once

#include "dissect/connection_table.hpp"
#include "dissect/crypto_stream.hpp"
#include "dissect/dissector.hpp"
#include "dissect/header.hpp"
#include "dissect/level_keys.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace conform::dissect {
// Named, not anonymous: Dissector::State (external linkage) holds these, and
// in a unity batch GCC warns about a member of an anonymous namespace's type
// (-Wsubobject-linkage).
namespace dissector_state {

// What the dissector tracks of one endpoint: the keys of the packets it
// sends, their largest packet numbers, and the start of its Initial CRYPTO
// stream.
struct EndpointState {
  LevelKeys initial, zero_rtt, handshake, application;
  // Stateless Reset Tokens this endpoint issued (NEW_CONNECTION_ID), with
  // the sequence number of their connection ID.
  std::map<std::array<std::uint8_t, 16>, std::uint64_t> reset_tokens;
  std::array<std::optional<std::uint64_t>, 3> largest;  // by PacketSpace
  CryptoStream initial_crypto;
  CryptoStream handshake_crypto;
  bool parameters_read = false;
};

struct ConnectionState {
  std::array<EndpointState, 2> ep;  // by Side
  ConnectionId initial_keys_dcid;   // what the Initial keys were derived from
  std::optional<ConnectionId> retry_scid;
  bool tls_installed = false;
  // For Dissector::take_ended: the time of its latest datagram, and
  // whether a CONNECTION_CLOSE or Stateless Reset was seen.
  std::int64_t last_ns = 0;
  bool closed = false;
};

}  // namespace dissector_state

using dissector_state::ConnectionState;
using dissector_state::EndpointState;

inline std::size_t index(Side s) { return static_cast<std::size_t>(s); }
inline std::size_t index(PacketSpace s) { return static_cast<std::size_t>(s); }

struct Dissector::State {
  const KeyLog& keys;
  // The datagrams of no connection; the connections are in `open`.
  Timeline timeline;
  // Each connection not yet taken (take_ended) with what the dissector
  // tracks of it, by index; a taken one leaves a null pointer, so memory
  // holds the connections open, not all the capture's.
  struct Open {
    Connection connection;
    ConnectionState state;
  };
  std::vector<std::unique_ptr<Open>> open;
  Connection& connection(std::size_t i) { return open[i]->connection; }
  const Connection& connection(std::size_t i) const { return open[i]->connection; }
  ConnectionState& state(std::size_t i) { return open[i]->state; }
  ConnectionTable table;
  Bytes scratch;
  // The time of the datagram added last, and of the last look for ended
  // connections.
  std::int64_t now_ns = 0;
  std::optional<std::int64_t> looked_ns;
  std::size_t taken = 0;  // connections let go so far
  std::vector<Connection> ended;  // let go, not yet taken
  std::uint64_t unattributed = 0;
  // Connection and datagram index of the datagram added last.
  std::optional<std::pair<std::size_t, std::size_t>> last_added;

  State(const KeyLog& k, bool ends) : keys(k), ends_connections(ends) {}
  bool ends_connections;

  void end_silent();

  void follow_addresses(const Route& r, const CapturedDatagram& d, const std::vector<Packet>& packets);
  std::optional<Route> route(const CapturedDatagram& d);
  std::size_t decode_datagram(const Route& r, std::span<const std::uint8_t> payload, std::vector<Packet>& out,
                              std::size_t& padding_after, bool may_split);
  bool receiver_allows_greased_fixed_bit(const Route& r) const;
  bool cannot_start_packet(const Route& r, std::span<const std::uint8_t> payload, std::size_t offset,
                           const ConnectionId& first_dcid) const;
  std::size_t find_gso_segment(const Route& r, std::span<const std::uint8_t> payload, std::size_t offset,
                               const ConnectionId& dcid);
  std::optional<Route> start_connection(const CapturedDatagram& d);
  Packet decode(const Route& r, std::span<const std::uint8_t> bytes);
  LevelKeys* level(std::size_t conn, Side sender, const Packet& p, std::string& why);
  void install_tls_secrets(std::size_t conn);
  void restart_client_hello(std::size_t conn);
  void decrypt(std::size_t conn, Side sender, LevelKeys& keys, const ParsedHeader& h,
               std::span<const std::uint8_t> bytes, Packet& p);
  bool try_open(std::size_t conn, Side sender, LevelKeys& keys, const PacketKeys& candidate,
                const ParsedHeader& h, std::span<const std::uint8_t> bytes, Packet& p);
  void learn(std::size_t conn, Side sender, const Packet& p, std::span<const std::uint8_t> plaintext);
  void learn_suite(std::size_t conn, CipherSuite suite);
  void read_transport_parameters(std::size_t conn, Side sender);
};

}  // namespace conform::dissect
