// Choosing the keys of each packet, decrypting it, and learning from its
// frames what the next packets need (ClientHello random, cipher suite,
// transport parameters, connection IDs, Stateless Reset Tokens).
#include "dissect/dissector_state.hpp"

#include "dissect/frame_parser.hpp"
#include "dissect/key_schedule.hpp"
#include "dissect/packet_unprotect.hpp"
#include "dissect/tls_hello.hpp"
#include "dissect/transport_parameters.hpp"

#include <fmt/format.h>

namespace conform::dissect {
namespace {

std::string secret_name(Side sender, PacketType type) {
  const char* who = sender == Side::client ? "CLIENT" : "SERVER";
  switch (type) {
    case PacketType::zero_rtt: return "CLIENT_EARLY_TRAFFIC_SECRET";
    case PacketType::handshake: return fmt::format("{}_HANDSHAKE_TRAFFIC_SECRET", who);
    default: return fmt::format("{}_TRAFFIC_SECRET_0", who);
  }
}

}  // namespace

LevelKeys* Dissector::State::level(std::size_t conn, Side sender, const Packet& p, std::string& why) {
  ConnectionState& st = state(conn);
  EndpointState& ep = st.ep[index(sender)];
  if (p.type == PacketType::initial) {
    // After a Retry the client derives new Initial keys from the DCID it
    // now uses, the Retry's SCID (RFC 9001 §5.2); the server follows.
    if (sender == Side::client && st.retry_scid && p.dcid == *st.retry_scid &&
        st.initial_keys_dcid != p.dcid) {
      const InitialSecrets secrets = initial_secrets(p.dcid);
      st.ep[index(Side::client)].initial.set_keys(
          PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.client));
      st.ep[index(Side::server)].initial.set_keys(
          PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.server));
      st.initial_keys_dcid = p.dcid;
      st.ep[index(Side::client)].largest[index(PacketSpace::initial)].reset();
      st.ep[index(Side::server)].largest[index(PacketSpace::initial)].reset();
      restart_client_hello(conn);
    }
    return &ep.initial;
  }
  install_tls_secrets(conn);
  LevelKeys* keys = p.type == PacketType::handshake ? &ep.handshake
                    : p.type == PacketType::zero_rtt ? &ep.zero_rtt
                                                     : &ep.application;
  if (keys->empty()) {
    const Connection& c = connection(conn);
    if (!c.client_random)
      why = "no ClientHello seen, so no key log line can be matched to this connection";
    else if (!c.secrets_found)
      why = fmt::format("key log has no secrets for client random {}", to_hex(*c.client_random));
    else
      why = fmt::format("key log has no {} for client random {}", secret_name(sender, p.type),
                        to_hex(*c.client_random));
  }
  return keys;
}

// The server kept no state at its Retry, so the client's next Initials carry
// a ClientHello from CRYPTO offset 0 again (RFC 9000 §17.2.5.2). It may be
// a new one, with a new random (quiche starts TLS again): the key log is
// keyed by that one, so the connection's random and the client's transport
// parameters are read afresh from it.
void Dissector::State::restart_client_hello(std::size_t conn) {
  ConnectionState& st = state(conn);
  EndpointState& client = st.ep[index(Side::client)];
  client.initial_crypto = CryptoStream();
  client.parameters_read = false;
  st.tls_installed = false;
  Connection& c = connection(conn);
  c.client_random.reset();
  c.client_parameters.reset();
}

void Dissector::State::install_tls_secrets(std::size_t conn) {
  ConnectionState& st = state(conn);
  Connection& c = connection(conn);
  if (st.tls_installed || !c.client_random) return;
  st.tls_installed = true;
  auto it = keys.connections.find(*c.client_random);
  if (it == keys.connections.end()) return;
  c.secrets_found = true;
  const TlsSecrets& s = it->second;
  // Only levels without keys: after secrets_added() a level in use keeps
  // its keys and their updates.
  auto set = [&](LevelKeys& level, const Bytes& secret) {
    if (!secret.empty() && level.empty()) level.set_secret(secret, c.cipher_suite);
  };
  set(st.ep[index(Side::client)].zero_rtt, s.client_early);
  set(st.ep[index(Side::client)].handshake, s.client_handshake);
  set(st.ep[index(Side::server)].handshake, s.server_handshake);
  set(st.ep[index(Side::client)].application, s.client_application);
  set(st.ep[index(Side::server)].application, s.server_application);
}

void Dissector::State::decrypt(std::size_t conn, Side sender, LevelKeys& keys, const ParsedHeader& h,
                               std::span<const std::uint8_t> bytes, Packet& p) {
  if (keys.confirmed()) {
    // A copy: generation() may grow the vector the reference points into.
    const PacketKeys generation0 = keys.generation(0);
    if (try_open(conn, sender, keys, generation0, h, bytes, p)) return;
  } else {
    // The suite is not known yet: each candidate in turn (rare, so copied).
    const std::vector<PacketKeys> candidates(keys.candidates().begin(), keys.candidates().end());
    for (const PacketKeys& candidate : candidates)
      if (try_open(conn, sender, keys, candidate, h, bytes, p)) return;
  }
  p.undecryptable = Undecryptable::authentication_failed;
  p.edit_extras().detail = p.type == PacketType::one_rtt
                 ? "AEAD tag did not verify with the current, next or previous 1-RTT keys"
                 : fmt::format("AEAD tag did not verify with the {} keys", to_string(p.type));
}

bool Dissector::State::try_open(std::size_t conn, Side sender, LevelKeys& keys, const PacketKeys& candidate,
                                const ParsedHeader& h, std::span<const std::uint8_t> bytes, Packet& p) {
  auto& largest = state(conn).ep[index(sender)].largest[index(p.space)];
  const UnmaskedHeader um = remove_header_protection(candidate, bytes, h, largest, scratch);
  // Key generations to try (RFC 9001 §6.3, §6.5): the current one when the
  // Key Phase bit matches it; else the next (a key update) and then the
  // previous (a packet reordered across the update). Header protection keys
  // never change (§6), so one unmasking serves all.
  std::array<unsigned, 2> generations{0, 0};
  std::size_t tries = 1;
  unsigned phase = 0;
  if (p.type == PacketType::one_rtt) {
    phase = (um.first_byte >> 2) & 1;
    const unsigned current = keys.confirmed() ? keys.current() : 0;
    if (phase == current % 2) {
      generations[0] = current;
    } else {
      generations[0] = current + 1;
      if (current > 0) generations[tries++] = current - 1;
    }
  }
  for (std::size_t i = 0; i < tries; ++i) {
    const unsigned g = generations[i];
    PacketKeys next;
    const PacketKeys* aead = &candidate;
    if (keys.confirmed())
      aead = &keys.generation(g);
    else if (g > 0)
      aead = &(next = candidate.next_generation());
    auto plaintext = open_payload(*aead, bytes, um, scratch);
    if (!plaintext) continue;
    if (!keys.confirmed()) {
      // 0-RTT keys come from a resumed session whose suite may differ from
      // this handshake's, so only the other levels teach the suite.
      if (p.type != PacketType::zero_rtt) learn_suite(conn, candidate.suite());
      keys.confirm(candidate.suite());
    }
    if (g > keys.current()) keys.set_current(g);
    p.packet_number = um.packet_number;
    p.packet_number_length = um.packet_number_length;
    if (p.type == PacketType::one_rtt) {
      p.key_phase = phase;
      p.key_generation = g;
      p.reserved_bits = (um.first_byte >> 3) & 0x03;
    } else {
      p.reserved_bits = (um.first_byte >> 2) & 0x03;
    }
    p.payload_length = plaintext->size();
    if (!largest || um.packet_number > *largest) largest = um.packet_number;
    p.frames = parse_frames(*plaintext);
    learn(conn, sender, p, *plaintext);
    return true;
  }
  return false;
}

// What decrypted frames teach about the packets still to come.
void Dissector::State::learn(std::size_t conn, Side sender, const Packet& p,
                             std::span<const std::uint8_t> plaintext) {
  Connection& c = connection(conn);
  EndpointState& ep = state(conn).ep[index(sender)];
  bool crypto_added = false;
  for (const Frame& f : p.frames) {
    if (const auto* crypto = std::get_if<CryptoFrame>(&f)) {
      CryptoStream* stream = p.type == PacketType::initial     ? &ep.initial_crypto
                             : p.type == PacketType::handshake ? &ep.handshake_crypto
                                                               : nullptr;
      if (!stream) continue;  // 1-RTT CRYPTO: session tickets, not needed
      stream->add(crypto->offset, plaintext.subspan(crypto->data_at, static_cast<std::size_t>(crypto->length)));
      crypto_added = true;
    } else if (const auto* s = std::get_if<StreamFrame>(&f); s && s->offset == 0 && (s->stream_id & 0x02)) {
      // The first bytes of a unidirectional stream say what the application
      // made of it (HTTP/3's stream type, RFC 9114 §6.2).
      auto& head = c.uni_stream_heads[s->stream_id];
      const std::size_t n = std::min<std::size_t>(s->length, kStreamHeadBytes);
      if (n > head.size()) head.assign(plaintext.begin() + s->data_at, plaintext.begin() + s->data_at + n);
    } else if (const auto* ncid = std::get_if<NewConnectionIdFrame>(&f)) {
      table.add_cid(conn, sender, ncid->connection_id);
      ep.reset_tokens[ncid->reset_token] = ncid->sequence;
    }
  }
  if (!crypto_added) return;
  if (sender == Side::client && !c.client_random)
    c.client_random = client_hello_random(ep.initial_crypto.contiguous());
  if (sender == Side::server && !c.cipher_suite)
    if (auto code = server_hello_cipher_suite(ep.initial_crypto.contiguous()))
      if (auto suite = cipher_suite_from_code(*code)) learn_suite(conn, *suite);
  read_transport_parameters(conn, sender);
}

// The client's transport parameters are in its ClientHello (Initial), the
// server's in EncryptedExtensions (Handshake) (RFC 9001 §8.2).
void Dissector::State::read_transport_parameters(std::size_t conn, Side sender) {
  EndpointState& ep = state(conn).ep[index(sender)];
  if (ep.parameters_read) return;
  const bool client = sender == Side::client;
  auto message = client ? handshake_message(ep.initial_crypto.contiguous(), 1)
                        : handshake_message(ep.handshake_crypto.contiguous(), 8);
  if (!message) return;
  ep.parameters_read = true;
  Connection& c = connection(conn);
  if (!client) c.alpn = selected_alpn(*message).value_or("");
  auto value = transport_parameters_extension(client ? 1 : 8, *message);
  if (!value) {
    c.notes.push_back(fmt::format("the {} sent no quic_transport_parameters extension (RFC 9001 §8.2)",
                                  client ? "client" : "server"));
    return;
  }
  std::string why;
  auto parameters = parse_transport_parameters(*value, why);
  if (!parameters) {
    c.notes.push_back(fmt::format("{} transport parameters: {}", client ? "client" : "server", why));
    return;
  }
  // The server's token lets a Stateless Reset on the first path be known.
  if (!client && parameters->stateless_reset_token) ep.reset_tokens[*parameters->stateless_reset_token] = 0;
  (client ? c.client_parameters : c.server_parameters) = std::move(*parameters);
}

void Dissector::State::learn_suite(std::size_t conn, CipherSuite suite) {
  connection(conn).cipher_suite = suite;
  for (EndpointState& ep : state(conn).ep)
    for (LevelKeys* level : {&ep.zero_rtt, &ep.handshake, &ep.application})
      if (!level->empty()) level->confirm(suite);
}

}  // namespace conform::dissect
