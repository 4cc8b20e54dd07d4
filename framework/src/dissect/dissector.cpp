// The dissector's per-connection state machine: routing datagrams to
// connections, splitting them into packets, letting connections go once
// they have ended. Choosing keys and learning from decrypted frames is in
// dissector_keys.cpp.
#include "dissect/dissector.hpp"

#include "dissect/dissector_state.hpp"
#include "dissect/key_schedule.hpp"
#include "dissect/packet_unprotect.hpp"
#include "dissect/retry_integrity.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::dissect {
namespace {

PacketType type_from_first_byte(std::uint8_t first) {
  if (!(first & 0x80)) return PacketType::one_rtt;
  static constexpr PacketType kLong[] = {PacketType::initial, PacketType::zero_rtt,
                                         PacketType::handshake, PacketType::retry};
  return kLong[(first >> 4) & 0x03];
}

}  // namespace

Dissector::Dissector(const KeyLog& keys, Ends ends) : s_(std::make_unique<State>(keys, ends == Ends::when_silent)) {}
Dissector::~Dissector() = default;

namespace {

// How long `c` stays silent before it ends (Dissector::take_ended), or
// nullopt: never.
std::optional<std::int64_t> silence_that_ends(const Connection& c, bool closed) {
  constexpr std::int64_t kMs = 1'000'000;
  // max_ack_delay: 25 ms unless declared (RFC 9000 §18.2), below 2^14 ms.
  std::uint64_t max_ack_delay_ms = 25;
  for (const auto* tp : {&c.client_parameters, &c.server_parameters})
    if (*tp && (*tp)->max_ack_delay) max_ack_delay_ms = std::max(max_ack_delay_ms, *(*tp)->max_ack_delay);
  const std::int64_t drain = kDrainNs + 3 * kMs * static_cast<std::int64_t>(std::min<std::uint64_t>(max_ack_delay_ms, 1 << 14));
  if (closed) return drain;
  std::optional<std::uint64_t> idle_ms;
  for (const auto* tp : {&c.client_parameters, &c.server_parameters})
    if (*tp && (*tp)->max_idle_timeout && *(*tp)->max_idle_timeout)
      idle_ms = std::min(idle_ms.value_or(UINT64_MAX), *(*tp)->max_idle_timeout);
  if (!idle_ms) return std::nullopt;
  return static_cast<std::int64_t>(std::min<std::uint64_t>(*idle_ms, std::uint64_t{1} << 40)) * kMs + drain;
}

bool closes(const Packet& p) {
  if (p.undecryptable == Undecryptable::stateless_reset) return true;
  return std::any_of(p.frames.begin(), p.frames.end(),
                     [](const Frame& f) { return std::holds_alternative<ConnectionCloseFrame>(f); });
}

// A connection that never got past its Initials never needed its TLS
// secrets; whether the key log holds them is still true or not.
void settle_secrets_found(Connection& c, const KeyLog& keys) {
  if (c.client_random && !c.secrets_found) c.secrets_found = keys.connections.contains(*c.client_random);
}

}  // namespace

// Before the datagram at `now_ns` is routed: a connection silent past its
// end is let go first, so that datagram is not taken for its.
void Dissector::State::end_silent() {
  constexpr std::int64_t kLookEveryNs = 1'000'000'000;
  if (looked_ns && std::abs(now_ns - *looked_ns) < kLookEveryNs) return;
  looked_ns = now_ns;
  for (std::size_t i = 0; i < open.size(); ++i) {
    if (!open[i]) continue;
    const auto& st = state(i);
    if (now_ns < st.last_ns) continue;
    Connection& c = connection(i);
    const auto silence = silence_that_ends(c, st.closed);
    if (!silence || now_ns - st.last_ns <= *silence) continue;
    settle_secrets_found(c, keys);
    ended.push_back(std::move(c));
    open[i].reset();
    ++taken;
    table.remove(i);
  }
}

std::vector<Connection> Dissector::take_ended() { return std::exchange(s_->ended, {}); }

std::size_t Dissector::open() const { return s_->open.size() - s_->taken; }

std::uint64_t Dissector::unattributed() const { return s_->unattributed; }

const Datagram* Dissector::last_added() const {
  if (!s_->last_added) return nullptr;
  const auto [conn, i] = *s_->last_added;
  return s_->open[conn] ? &s_->connection(conn).datagrams[i] : nullptr;
}

void Dissector::secrets_added() {
  for (auto& open : s_->open)
    if (open) open->state.tls_installed = false;
}

Timeline Dissector::finish() {
  Timeline out;
  out.unattributed = std::move(s_->timeline.unattributed);
  // Let go but not taken: still the caller's, in order.
  for (auto& c : s_->ended) out.connections.push_back(std::move(c));
  for (auto& o : s_->open) {
    if (!o) continue;
    settle_secrets_found(o->connection, s_->keys);
    out.connections.push_back(std::move(o->connection));
  }
  std::stable_sort(out.connections.begin(), out.connections.end(),
                   [](const Connection& a, const Connection& b) { return a.index < b.index; });
  return out;
}

void Dissector::add(const CapturedDatagram& d) {
  s_->now_ns = d.time_ns;
  s_->last_added.reset();
  if (s_->ends_connections) s_->end_silent();
  auto unattributed = [&](std::string reason) {
    if (s_->unattributed++ == 0 || !s_->ends_connections)
      s_->timeline.unattributed.push_back({d.frame, d.time_ns, d.from, d.to, d.payload.size(), std::move(reason)});
  };
  if (d.payload.empty()) return unattributed("empty UDP payload");
  auto route = s_->route(d);
  if (!route) {
    if (!(d.payload[0] & 0x40) && (d.payload[0] & 0x80) == 0)
      return unattributed("no known connection, and the Fixed Bit is clear (not QUIC, or greased per RFC 9287)");
    return unattributed("no known connection: unknown connection ID and addresses, and not a client's first Initial");
  }
  auto& datagrams = s_->connection(route->connection).datagrams;
  auto& state = s_->state(route->connection);
  state.last_ns = std::max(state.last_ns, d.time_ns);
  auto push = [&](std::span<const std::uint8_t> bytes, std::vector<Packet> packets, std::size_t padding_after) {
    Datagram out;
    out.frame = d.frame;
    out.time_ns = d.time_ns;
    out.direction = route->sender == Side::client ? Direction::client_to_server : Direction::server_to_client;
    out.size = bytes.size();
    out.from = d.from;
    out.to = d.to;
    out.checksum_offloaded = d.checksum_offloaded;
    out.ttl = d.ttl;
    out.packets = std::move(packets);
    out.padding_after = padding_after;
    state.closed = state.closed || std::any_of(out.packets.begin(), out.packets.end(), closes);
    datagrams.push_back(std::move(out));
    s_->last_added = {route->connection, datagrams.size() - 1};
  };
  const std::span<const std::uint8_t> payload(d.payload);
  std::vector<Packet> packets;
  std::size_t padding_after = 0;
  const std::size_t segment = s_->decode_datagram(*route, payload, packets, padding_after, true);
  s_->follow_addresses(*route, d, packets);
  if (!segment) return push(payload, std::move(packets), padding_after);
  const unsigned count = static_cast<unsigned>((payload.size() + segment - 1) / segment);
  for (unsigned i = 0; i < count; ++i) {
    const auto bytes = payload.subspan(i * segment, std::min(segment, payload.size() - i * segment));
    if (i > 0) {
      packets.clear();
      padding_after = 0;
      s_->decode_datagram(*route, bytes, packets, padding_after, false);
    }
    push(bytes, std::move(packets), padding_after);
    datagrams.back().gso = GsoSegment{i, count, segment};
  }
}

namespace {
// The grease_quic_bit transport parameter (RFC 9287 §3).
constexpr std::uint64_t kGreaseQuicBit = 0x2ab2;
}  // namespace

// Whether the receiver of `r`'s datagrams advertised grease_quic_bit
// (RFC 9287 §3), so that its peer may send packets with the Fixed Bit clear.
bool Dissector::State::receiver_allows_greased_fixed_bit(const Route& r) const {
  const auto& c = connection(r.connection);
  const auto& receiver = r.sender == Side::client ? c.server_parameters : c.client_parameters;
  return receiver && std::any_of(receiver->others.begin(), receiver->others.end(),
                                 [](const auto& p) { return p.first == kGreaseQuicBit; });
}

// Whether the bytes at `offset`, after a packet whose Destination
// Connection ID was `first_dcid`, cannot start a packet the receiver would
// read: the Fixed Bit clear (RFC 9000 §17.2, §17.3.1) where the receiver
// did not allow it to be greased, or a short header not naming the first
// packet's DCID, which a receiver ignores (§12.2). Cloudflare quiche pads
// datagrams with zeros after its packets; its peer advertises
// grease_quic_bit, but zeros name no connection ID of 20 random bytes.
bool Dissector::State::cannot_start_packet(const Route& r, std::span<const std::uint8_t> payload, std::size_t offset,
                                           const ConnectionId& first_dcid) const {
  const std::uint8_t first = payload[offset];
  if (!(first & 0x40) && !receiver_allows_greased_fixed_bit(r)) return true;
  if ((first & 0x80) || first_dcid.empty()) return false;
  return offset + 1 + first_dcid.size() > payload.size() ||
         !std::equal(first_dcid.begin(), first_dcid.end(), payload.begin() + offset + 1);
}

std::size_t Dissector::State::decode_datagram(const Route& r, std::span<const std::uint8_t> payload,
                                              std::vector<Packet>& out, std::size_t& padding_after,
                                              bool may_split) {
  std::size_t offset = 0;
  // Coalesced packets (RFC 9000 §12.2): long headers carry a Length; a short
  // header, Version Negotiation, Retry, or a header that does not parse
  // takes the rest of the datagram. Bytes after a packet that cannot start
  // one are padding (zeros, say): see cannot_start_packet.
  while (offset < payload.size()) {
    if (offset > 0 && cannot_start_packet(r, payload, offset, out.front().dcid)) {
      padding_after = payload.size() - offset;
      break;
    }
    Packet p = decode(r, payload.subspan(offset));
    p.offset = offset;
    if (may_split && p.type == PacketType::one_rtt && p.undecryptable == Undecryptable::authentication_failed)
      if (std::size_t segment = find_gso_segment(r, payload, offset, p.dcid)) {
        p = decode(r, payload.subspan(offset, segment - offset));
        p.offset = offset;
        out.push_back(std::move(p));
        return segment;
      }
    offset += p.length;
    out.push_back(std::move(p));
  }
  return 0;
}

// The GSO segment size of `payload`, whose short header packet at `offset`
// failed to open as one packet running to the end: the first position S
// past it such that every multiple of S starts a short header with the same
// DCID, and the packet from `offset` to S opens. 0 when there is none.
std::size_t Dissector::State::find_gso_segment(const Route& r, std::span<const std::uint8_t> payload,
                                               std::size_t offset, const ConnectionId& dcid) {
  auto starts_packet = [&](std::size_t at) {
    // Header Form 0; the Fixed Bit may be greased (RFC 9287), so not checked.
    return at + 1 + dcid.size() <= payload.size() && (payload[at] & 0x80) == 0 &&
           std::equal(dcid.begin(), dcid.end(), payload.begin() + at + 1);
  };
  constexpr std::size_t kMinShortPacket = 1 + 4 + kHeaderSampleLength;
  int attempts = 0;
  for (std::size_t s = offset + dcid.size() + kMinShortPacket; s < payload.size() && attempts < 8; ++s) {
    if (!starts_packet(s)) continue;
    bool aligned = true;
    for (std::size_t k = 2 * s; k < payload.size() && aligned; k += s) aligned = starts_packet(k);
    if (!aligned) continue;
    ++attempts;
    // decode() changes state only when the packet opens, and then exactly
    // as decoding that packet again will: a failed trial leaves no trace.
    Packet first = decode(r, payload.subspan(offset, s - offset));
    if (first.decrypted()) return s;
  }
  return 0;
}

// An endpoint that moved to new addresses (RFC 9000 §9: a migration, a
// NAT rebinding; Chromium moves to a new port when its path degrades) is
// followed there once a Handshake or 1-RTT packet from them opens (anyone
// on the path can make an Initial packet that opens, and §9 allows no
// migration before the handshake is confirmed): its peer's answers may
// carry an empty connection ID (§5.2), which only the addresses route. An
// address pair another connection holds stays that one's: a late packet of
// an earlier connection does not take it back from a later one.
void Dissector::State::follow_addresses(const Route& r, const CapturedDatagram& d, const std::vector<Packet>& packets) {
  // Nearly every datagram travels between the addresses of the client's
  // first Initial, which the table routes already: no lookup for those.
  const Connection& c = connection(r.connection);
  if (r.sender == Side::client ? d.from == c.client && d.to == c.server : d.from == c.server && d.to == c.client)
    return;
  if (std::none_of(packets.begin(), packets.end(), [](const Packet& p) {
        return p.decrypted() && (p.type == PacketType::handshake || p.type == PacketType::one_rtt);
      }))
    return;
  if (table.by_addresses(d.from, d.to)) return;
  if (r.sender == Side::client)
    table.add_addresses(r.connection, d.from, d.to);
  else
    table.add_addresses(r.connection, d.to, d.from);
}

std::optional<Route> Dissector::State::route(const CapturedDatagram& d) {
  const std::span<const std::uint8_t> payload(d.payload);
  if (payload[0] & 0x80) {
    if (payload.size() >= 6 && payload[5] <= kMaxConnectionIdLength && payload.size() >= 6u + payload[5]) {
      const ConnectionId dcid(payload.begin() + 6, payload.begin() + 6 + payload[5]);
      if (!dcid.empty())
        if (auto r = table.by_dcid(dcid)) return r;
      if (auto r = start_connection(d)) return r;
    }
  } else if (auto r = table.by_short_header(payload)) {
    return r;
  }
  return table.by_addresses(d.from, d.to);
}

// A client's first Initial: an Initial whose DCID is unknown and which
// decrypts with the client Initial keys derived from that very DCID.
std::optional<Route> Dissector::State::start_connection(const CapturedDatagram& d) {
  std::string why;
  auto h = parse_header(d.payload, 0, why);
  if (!h || h->type != PacketType::initial) return std::nullopt;
  const InitialSecrets secrets = initial_secrets(h->dcid);
  auto client = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.client);
  const auto bytes = std::span(d.payload).first(h->end);
  auto unmasked = remove_header_protection(client, bytes, *h, std::nullopt, scratch);
  if (!open_payload(client, bytes, unmasked, scratch)) return std::nullopt;

  const std::size_t conn = open.size();
  Connection c;
  c.index = conn;
  c.client = d.from;
  c.server = d.to;
  c.original_dcid = h->dcid;
  open.push_back(std::make_unique<Open>());
  open.back()->connection = std::move(c);
  ConnectionState st;
  st.initial_keys_dcid = h->dcid;
  st.ep[index(Side::client)].initial.set_keys(client);
  st.ep[index(Side::server)].initial.set_keys(
      PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.server));
  open.back()->state = std::move(st);
  // The original DCID addresses the server until it picks its own (0-RTT
  // and Initial retransmissions use it); the SCID addresses the client.
  table.add_cid(conn, Side::server, h->dcid);
  table.add_cid(conn, Side::client, h->scid);
  table.add_addresses(conn, d.from, d.to);
  return Route{conn, Side::client};
}

Packet Dissector::State::decode(const Route& r, std::span<const std::uint8_t> bytes) {
  Packet p;
  const Side receiver = other(r.sender);
  std::string why;
  auto h = parse_header(bytes, short_dcid_length(table.cids(r.connection, receiver), bytes), why);
  if (!h) {
    p.type = type_from_first_byte(bytes[0]);
    p.space = space_of(p.type);
    p.length = bytes.size();
    p.undecryptable = Undecryptable::malformed_header;
    p.edit_extras().detail = why;
    return p;
  }
  p.type = h->type;
  p.space = space_of(h->type);
  p.length = h->end;
  p.version = h->version;
  p.dcid = h->dcid;
  if (h->long_header) {
    p.edit_extras().scid = h->scid;
    p.edit_extras().token.assign(h->token.begin(), h->token.end());
  }
  const auto packet = bytes.first(h->end);
  switch (h->type) {
    case PacketType::version_negotiation:
      p.edit_extras().supported_versions = supported_versions(packet.subspan(h->pn_offset));
      return p;
    case PacketType::unknown_version:
      p.undecryptable = Undecryptable::unknown_version;
      p.edit_extras().detail = fmt::format("version 0x{:08x}", h->version);
      return p;
    case PacketType::retry: {
      const auto& conn = connection(r.connection);
      const bool intact = retry_integrity_ok(conn.original_dcid, packet);
      p.edit_extras().retry_integrity_ok = intact;
      if (intact) {
        state(r.connection).retry_scid = h->scid;
        table.add_cid(r.connection, Side::server, h->scid);
      }
      return p;
    }
    default: break;
  }
  LevelKeys* keys = level(r.connection, r.sender, p, why);
  if (!keys || keys->empty()) {
    p.undecryptable = Undecryptable::no_keys;
    p.edit_extras().detail = why;
    return p;
  }
  decrypt(r.connection, r.sender, *keys, *h, packet, p);
  if (p.decrypted() && h->long_header) table.add_cid(r.connection, r.sender, h->scid);
  if (p.undecryptable == Undecryptable::authentication_failed && !h->long_header) {
    // A Stateless Reset looks like a short header packet and ends with a
    // token its sender issued (RFC 9000 §10.3).
    std::array<std::uint8_t, 16> tail{};
    std::copy(packet.end() - 16, packet.end(), tail.begin());
    const auto& tokens = state(r.connection).ep[index(r.sender)].reset_tokens;
    if (auto it = tokens.find(tail); it != tokens.end()) {
      p.undecryptable = Undecryptable::stateless_reset;
      p.edit_extras().detail = fmt::format("ends with the Stateless Reset Token of connection ID sequence {} (RFC 9000 §10.3)",
                             it->second);
    }
  }
  return p;
}


Timeline dissect(std::span<const CapturedDatagram> datagrams, const KeyLog& keys) {
  Dissector d(keys);
  for (const auto& datagram : datagrams) d.add(datagram);
  return d.finish();
}

}  // namespace conform::dissect
