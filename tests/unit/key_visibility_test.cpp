// Which checks can see a capture: a direction whose packets of a level
// all failed to decrypt makes a check reading that level NOT JUDGED; a
// level nobody sent, or one that partly decrypts, does not.
#include "check/quic/support/key_visibility.hpp"
#include "unit/check_timeline_builder.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;
using quic_checks::KeysNeeded;
using quic_checks::undecryptable;

namespace {

Packet without_keys(Packet p) {
  p.packet_number.reset();
  p.frames.clear();
  p.undecryptable = dissect::Undecryptable::no_keys;
  return p;
}

// A handshake that decrypts, then 1-RTT packets from the server that do not.
TimelineBuilder blind_one_rtt() {
  TimelineBuilder b;
  b.connection().client_random = dissect::ClientRandom{};
  b.connection().client_random->fill(0xab);
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 1 * kMs, {initial(0, {crypto(0, 90)}), handshake(0, {crypto(0, 1000)})});
  b.send(Side::client, 2 * kMs, {handshake(0, {crypto(0, 36)})});
  b.send(Side::client, 3 * kMs, {one_rtt(0, {stream(0, 0, 10, true)})});
  b.send(Side::server, 4 * kMs, {without_keys(one_rtt(0, {stream(3, 0, 10, true)}))});
  b.send(Side::server, 5 * kMs, {without_keys(one_rtt(1, {stream(7, 0, 10, true)}))});
  return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(key_visibility_test)

BOOST_AUTO_TEST_CASE(a_direction_with_no_decrypted_packet_of_the_level_is_named) {
  const auto facts = blind_one_rtt().facts("server.pcap");
  BOOST_TEST(*undecryptable({facts.get()}, KeysNeeded::one_rtt) ==
             "server.pcap: no 1-RTT keys in the key log for the connection of client random " +
                 std::string("abababababababababababababababababababababababababababababababab") +
                 ": none of its 2 1-RTT packets from the server decrypt");
  // The Handshake level decrypts both ways: checks of it still judge.
  BOOST_TEST(!undecryptable({facts.get()}, KeysNeeded::handshake).has_value());
  BOOST_TEST(!undecryptable({facts.get()}, KeysNeeded::initial).has_value());
}

BOOST_AUTO_TEST_CASE(secrets_that_do_not_decrypt_are_told_from_missing_ones) {
  TimelineBuilder b = blind_one_rtt();
  b.connection().secrets_found = true;
  const auto facts = b.facts("client.pcap");
  const std::string why = *undecryptable({facts.get()}, KeysNeeded::one_rtt);
  BOOST_TEST(why.rfind("client.pcap: the 1-RTT keys for the connection of client random abab", 0) == 0u, why);
  BOOST_TEST(why.find("do not decrypt its packets: none of its 2 1-RTT packets from the server decrypt") !=
                 std::string::npos,
             why);
}

BOOST_AUTO_TEST_CASE(one_decrypted_packet_or_none_sent_is_enough) {
  TimelineBuilder b = blind_one_rtt();
  b.send(Side::server, 6 * kMs, {one_rtt(2, {stream(11, 0, 10, true)})});
  BOOST_TEST(!undecryptable({b.facts("server.pcap").get()}, KeysNeeded::one_rtt).has_value());
  // A handshake that never reached 1-RTT leaves nothing to decrypt.
  TimelineBuilder early;
  early.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  BOOST_TEST(!undecryptable({early.facts("client.pcap").get()}, KeysNeeded::one_rtt).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
