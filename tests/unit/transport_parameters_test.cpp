// Transport parameters (RFC 9000 §18): the RFC 9001 A.2 ClientHello's, the
// encodings that are TRANSPORT_PARAMETER_ERROR, and an ngtcp2 server's.
#include "capture/pcap_reader.hpp"
#include "dissect/crypto_stream.hpp"
#include "dissect/dissector.hpp"
#include "dissect/transport_parameters.hpp"
#include "support/build_paths.hpp"
#include "unit/quic_packet_builder.hpp"
#include "unit/rfc9001_vectors.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform::dissect;
using conform::test::hex;

namespace {

std::string error_of(const char* value) {
  std::string why;
  const Bytes v = hex(value);
  BOOST_TEST(!parse_transport_parameters(v, why).has_value());
  return why;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(transport_parameters_test)

BOOST_AUTO_TEST_CASE(rfc9001_client_hello_parameters) {
  // The CRYPTO frame's data starts 4 bytes in (type, offset, 2-byte length).
  const Bytes frame = hex(conform::test::rfc9001::kClientCryptoFrame);
  CryptoStream stream;
  stream.add(0, std::span(frame).subspan(4));
  auto hello = handshake_message(stream.contiguous(), 1);
  BOOST_REQUIRE(hello.has_value());
  auto value = transport_parameters_extension(1, *hello);
  BOOST_REQUIRE(value.has_value());
  std::string why;
  auto tp = parse_transport_parameters(*value, why);
  BOOST_REQUIRE_MESSAGE(tp.has_value(), why);
  BOOST_TEST(*tp->initial_max_data == (std::uint64_t{1} << 62) - 1);
  BOOST_TEST(*tp->initial_max_stream_data_bidi_local == 65535u);
  BOOST_TEST(*tp->initial_max_stream_data_bidi_remote == 65535u);
  BOOST_TEST(*tp->initial_max_stream_data_uni == 65535u);
  BOOST_TEST(*tp->initial_max_streams_bidi == 16u);
  BOOST_TEST(*tp->initial_max_streams_uni == 16u);
  BOOST_TEST(*tp->max_idle_timeout == 30000u);
  BOOST_TEST(to_hex(*tp->initial_source_connection_id) == "8394c8f03e515708");
  BOOST_TEST(tp->others.empty());
}

BOOST_AUTO_TEST_CASE(invalid_encodings) {
  BOOST_TEST(error_of("0801").find("cut short") != std::string::npos);
  BOOST_TEST(error_of("080110 080110").find("twice") != std::string::npos);
  BOOST_TEST(error_of("08021010").find("invalid value") != std::string::npos);  // two varints
  BOOST_TEST(error_of("0203 010203").find("invalid value") != std::string::npos);
  BOOST_TEST(error_of("0302 4100").find("invalid value") != std::string::npos);  // 256 < 1200
  BOOST_TEST(error_of("0a01 15").find("invalid value") != std::string::npos);    // exponent 21
  BOOST_TEST(error_of("0b02 8000").find("invalid value") != std::string::npos);  // malformed varint
  BOOST_TEST(error_of("0e01 01").find("invalid value") != std::string::npos);    // limit 1
  BOOST_TEST(error_of("0c01 00").find("invalid value") != std::string::npos);
  BOOST_TEST(error_of("0f15 000000000000000000000000000000000000000000").find("invalid value") !=
             std::string::npos);
  std::string why;
  const Bytes greased = hex("6ab2 00 7fff 00 7fff 00");  // unknown IDs may repeat and be empty
  auto tp = parse_transport_parameters(greased, why);
  BOOST_REQUIRE(tp.has_value());
  BOOST_TEST(tp->others.size() == 3u);
  BOOST_TEST(tp->others[0].first == 0x2ab2u);  // grease_quic_bit, RFC 9287
}

BOOST_AUTO_TEST_CASE(ngtcp2_server_parameters_match_its_command_line) {
  const std::string dir = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  const KeyLog keys = read_key_log(dir + "stream-limit.keys");
  const Timeline t = conform::dissect::dissect(conform::read_capture(dir + "stream-limit.pcap").datagrams, keys);
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  const Connection& c = t.connections[0];
  BOOST_TEST(c.notes.empty());
  BOOST_REQUIRE(c.server_parameters.has_value());
  BOOST_REQUIRE(c.client_parameters.has_value());
  BOOST_TEST(*c.server_parameters->initial_max_streams_bidi == 4u);  // --max-streams-bidi=4
  BOOST_TEST(*c.server_parameters->original_destination_connection_id == c.original_dcid);
  BOOST_TEST(c.server_parameters->stateless_reset_token.has_value());
  BOOST_TEST(c.client_parameters->initial_source_connection_id.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
