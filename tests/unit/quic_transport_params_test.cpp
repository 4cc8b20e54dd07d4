// Transport parameters, RFC 9000 §18: round trip, defaults left out, and
// every validation rule of §18.2 as TRANSPORT_PARAMETER_ERROR.
#include <boost/test/unit_test.hpp>

#include "connection/transport_params.hpp"
#include "unit/quic_hex.hpp"

using namespace conform::quic;
using conform::quic::test::from_hex;

namespace {

bool refused(const char* hex, bool from_server) {
  auto r = decode_transport_parameters(from_hex(hex), from_server);
  return !r.ok() && r.error().is(TransportErrorCode::transport_parameter_error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_transport_params_test)

BOOST_AUTO_TEST_CASE(parameters_round_trip) {
  TransportParameters tp;
  tp.original_destination_connection_id = ConnectionId(from_hex("8394c8f03e515708"));
  tp.initial_source_connection_id = ConnectionId(from_hex("0102030405060708"));
  tp.max_idle_timeout_ms = 30000;
  tp.initial_max_data = 1 << 20;
  tp.initial_max_stream_data_uni = 1250000;
  tp.initial_max_streams_uni = 100;
  tp.initial_max_streams_bidi = 10;
  tp.ack_delay_exponent = 5;
  tp.disable_active_migration = true;
  auto back = decode_transport_parameters(encode_transport_parameters(tp), true);
  BOOST_REQUIRE(back.ok());
  const TransportParameters& b = back.value();
  BOOST_TEST((*b.original_destination_connection_id == *tp.original_destination_connection_id));
  BOOST_TEST(b.max_idle_timeout_ms == 30000u);
  BOOST_TEST(b.initial_max_data == 1u << 20);
  BOOST_TEST(b.initial_max_stream_data_uni == 1250000u);
  BOOST_TEST(b.initial_max_streams_uni == 100u);
  BOOST_TEST(b.initial_max_streams_bidi == 10u);
  BOOST_TEST(b.ack_delay_exponent == 5u);
  BOOST_TEST(b.max_ack_delay_ms == 25u);  // absent: the RFC default
  BOOST_TEST(b.disable_active_migration);
}

BOOST_AUTO_TEST_CASE(unknown_parameters_are_ignored) {
  // A GREASE-style id 0x1b (31*0+27) with 2 bytes, then initial_source_connection_id.
  auto r = decode_transport_parameters(from_hex("1b02abcd0f0101"), false);
  BOOST_TEST(r.ok());
}

BOOST_AUTO_TEST_CASE(invalid_values_are_transport_parameter_errors) {
  BOOST_TEST(refused("0f0101" "0f0101", false));        // duplicate
  BOOST_TEST(refused("0f0101" "0302444b", false));      // max_udp_payload_size 1099 < 1200
  BOOST_TEST(refused("0f0101" "0a0115", false));        // ack_delay_exponent 21 > 20
  BOOST_TEST(refused("0f0101" "0b028000", false));      // max_ack_delay: not a valid varint length
  BOOST_TEST(refused("0f0101" "0e0101", false));        // active_connection_id_limit 1 < 2
  BOOST_TEST(refused("0f0101" "0001aa", false));        // original_dcid from a client
  BOOST_TEST(refused("0f0101" "0908d000000000000001", false));  // initial_max_streams_uni > 2^60
  BOOST_TEST(refused("0401", false));                   // truncated
  BOOST_TEST(refused("", false));                       // initial_source_connection_id missing
  BOOST_TEST(refused("0f0101", true));                  // a server without original_dcid
  BOOST_TEST(refused("0f0101" "0c0100", false));        // disable_active_migration with a value
}

BOOST_AUTO_TEST_SUITE_END()
