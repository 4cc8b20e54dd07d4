// Packet protection against RFC 9001 Appendix A: the Initial keys derived
// from the client's DCID (A.1), the protected client Initial (A.2), the
// server Initial (A.3) and the ChaCha20-Poly1305 short header packet (A.5).
#include <boost/test/unit_test.hpp>

#include "codec/packet_header.hpp"
#include "tls/protect_packet.hpp"
#include "tls/retry.hpp"
#include "unit/quic_hex.hpp"

using namespace conform::quic;
using conform::quic::test::from_hex;
using conform::quic::test::to_hex;

namespace {

const char* const kDcid = "8394c8f03e515708";

// A.2: the client's CRYPTO frame (a ClientHello), padded to 1162 bytes.
const char* const kClientCrypto =
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868"
    "04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578"
    "616d706c652e636f6dff01000100000a00080006001d00170018001000070005"
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fba"
    "baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400"
    "0d0010000e0403050306030203080408050806002d00020101001c0002400100"
    "3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000"
    "75300901100f088394c8f03e51570806048000ffff";

// A.3: the server's ACK + CRYPTO (ServerHello).
const char* const kServerPayload =
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739"
    "88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94"
    "0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00"
    "020304";
const char* const kServerProtected =
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a"
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3"
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84"
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4"
    "2158407dd074ee";

PacketKeys keys(CipherSuite suite, const Bytes& secret) {
  auto k = PacketKeys::from_secret(suite, secret);
  BOOST_REQUIRE(k);
  return std::move(*k);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_protect_packet_test)

BOOST_AUTO_TEST_CASE(initial_keys_match_appendix_a1) {
  const auto s = derive_initial_secrets(from_hex(kDcid));
  BOOST_TEST(to_hex(s.client) == "c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea");
  const auto c = keys(CipherSuite::aes128gcm, s.client);
  BOOST_TEST(to_hex(c.key()) == "1f369613dd76d5467730efcbe3b1a22d");
  BOOST_TEST(to_hex(c.iv()) == "fa044b2f42a3fd3b46fb255c");
  BOOST_TEST(to_hex(c.hp_key()) == "9f50449e04a0e810283a1e9933adedd2");
  const auto srv = keys(CipherSuite::aes128gcm, s.server);
  BOOST_TEST(to_hex(srv.key()) == "cf3a5331653c364c88f0f379b6067e37");
  BOOST_TEST(to_hex(srv.iv()) == "0ac1493ca1905853b0bba03e");
  BOOST_TEST(to_hex(srv.hp_key()) == "c206b8d9b9f0f37644430b490eeaa314");
}

BOOST_AUTO_TEST_CASE(client_initial_matches_appendix_a2) {
  const auto k = keys(CipherSuite::aes128gcm, derive_initial_secrets(from_hex(kDcid)).client);
  HeaderSpec spec;
  spec.type = PacketType::initial;
  spec.dcid = ConnectionId(from_hex(kDcid));
  spec.pn = 2;
  spec.pn_len = 4;
  Bytes pkt;
  const size_t pn_offset = write_packet_header(pkt, spec);
  set_long_length(pkt, pn_offset, 4 + 1162 + 16);
  BOOST_TEST(to_hex(pkt) == "c300000001088394c8f03e5157080000449e00000002");
  const auto crypto = from_hex(kClientCrypto);
  pkt.insert(pkt.end(), crypto.begin(), crypto.end());
  pkt.resize(pn_offset + 4 + 1162);
  BOOST_REQUIRE(protect_packet(pkt, 0, pn_offset, 4, 2, k));
  BOOST_TEST(pkt.size() == 1200u);
  BOOST_TEST(to_hex(ByteView(pkt).first(32)) ==
             "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11");
  BOOST_TEST(to_hex(ByteView(pkt).last(48)) ==
             "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241"
             "e221af44860018ab0856972e194cd934");

  // The server side: parse, unprotect, get the CRYPTO frame back.
  auto h = parse_packet_header(pkt, 0);
  BOOST_REQUIRE(h);
  BOOST_TEST(h->length == 1200u);
  auto opened = unprotect_packet(pkt, h->pn_offset, -1, k);
  BOOST_REQUIRE(opened);
  BOOST_TEST(opened->pn == 2u);
  BOOST_TEST(opened->payload.size() == 1162u);
  BOOST_TEST(to_hex(opened->payload.first(crypto.size())) == kClientCrypto);
}

BOOST_AUTO_TEST_CASE(server_initial_matches_appendix_a3) {
  const auto k = keys(CipherSuite::aes128gcm, derive_initial_secrets(from_hex(kDcid)).server);
  HeaderSpec spec;
  spec.type = PacketType::initial;
  spec.scid = ConnectionId(from_hex("f067a5502a4262b5"));
  spec.pn = 1;
  spec.pn_len = 2;
  Bytes pkt;
  const size_t pn_offset = write_packet_header(pkt, spec);
  const auto payload = from_hex(kServerPayload);
  set_long_length(pkt, pn_offset, 2 + payload.size() + 16);
  BOOST_TEST(to_hex(pkt) == "c1000000010008f067a5502a4262b50040750001");
  pkt.insert(pkt.end(), payload.begin(), payload.end());
  BOOST_REQUIRE(protect_packet(pkt, 0, pn_offset, 2, 1, k));
  BOOST_TEST(to_hex(pkt) == kServerProtected);

  auto wire = from_hex(kServerProtected);
  auto h = parse_packet_header(wire, 0);
  BOOST_REQUIRE(h);
  auto opened = unprotect_packet(wire, h->pn_offset, 0, k);
  BOOST_REQUIRE(opened);
  BOOST_TEST(opened->pn == 1u);
  BOOST_TEST(to_hex(opened->payload) == kServerPayload);
}

BOOST_AUTO_TEST_CASE(chacha20_short_header_matches_appendix_a5) {
  const auto secret = from_hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
  const auto k = keys(CipherSuite::chacha20, secret);
  BOOST_TEST(to_hex(k.key()) == "c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8");
  BOOST_TEST(to_hex(k.iv()) == "e0459b3474bdd0e44a41c144");
  BOOST_TEST(to_hex(k.hp_key()) == "25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4");
  // Packet number 654360564, 3 bytes, empty DCID, payload one PING.
  Bytes pkt = from_hex("4200bff401");
  BOOST_REQUIRE(protect_packet(pkt, 0, 1, 3, 654360564, k));
  BOOST_TEST(to_hex(pkt) == "4cfe4189655e5cd55c41f69080575d7999c25a5bfb");
  auto opened = unprotect_packet(pkt, 1, 654360563, k);
  BOOST_REQUIRE(opened);
  BOOST_TEST(opened->pn == 654360564u);
  BOOST_TEST(to_hex(opened->payload) == "01");
  BOOST_TEST(to_hex(next_generation_secret(CipherSuite::chacha20, secret)) ==
             "1223504755036d556342ee9361d253421a826c9ecdf3c7148684b36b714881f9");
}

BOOST_AUTO_TEST_CASE(retry_integrity_matches_appendix_a4) {
  const ConnectionId odcid(from_hex(kDcid));
  const auto rfc = from_hex("ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba");
  BOOST_TEST(verify_retry(rfc, odcid));
  auto bad = rfc;
  bad[5] ^= 1;
  BOOST_TEST(!verify_retry(bad, odcid));
  // Our writer uses unused bits 0 (first byte 0xf0): its own tag verifies.
  const auto ours = write_retry(ConnectionId(), ConnectionId(from_hex("f067a5502a4262b5")),
                                from_hex("746f6b656e"), odcid);
  BOOST_TEST(to_hex(ByteView(ours).first(20)) == "f0000000010008f067a5502a4262b5746f6b656e");
  BOOST_TEST(verify_retry(ours, odcid));
  auto h = parse_packet_header(ours, 0);
  BOOST_REQUIRE(h);
  BOOST_TEST((h->type == PacketType::retry));
  BOOST_TEST(to_hex(h->token) == "746f6b656e");
}

BOOST_AUTO_TEST_CASE(a_corrupted_packet_fails_authentication_and_keeps_its_header) {
  const auto k = keys(CipherSuite::aes128gcm, derive_initial_secrets(from_hex(kDcid)).server);
  auto wire = from_hex(kServerProtected);
  wire.back() ^= 1;
  const auto before = to_hex(ByteView(wire).first(20));
  BOOST_TEST(!unprotect_packet(wire, 18, 0, k));
  BOOST_TEST(to_hex(ByteView(wire).first(20)) == before);
  BOOST_TEST(!unprotect_packet(std::span<uint8_t>(wire).first(25), 18, 0, k));  // too short to sample
}

BOOST_AUTO_TEST_SUITE_END()
