// Variable-length integers (RFC 9000 §16, App. A.1 examples), packet number
// decoding (App. A.3 example) and header parsing limits (§17).
#include "dissect/header.hpp"
#include "dissect/packet_number.hpp"
#include "dissect/wire_reader.hpp"
#include "unit/quic_packet_builder.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform::dissect;
using conform::test::hex;

BOOST_AUTO_TEST_SUITE(wire_test)

BOOST_AUTO_TEST_CASE(varints_of_rfc9000_appendix_a1) {
  const std::pair<const char*, std::uint64_t> cases[] = {
      {"c2197c5eff14e88c", 151288809941952652ull}, {"9d7f3e7d", 494878333}, {"7bbd", 15293},
      {"25", 37}, {"4025", 37}};
  for (const auto& [bytes, value] : cases) {
    const Bytes b = hex(bytes);
    WireReader r(b);
    BOOST_TEST(*r.varint() == value);
    BOOST_TEST(r.empty());
  }
  const Bytes cut = hex("9d7f3e");
  WireReader r(cut);
  BOOST_TEST(!r.varint().has_value());
  BOOST_TEST(r.position() == 0u);
  BOOST_TEST(varint_min_length(kMaxVarint) == 8u);
  BOOST_TEST(varint_min_length(kMaxVarint + 1) == 0u);
}

BOOST_AUTO_TEST_CASE(packet_numbers_of_rfc9000_appendix_a3) {
  BOOST_TEST(decode_packet_number(0xa82f30ea, 0x9b32, 2) == 0xa82f9b32u);
  BOOST_TEST(decode_packet_number(std::nullopt, 0, 1) == 0u);
  BOOST_TEST(decode_packet_number(std::nullopt, 2, 4) == 2u);
  BOOST_TEST(decode_packet_number(255, 0x00, 1) == 256u);    // wraps forward
  BOOST_TEST(decode_packet_number(256, 0xff, 1) == 255u);    // a late packet
  BOOST_TEST(decode_packet_number(10, 0xfe, 1) == 254u);     // no negative numbers
}

BOOST_AUTO_TEST_CASE(headers_that_cannot_be_parsed_say_why) {
  std::string why;
  BOOST_TEST(!parse_header(hex("c0000000"), 0, why).has_value());
  BOOST_TEST(why.find("Version") != std::string::npos);
  BOOST_TEST(!parse_header(hex("c00000000115"), 0, why).has_value());
  BOOST_TEST(why.find("exceeds 20") != std::string::npos);
  BOOST_TEST(!parse_header(hex("4001020304"), 0, why).has_value());
  BOOST_TEST(why.find("sample") != std::string::npos);
  BOOST_TEST(!parse_header(hex("40"), 8, why).has_value());
  // Other versions may have longer connection IDs (RFC 8999 §5.1).
  Bytes other = hex("c0ff00001d15");
  other.resize(other.size() + 21, 0xab);
  other.push_back(0);
  auto h = parse_header(other, 0, why);
  BOOST_REQUIRE(h.has_value());
  BOOST_TEST((h->type == PacketType::unknown_version));
  BOOST_TEST(h->dcid.size() == 21u);
}

BOOST_AUTO_TEST_SUITE_END()
