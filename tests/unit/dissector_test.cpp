// The dissector end to end on datagrams: RFC 9001 Appendix A packets, then
// synthetic connections with key-logged Handshake and 1-RTT keys, key
// updates, coalescing, Retry, and every way a packet stays undecryptable.
#include "dissect/dissector.hpp"
#include "dissect/timeline_format.hpp"
#include "dissect/key_schedule.hpp"
#include "unit/quic_packet_builder.hpp"
#include "unit/rfc9001_vectors.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <sstream>

using namespace conform;
using namespace conform::dissect;
using conform::test::hex;
namespace v = conform::test::rfc9001;

namespace {

const NetEndpoint kClient{0x7f000001, 50000};
const NetEndpoint kServer{0x7f000002, 4433};
// The ClientHello random inside the RFC 9001 A.2 client Initial.
constexpr const char* kRfcClientRandom = "ebf8fa56f12939b9584a3896472ec40bb863cfd3e86804fe3a47f06a2b69484c";
constexpr const char* kServerCid = "f067a5502a4262b5";

struct Capture {
  std::vector<CapturedDatagram> datagrams;
  void add(bool from_client, Bytes payload) {
    CapturedDatagram d;
    d.frame = datagrams.size() + 1;
    d.time_ns = static_cast<std::int64_t>(d.frame) * 1'000'000;
    d.from = from_client ? kClient : kServer;
    d.to = from_client ? kServer : kClient;
    d.payload = std::move(payload);
    datagrams.push_back(std::move(d));
  }
};

// Secrets for the RFC connection: any 32 bytes do, the dissector only
// derives keys from them.
Bytes secret(std::uint8_t fill) { return Bytes(32, fill); }

KeyLog key_log_for(const char* client_random) {
  const std::string r = client_random;
  const std::string text = "# test key log\n"
                           "CLIENT_HANDSHAKE_TRAFFIC_SECRET " + r + " " + to_hex(secret(0x11)) + "\n" +
                           "SERVER_HANDSHAKE_TRAFFIC_SECRET " + r + " " + to_hex(secret(0x22)) + "\n" +
                           "CLIENT_TRAFFIC_SECRET_0 " + r + " " + to_hex(secret(0x33)) + "\n" +
                           "SERVER_TRAFFIC_SECRET_0 " + r + " " + to_hex(secret(0x44)) + "\n";
  KeyLog log = parse_key_log(text, "test.keys");
  BOOST_REQUIRE(log.problems.empty());
  return log;
}

PacketKeys keys_of(std::uint8_t fill) {
  return PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secret(fill));
}

template <class F>
const F& frame_at(const Packet& p, std::size_t i) {
  BOOST_REQUIRE_GT(p.frames.size(), i);
  const F* f = std::get_if<F>(&p.frames[i]);
  BOOST_REQUIRE_MESSAGE(f, "frame " << i << " is " << frame_name(p.frames[i]));
  return *f;
}

// The RFC's two Initials, then a server Handshake coalesced behind nothing,
// client and server 1-RTT packets, a key update and a corrupted packet.
Capture full_connection() {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  // The server Initial coalesced with a Handshake packet (RFC 9000 §12.2).
  Bytes server = hex(v::kServerProtectedPacket);
  const Bytes handshake = test::long_packet(keys_of(0x22), 2, {}, hex(kServerCid), 0, {0x06, 0x00, 0x04, 1, 2, 3, 4});
  server.insert(server.end(), handshake.begin(), handshake.end());
  cap.add(false, server);
  cap.add(true, test::long_packet(keys_of(0x11), 2, hex(kServerCid), {}, 0, {0x06, 0x00, 0x02, 9, 9}));
  // 1-RTT: a STREAM, then the client updates its keys (Key Phase 1).
  cap.add(true, test::short_packet(keys_of(0x33), hex(kServerCid), 0, 0, {0x0a, 0x04, 0x05, 'h', 'e', 'l', 'l', 'o'}));
  cap.add(false, test::short_packet(keys_of(0x44), {}, 0, 0, {0x12, 0x40, 0x64, 0x1e}));
  cap.add(true, test::short_packet(keys_of(0x33).next_generation(), hex(kServerCid), 1, 1, {0x01}));
  Bytes bad = test::short_packet(keys_of(0x33).next_generation(), hex(kServerCid), 2, 1, {0x01});
  bad.back() ^= 0x01;
  cap.add(true, bad);
  return cap;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dissector_test)

BOOST_AUTO_TEST_CASE(rfc_initials_decode_to_their_frames) {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  cap.add(false, hex(v::kServerProtectedPacket));
  const Timeline t = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  BOOST_TEST(t.unattributed.empty());
  const Connection& c = t.connections[0];
  BOOST_TEST(to_hex(c.original_dcid) == v::kClientDcid);
  BOOST_TEST_REQUIRE(c.client_random.has_value());
  BOOST_TEST(to_hex(*c.client_random) == kRfcClientRandom);
  BOOST_TEST_REQUIRE(c.cipher_suite.has_value());
  BOOST_TEST(static_cast<int>(*c.cipher_suite) == 0x1301);
  BOOST_TEST_REQUIRE(c.datagrams.size() == 2u);
  BOOST_TEST_REQUIRE(c.client_parameters.has_value());
  BOOST_TEST(*c.client_parameters->initial_max_streams_bidi == 16u);
  BOOST_TEST(!c.server_parameters.has_value());  // in EncryptedExtensions, not shown in A.3

  const Datagram& d0 = c.datagrams[0];
  BOOST_TEST(d0.frame == 1u);
  BOOST_TEST(d0.size == 1200u);
  BOOST_TEST((d0.direction == Direction::client_to_server));
  BOOST_TEST_REQUIRE(d0.packets.size() == 1u);
  const Packet& p0 = d0.packets[0];
  BOOST_TEST((p0.type == PacketType::initial));
  BOOST_TEST(p0.decrypted());
  BOOST_TEST(*p0.packet_number == 2u);
  BOOST_TEST(p0.packet_number_length == 4u);
  BOOST_TEST(p0.length == 1200u);
  BOOST_TEST(p0.payload_length == 1162u);
  BOOST_TEST(p0.reserved_bits == 0u);
  BOOST_TEST_REQUIRE(p0.frames.size() == 2u);
  const auto& crypto = frame_at<CryptoFrame>(p0, 0);
  BOOST_TEST(crypto.offset == 0u);
  BOOST_TEST(crypto.length == 241u);
  BOOST_TEST(frame_at<PaddingFrame>(p0, 1).count == 1162u - 245u);

  const Datagram& d1 = c.datagrams[1];
  BOOST_TEST((d1.direction == Direction::server_to_client));
  BOOST_TEST_REQUIRE(d1.packets.size() == 1u);
  const Packet& p1 = d1.packets[0];
  BOOST_TEST(p1.decrypted());
  BOOST_TEST(*p1.packet_number == 1u);
  BOOST_TEST(p1.packet_number_length == 2u);
  BOOST_TEST(to_hex(p1.extras().scid) == kServerCid);
  BOOST_TEST_REQUIRE(p1.frames.size() == 2u);
  const auto& ack = frame_at<AckFrame>(p1, 0);
  BOOST_TEST(ack.largest == 0u);
  BOOST_TEST_REQUIRE(ack.ranges.size() == 1u);
  BOOST_TEST(ack.ranges[0].smallest == 0u);
  BOOST_TEST(frame_at<CryptoFrame>(p1, 1).length == 90u);
}

// Cloudflare quiche fills its datagrams with zeros after the packets
// (captures of interop/server-probes-coalesce-raw): a zero byte has the
// Fixed Bit clear, so it cannot start a packet (RFC 9000 §17.2, §17.3.1),
// and the client advertised no grease_quic_bit (RFC 9287) here. Padding,
// not an undecryptable packet; a Handshake packet behind the Initial is
// still one.
BOOST_AUTO_TEST_CASE(zeros_after_the_packets_are_padding_not_a_packet) {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  Bytes server = hex(v::kServerProtectedPacket);
  const std::size_t initial = server.size();
  server.resize(initial + 40, 0x00);
  cap.add(false, server);
  const Timeline t = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  const Datagram& d = t.connections[0].datagrams.at(1);
  BOOST_TEST(d.size == initial + 40);
  BOOST_TEST_REQUIRE(d.packets.size() == 1u);
  BOOST_TEST(d.packets[0].decrypted());
  BOOST_TEST(d.padding_after == 40u);
  std::ostringstream text;
  print_timeline(text, t);
  BOOST_TEST(text.str().find("| 40B padding: cannot start a packet") != std::string::npos, text.str());
  // The same bytes behind a Handshake packet with the Fixed Bit set.
  const Timeline full = dissect::dissect(full_connection().datagrams, key_log_for(kRfcClientRandom));
  BOOST_TEST(full.connections.at(0).datagrams.at(1).packets.size() == 2u);
  BOOST_TEST(full.connections.at(0).datagrams.at(1).padding_after == 0u);
}

BOOST_AUTO_TEST_CASE(key_log_opens_handshake_and_1rtt_with_key_update) {
  const Capture cap = full_connection();
  const KeyLog keys = key_log_for(kRfcClientRandom);
  const Timeline t = dissect::dissect(cap.datagrams, keys);
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  BOOST_TEST(t.unattributed.empty());
  const Connection& c = t.connections[0];
  BOOST_TEST(c.secrets_found);
  BOOST_TEST_REQUIRE(c.datagrams.size() == 7u);

  const Datagram& coalesced = c.datagrams[1];
  BOOST_TEST_REQUIRE(coalesced.packets.size() == 2u);
  BOOST_TEST(coalesced.packets[1].offset == 135u);  // 18-byte header + Length 117
  BOOST_TEST((coalesced.packets[1].type == PacketType::handshake));
  BOOST_TEST(coalesced.packets[1].decrypted());
  BOOST_TEST(frame_at<CryptoFrame>(coalesced.packets[1], 0).length == 4u);

  const Packet& client_hs = c.datagrams[2].packets.at(0);
  BOOST_TEST(client_hs.decrypted());
  BOOST_TEST((client_hs.space == PacketSpace::handshake));

  const Packet& stream = c.datagrams[3].packets.at(0);
  BOOST_TEST(stream.decrypted());
  BOOST_TEST((stream.type == PacketType::one_rtt));
  BOOST_TEST(to_hex(stream.dcid) == kServerCid);  // DCID length learned from the handshake
  BOOST_TEST(*stream.key_phase == 0u);
  const auto& sf = frame_at<StreamFrame>(stream, 0);
  BOOST_TEST(sf.stream_id == 4u);
  BOOST_TEST(sf.length == 5u);
  BOOST_TEST(!sf.fin);

  const Packet& server_1rtt = c.datagrams[4].packets.at(0);
  BOOST_TEST(server_1rtt.decrypted());
  BOOST_TEST(server_1rtt.dcid.empty());
  const auto& ms = frame_at<MaxStreamsFrame>(server_1rtt, 0);
  BOOST_TEST(ms.bidi);
  BOOST_TEST(ms.maximum == 100u);
  BOOST_TEST(std::holds_alternative<HandshakeDoneFrame>(server_1rtt.frames.at(1)));

  const Packet& updated = c.datagrams[5].packets.at(0);
  BOOST_TEST(updated.decrypted());
  BOOST_TEST(*updated.key_phase == 1u);
  BOOST_TEST(updated.key_generation == 1u);
  BOOST_TEST(*updated.packet_number == 1u);

  const Packet& bad = c.datagrams[6].packets.at(0);
  BOOST_TEST(!bad.decrypted());
  BOOST_TEST((bad.undecryptable == Undecryptable::authentication_failed));
}

BOOST_AUTO_TEST_CASE(without_secrets_packets_stay_with_the_reason) {
  const Capture cap = full_connection();
  const Timeline none = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST_REQUIRE(none.connections.size() == 1u);
  const Packet& hs = none.connections[0].datagrams[1].packets.at(1);
  BOOST_TEST((hs.undecryptable == Undecryptable::no_keys));
  BOOST_TEST(hs.extras().detail.find(kRfcClientRandom) != std::string::npos);
  // Every datagram is still there, attributed to its connection.
  BOOST_TEST(none.connections[0].datagrams.size() == cap.datagrams.size());

  const KeyLog other = key_log_for("00000000000000000000000000000000000000000000000000000000000000aa");
  const Timeline t = dissect::dissect(cap.datagrams, other);
  BOOST_TEST(!t.connections[0].secrets_found);
  const Packet& p = t.connections[0].datagrams[3].packets.at(0);
  BOOST_TEST((p.undecryptable == Undecryptable::no_keys));
  BOOST_TEST(p.extras().detail.find("key log has no secrets for client random") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(stateless_reset_is_recognised_by_its_token) {
  Capture cap = full_connection();
  // The server issues a connection ID with a reset token, then resets.
  const Bytes ncid = hex("1801000401020304 00112233445566778899aabbccddeeff");
  cap.add(false, test::short_packet(keys_of(0x44), {}, 1, 0, ncid));
  Bytes reset = hex("4bf1f2f3f4f5f6f7f8f9fafbfcfdfeff10111213");
  const Bytes token = hex("00112233445566778899aabbccddeeff");
  reset.insert(reset.end(), token.begin(), token.end());
  cap.add(false, reset);
  const Timeline t = dissect::dissect(cap.datagrams, key_log_for(kRfcClientRandom));
  const auto& dgs = t.connections.at(0).datagrams;
  BOOST_REQUIRE_EQUAL(dgs.size(), cap.datagrams.size());
  BOOST_TEST(dgs[dgs.size() - 2].packets.at(0).decrypted());
  const Packet& p = dgs.back().packets.at(0);
  BOOST_TEST((p.undecryptable == Undecryptable::stateless_reset));
  BOOST_TEST(p.extras().detail.find("sequence 1") != std::string::npos, p.extras().detail);
  // The tampered packet of full_connection() is no reset: no token matches.
  BOOST_TEST((dgs[6].packets.at(0).undecryptable == Undecryptable::authentication_failed));
}

BOOST_AUTO_TEST_CASE(retry_is_verified_and_initial_keys_follow_the_new_dcid) {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  cap.add(false, hex(v::kRetryPacket));
  const Bytes new_dcid = hex(kServerCid);
  const InitialSecrets s = initial_secrets(new_dcid);
  const auto client_keys = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, s.client);
  cap.add(true, test::long_packet(client_keys, 0, new_dcid, {}, 3, {0x01}, Bytes{'t', 'o', 'k', 'e', 'n'}));
  const Timeline t = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  const auto& dgs = t.connections[0].datagrams;
  BOOST_TEST_REQUIRE(dgs.size() == 3u);
  const Packet& retry = dgs[1].packets.at(0);
  BOOST_TEST((retry.type == PacketType::retry));
  BOOST_TEST(*retry.extras().retry_integrity_ok);
  BOOST_TEST(std::string(retry.extras().token.begin(), retry.extras().token.end()) == "token");
  const Packet& again = dgs[2].packets.at(0);
  BOOST_TEST(again.decrypted());
  BOOST_TEST(*again.packet_number == 3u);
  BOOST_TEST(std::string(again.extras().token.begin(), again.extras().token.end()) == "token");
}

// Cloudflare quiche starts TLS again after a Retry: the Initial that follows
// carries a new ClientHello from CRYPTO offset 0 with a new random, and the
// key log names only that one. The connection takes the second random, so
// the client's Handshake packet decrypts.
BOOST_AUTO_TEST_CASE(a_new_client_hello_after_retry_chooses_the_key_log_entry) {
  constexpr const char* kSecondRandom = "2222222222222222222222222222222222222222222222222222222222222222";
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  cap.add(false, hex(v::kRetryPacket));
  const Bytes new_dcid = hex(kServerCid);
  const auto client_keys =
      PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, initial_secrets(new_dcid).client);
  // CRYPTO at offset 0: ClientHello header, legacy_version, the new random.
  Bytes crypto = hex("06 00 26 01 000022 0303");
  const Bytes random = hex(kSecondRandom);
  crypto.insert(crypto.end(), random.begin(), random.end());
  cap.add(true, test::long_packet(client_keys, 0, new_dcid, {}, 1, crypto, Bytes{'t', 'o', 'k', 'e', 'n'}));
  cap.add(true, test::long_packet(keys_of(0x11), 2, new_dcid, {}, 0, {0x01}));
  const Timeline t = dissect::dissect(cap.datagrams, key_log_for(kSecondRandom));
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  const Connection& c = t.connections[0];
  BOOST_TEST_REQUIRE(c.client_random.has_value());
  BOOST_TEST(to_hex(*c.client_random) == kSecondRandom);
  BOOST_TEST(c.secrets_found);
  BOOST_TEST_REQUIRE(c.datagrams.size() == 4u);
  const Packet& handshake = c.datagrams[3].packets.at(0);
  BOOST_TEST((handshake.type == PacketType::handshake));
  BOOST_TEST(handshake.decrypted(), handshake.extras().detail);
  frame_at<PingFrame>(handshake, 0);
}

BOOST_AUTO_TEST_CASE(strays_are_kept_apart_with_a_reason) {
  Capture cap;
  cap.add(true, Bytes{});                         // empty payload
  cap.add(true, Bytes{0x00, 0x01, 0x02, 0x03});   // not QUIC
  cap.add(false, hex(v::kServerProtectedPacket));  // a server Initial of no known connection
  const Timeline t = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST(t.connections.empty());
  BOOST_TEST_REQUIRE(t.unattributed.size() == 3u);
  BOOST_TEST(t.unattributed[0].reason == "empty UDP payload");
  BOOST_TEST(t.unattributed[1].reason.find("Fixed Bit is clear") != std::string::npos);
  BOOST_TEST(t.unattributed[2].frame == 3u);
}

BOOST_AUTO_TEST_CASE(truncated_and_unknown_packets_are_recorded) {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  Bytes cut = hex(v::kServerProtectedPacket);
  cut.resize(60);  // Length now runs past the datagram
  cap.add(false, cut);
  // Version Negotiation to the client's (empty) SCID, by addresses.
  cap.add(false, Bytes{0x80, 0, 0, 0, 0, 0, 8, 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08, 0, 0, 0, 1,
                       0x1a, 0x2a, 0x3a, 0x4a});
  const Timeline t = dissect::dissect(cap.datagrams, KeyLog{});
  BOOST_TEST_REQUIRE(t.connections.size() == 1u);
  const auto& dgs = t.connections[0].datagrams;
  BOOST_TEST_REQUIRE(dgs.size() == 3u);
  const Packet& truncated = dgs[1].packets.at(0);
  BOOST_TEST((truncated.undecryptable == Undecryptable::malformed_header));
  BOOST_TEST(truncated.length == 60u);
  BOOST_TEST(truncated.extras().detail.find("runs past the end") != std::string::npos);
  const Packet& vn = dgs[2].packets.at(0);
  BOOST_TEST((vn.type == PacketType::version_negotiation));
  BOOST_TEST(vn.extras().supported_versions == (std::vector<std::uint32_t>{1, 0x1a2a3a4a}));
}

// A connection seen only as the client's Initial never needed its TLS
// secrets; whether the key log holds them still shows (a note "no secrets
// for this connection" would otherwise be wrong).
BOOST_AUTO_TEST_CASE(secrets_found_needs_no_packet_beyond_the_initial) {
  Capture cap;
  cap.add(true, hex(v::kClientProtectedPacket));
  BOOST_TEST(dissect::dissect(cap.datagrams, key_log_for(kRfcClientRandom)).connections.at(0).secrets_found);
  BOOST_TEST(!dissect::dissect(cap.datagrams, KeyLog{}).connections.at(0).secrets_found);
}

namespace {

// A stray datagram at `time_ns`: it moves the capture's clock, nothing else.
CapturedDatagram stray_at(std::int64_t time_ns, std::uint64_t frame) {
  CapturedDatagram d;
  d.frame = frame;
  d.time_ns = time_ns;
  d.from = {0x0a000001, 53};
  d.to = {0x0a000002, 53};
  return d;
}

std::string text_of(const Connection& c) {
  Timeline t;
  t.connections.push_back(c);
  std::ostringstream out;
  print_timeline(out, t);
  return out.str();
}

}  // namespace

// The RFC connection's client sets max_idle_timeout 30000 ms (RFC 9001
// A.2's ClientHello: 01 04 80 00 75 30); the server sets none. It ends once
// silent for 30 s plus three PTOs at the initial RTT with the default
// max_ack_delay: 30 s + 2.997 s + 75 ms = 33.072 s.
BOOST_AUTO_TEST_CASE(an_idle_connection_ends_after_its_idle_timeout) {
  const Capture cap = full_connection();
  const KeyLog keys = key_log_for(kRfcClientRandom);
  Dissector d(keys, Dissector::Ends::when_silent);
  for (const auto& datagram : cap.datagrams) d.add(datagram);
  BOOST_TEST(d.take_ended().empty());
  const std::int64_t last = cap.datagrams.back().time_ns;
  d.add(stray_at(last + 10'000'000'000, 8));
  BOOST_TEST(d.take_ended().empty());
  d.add(stray_at(last + 33'071'000'000, 9));
  BOOST_TEST(d.take_ended().empty());
  // It looks once a second of capture time at most: a second on.
  d.add(stray_at(last + 34'071'000'000, 10));
  auto ended = d.take_ended();
  BOOST_TEST_REQUIRE(ended.size() == 1u);
  BOOST_TEST(ended[0].index == 0u);
  BOOST_TEST(ended[0].datagrams.size() == cap.datagrams.size());
  BOOST_TEST(ended[0].client_parameters->max_idle_timeout.value() == 30000u);
  BOOST_TEST(ended[0].secrets_found);
  BOOST_TEST(d.unattributed() == 3u);
  const Timeline rest = d.finish();
  BOOST_TEST(rest.connections.empty());
  // Only the first datagram of no connection is kept, the others counted.
  BOOST_TEST_REQUIRE(rest.unattributed.size() == 1u);
  BOOST_TEST(rest.unattributed[0].frame == 8u);
}

// captures/ngtcp2/two-connections.pcap, as tshark decodes it: the first
// connection's CONNECTION_CLOSE at frame 10 (quic.frame_type == 0x1c), its
// last datagram frame 11 at 0.032 s, the second connection's first frame 12
// at 3.762 s: 3.73 s of silence, more than the 3.072 s a closed connection
// drains (2.997 s + 3 x 25 ms), so frame 12 ends the first. Its connection
// IDs then route nothing: the second connection is dissected as alone.
BOOST_AUTO_TEST_CASE(a_closed_connection_ends_after_its_draining_period) {
  const std::string base = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/two-connections";
  const auto contents = read_capture(base + ".pcap");
  const KeyLog keys = read_key_log(base + ".keys");
  const Timeline whole = dissect::dissect(contents.datagrams, keys);
  BOOST_TEST_REQUIRE(whole.connections.size() == 2u);
  Dissector d(keys, Dissector::Ends::when_silent);
  std::vector<Connection> ended;
  for (const auto& datagram : contents.datagrams) {
    d.add(datagram);
    for (auto& c : d.take_ended()) ended.push_back(std::move(c));
    if (datagram.frame == 11) BOOST_TEST(ended.empty());
    if (datagram.frame == 12) BOOST_TEST(ended.size() == 1u);
  }
  BOOST_TEST_REQUIRE(ended.size() == 1u);
  Timeline rest = d.finish();
  BOOST_TEST_REQUIRE(rest.connections.size() == 1u);
  ended.push_back(std::move(rest.connections[0]));
  for (std::size_t i = 0; i < 2; ++i) {
    BOOST_TEST(ended[i].index == i);
    // The same connection as dissecting the whole capture gives.
    BOOST_TEST(text_of(ended[i]) == text_of(whole.connections[i]));
  }
  BOOST_TEST(ended[0].datagrams.back().frame == 11u);
  BOOST_TEST(ended[1].datagrams.front().frame == 12u);
}

// A datagram of an ended connection's IDs and addresses, after its end, is
// not its: the RFC connection (idle timeout 30 s), then its client's first
// Initial again 40 s later, which starts a connection of its own; without
// ends, the same Initial is the first connection's.
BOOST_AUTO_TEST_CASE(a_datagram_after_its_connection_ended_is_not_its) {
  const Capture cap = full_connection();
  const KeyLog keys = key_log_for(kRfcClientRandom);
  CapturedDatagram again = cap.datagrams.front();
  again.frame = cap.datagrams.size() + 1;
  again.time_ns = cap.datagrams.back().time_ns + 40'000'000'000;
  Dissector ending(keys, Dissector::Ends::when_silent);
  for (const auto& datagram : cap.datagrams) ending.add(datagram);
  ending.add(again);
  const auto ended = ending.take_ended();
  BOOST_TEST_REQUIRE(ended.size() == 1u);
  BOOST_TEST(ended[0].datagrams.size() == cap.datagrams.size());
  const Timeline rest = ending.finish();
  BOOST_TEST_REQUIRE(rest.connections.size() == 1u);
  BOOST_TEST(rest.connections[0].index == 1u);
  BOOST_TEST(rest.connections[0].datagrams.size() == 1u);

  Dissector whole(keys);
  for (const auto& datagram : cap.datagrams) whole.add(datagram);
  whole.add(again);
  BOOST_TEST(whole.take_ended().empty());
  const Timeline all = whole.finish();
  BOOST_TEST_REQUIRE(all.connections.size() == 1u);
  BOOST_TEST(all.connections[0].datagrams.size() == cap.datagrams.size() + 1);
}

BOOST_AUTO_TEST_SUITE_END()
