// Long-header packet types read in the clear from a datagram.
#include "net/quic_long_header.hpp"
#include "support/sim_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using conform::test::concat;
using conform::test::long_packet;

namespace {
constexpr std::uint8_t bit(LongType t) { return static_cast<std::uint8_t>(1u << static_cast<int>(t)); }
}  // namespace

BOOST_AUTO_TEST_SUITE(net_long_header_test)

BOOST_AUTO_TEST_CASE(single_and_coalesced_packets) {
  BOOST_TEST(long_header_types(long_packet(0, 30)) == bit(LongType::initial));
  BOOST_TEST(long_header_types(long_packet(2, 30)) == bit(LongType::handshake));
  BOOST_TEST(long_header_types(long_packet(1, 30)) == bit(LongType::zero_rtt));
  auto both = concat(long_packet(0, 30), long_packet(2, 20));
  BOOST_TEST(long_header_types(both) == (bit(LongType::initial) | bit(LongType::handshake)));
  // A short-header packet after a Handshake ends the walk.
  auto with_short = concat(long_packet(2, 20), std::vector<std::uint8_t>(30, 0x41));
  BOOST_TEST(long_header_types(with_short) == bit(LongType::handshake));
}

BOOST_AUTO_TEST_CASE(a_short_header_packet_is_seen_alone_or_after_long_ones) {
  BOOST_TEST(datagram_headers(std::vector<std::uint8_t>(30, 0x41)).short_header);
  const auto coalesced = datagram_headers(concat(long_packet(2, 20), std::vector<std::uint8_t>(30, 0x41)));
  BOOST_TEST(coalesced.short_header);
  BOOST_TEST(coalesced.long_types == bit(LongType::handshake));
  // Zero padding after the last long-header packet is not a packet.
  BOOST_TEST(!datagram_headers(concat(long_packet(0, 20), std::vector<std::uint8_t>(30, 0))).short_header);
  BOOST_TEST(!datagram_headers(long_packet(0, 20)).short_header);
  BOOST_TEST(!datagram_headers(std::vector<std::uint8_t>{}).short_header);
}

BOOST_AUTO_TEST_CASE(header_protected_low_bits_do_not_matter) {
  auto p = long_packet(0, 30);
  p[0] |= 0x0f;  // header protection masks these four bits
  BOOST_TEST(long_header_types(p) == bit(LongType::initial));
}

BOOST_AUTO_TEST_CASE(short_headers_negotiation_unknown_versions_and_truncation) {
  BOOST_TEST(long_header_types(std::vector<std::uint8_t>(40, 0x40)) == 0);
  BOOST_TEST(long_header_types(std::vector<std::uint8_t>{}) == 0);
  auto vn = long_packet(0, 10);
  vn[1] = vn[2] = vn[3] = vn[4] = 0;  // version 0: Version Negotiation
  BOOST_TEST(long_header_types(vn) == 0);
  auto unknown = long_packet(0, 10);
  unknown[4] = 7;
  BOOST_TEST(long_header_types(unknown) == 0);
  // A Length past the end: the first packet counts, the walk stops.
  auto truncated = concat(long_packet(0, 30), long_packet(2, 20));
  truncated.resize(truncated.size() - 5);
  BOOST_TEST(long_header_types(truncated) == (bit(LongType::initial) | bit(LongType::handshake)));
  auto cut = long_packet(0, 30);
  cut.resize(8);
  BOOST_TEST(long_header_types(cut) == bit(LongType::initial));
}

BOOST_AUTO_TEST_CASE(version_2_maps_its_type_bits) {
  auto p = long_packet(0, 30);
  p[1] = 0x6b, p[2] = 0x33, p[3] = 0x43, p[4] = 0xcf;
  // In v2, type bits 0b00 mean Retry (RFC 9369 §3.2).
  BOOST_TEST(long_header_types(p) == bit(LongType::retry));
  p[0] = 0xd0;  // 0b01: Initial in v2, with the token length a v1 Initial has
  BOOST_TEST(long_header_types(p) == bit(LongType::initial));
}

BOOST_AUTO_TEST_SUITE_END()
