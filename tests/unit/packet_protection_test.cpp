// Packet protection against RFC 9001 Appendix A: key derivation (A.1), the
// protected client and server Initials byte for byte (A.2, A.3), the Retry
// integrity tag (A.4) and ChaCha20-Poly1305 with a short header (A.5).
#include "dissect/key_schedule.hpp"
#include "dissect/packet_protection.hpp"
#include "dissect/retry_integrity.hpp"
#include "unit/rfc9001_vectors.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform::dissect;
namespace v = conform::test::rfc9001;

namespace {

Bytes hex(const char* text) {
  auto b = from_hex(text);
  BOOST_REQUIRE(b.has_value());
  return *b;
}

// Protects one packet the way RFC 9001 §5.3-5.4 describes: seal the payload,
// sample 4 bytes after the start of the packet number, mask the first byte's
// low bits (4 for long headers, 5 for short) and the packet number bytes.
Bytes protect(const PacketKeys& keys, const Bytes& header, std::size_t pn_offset,
              std::uint64_t pn, const Bytes& plaintext) {
  Bytes packet = header;
  const std::size_t pn_len = (header[0] & 0x03) + 1;
  const Bytes sealed = keys.seal(pn, header, plaintext);
  packet.insert(packet.end(), sealed.begin(), sealed.end());
  const auto mask = keys.header_mask(std::span(packet).subspan(pn_offset + 4, 16));
  packet[0] ^= mask[0] & ((packet[0] & 0x80) ? 0x0f : 0x1f);
  for (std::size_t i = 0; i < pn_len; ++i) packet[pn_offset + i] ^= mask[1 + i];
  return packet;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(packet_protection_test)

BOOST_AUTO_TEST_CASE(a1_initial_secrets_and_keys) {
  const Bytes dcid = hex(v::kClientDcid);
  BOOST_TEST(to_hex(hkdf_extract(HashAlgorithm::sha256, kInitialSaltV1, dcid)) ==
             to_hex(hex(v::kInitialSecret)));
  const InitialSecrets secrets = initial_secrets(dcid);
  BOOST_TEST(to_hex(secrets.client) == to_hex(hex(v::kClientInitialSecret)));
  BOOST_TEST(to_hex(secrets.server) == to_hex(hex(v::kServerInitialSecret)));

  const auto client = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.client);
  BOOST_TEST(to_hex(client.key()) == v::kClientKey);
  BOOST_TEST(to_hex(client.iv()) == v::kClientIv);
  BOOST_TEST(to_hex(client.hp()) == v::kClientHp);
  const auto server = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256, secrets.server);
  BOOST_TEST(to_hex(server.key()) == v::kServerKey);
  BOOST_TEST(to_hex(server.iv()) == v::kServerIv);
  BOOST_TEST(to_hex(server.hp()) == v::kServerHp);
}

BOOST_AUTO_TEST_CASE(a2_client_initial_is_protected_to_the_exact_bytes) {
  const auto keys = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256,
                                            initial_secrets(hex(v::kClientDcid)).client);
  Bytes plaintext = hex(v::kClientCryptoFrame);
  plaintext.resize(1162, 0x00);  // PADDING frames
  const Bytes header = hex(v::kClientUnprotectedHeader);
  BOOST_TEST(to_hex(keys.header_mask(hex(v::kClientSample))) == v::kClientMask);
  const Bytes packet = protect(keys, header, 18, 2, plaintext);
  BOOST_TEST(packet.size() == 1200u);
  BOOST_TEST(to_hex(packet) == to_hex(hex(v::kClientProtectedPacket)));
}

BOOST_AUTO_TEST_CASE(a3_server_initial_is_protected_to_the_exact_bytes) {
  const auto keys = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256,
                                            initial_secrets(hex(v::kClientDcid)).server);
  BOOST_TEST(to_hex(keys.header_mask(hex(v::kServerSample))) == v::kServerMask);
  const Bytes packet = protect(keys, hex(v::kServerUnprotectedHeader), 18, 1, hex(v::kServerPayload));
  BOOST_TEST(to_hex(packet) == to_hex(hex(v::kServerProtectedPacket)));
}

BOOST_AUTO_TEST_CASE(a3_open_recovers_the_server_payload_and_rejects_tampering) {
  const auto keys = PacketKeys::from_secret(CipherSuite::aes_128_gcm_sha256,
                                            initial_secrets(hex(v::kClientDcid)).server);
  const Bytes header = hex(v::kServerUnprotectedHeader);
  const Bytes packet = hex(v::kServerProtectedPacket);
  const Bytes body(packet.begin() + 20, packet.end());
  Bytes copy = body;
  auto n = keys.open(1, header, copy);
  BOOST_REQUIRE(n.has_value());
  BOOST_TEST(to_hex(std::span(copy).first(*n)) == to_hex(hex(v::kServerPayload)));
  copy = body;
  copy[5] ^= 1;
  BOOST_TEST(!keys.open(1, header, copy).has_value());
  copy = body;
  BOOST_TEST(!keys.open(2, header, copy).has_value());  // wrong nonce
}

BOOST_AUTO_TEST_CASE(a4_retry_integrity_tag) {
  const Bytes retry = hex(v::kRetryPacket);
  const Bytes odcid = hex(v::kClientDcid);
  const auto tag = retry_integrity_tag(odcid, std::span(retry).first(retry.size() - 16));
  BOOST_TEST(to_hex(tag) == to_hex(std::span(retry).last(16)));
  BOOST_TEST(retry_integrity_ok(odcid, retry));
  Bytes other = odcid;
  other[0] ^= 0xff;
  BOOST_TEST(!retry_integrity_ok(other, retry));
}

BOOST_AUTO_TEST_CASE(a5_chacha20_short_header) {
  const auto keys = PacketKeys::from_secret(CipherSuite::chacha20_poly1305_sha256, hex(v::kChachaSecret));
  BOOST_TEST(to_hex(keys.key()) == to_hex(hex(v::kChachaKey)));
  BOOST_TEST(to_hex(keys.iv()) == v::kChachaIv);
  BOOST_TEST(to_hex(keys.hp()) == to_hex(hex(v::kChachaHp)));
  BOOST_TEST(to_hex(next_traffic_secret(HashAlgorithm::sha256, keys.secret())) ==
             to_hex(hex(v::kChachaKu)));
  const Bytes header = hex(v::kChachaUnprotectedHeader);
  const Bytes plaintext = {0x01};
  BOOST_TEST(to_hex(keys.seal(v::kChachaPacketNumber, header, plaintext)) == v::kChachaCiphertext);
  BOOST_TEST(to_hex(keys.header_mask(hex(v::kChachaSample))) == v::kChachaMask);
  BOOST_TEST(to_hex(protect(keys, header, 1, v::kChachaPacketNumber, plaintext)) == v::kChachaPacket);
}

BOOST_AUTO_TEST_CASE(key_update_keeps_header_protection_and_changes_the_aead_key) {
  const auto gen0 = PacketKeys::from_secret(CipherSuite::chacha20_poly1305_sha256, hex(v::kChachaSecret));
  const auto gen1 = gen0.next_generation();
  BOOST_TEST(to_hex(gen1.secret()) == to_hex(hex(v::kChachaKu)));
  BOOST_TEST(to_hex(gen1.hp()) == to_hex(gen0.hp()));
  BOOST_TEST(to_hex(gen1.key()) != to_hex(gen0.key()));
  BOOST_CHECK_THROW(PacketKeys::from_secret(CipherSuite::aes_256_gcm_sha384, hex(v::kChachaSecret)),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
