// Datagram selectors: parsing `<sender>:<n>` and `<sender>:<type>:<n>`, and
// which datagrams of which direction they pick.
#include "net/selector.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;

BOOST_AUTO_TEST_SUITE(selector_test)

BOOST_AUTO_TEST_CASE(parses_both_forms) {
  std::string error;
  auto a = parse_selector("client-12:7", error);
  BOOST_REQUIRE(a.has_value());
  BOOST_TEST(a->sender == "client-12");
  BOOST_TEST(!a->type.has_value());
  BOOST_TEST(a->nth == 7);
  auto b = parse_selector("server:0rtt:2", error);
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST((b->type == LongType::zero_rtt));
  for (const char* bad : {"", "client", "client:", "client:x", "client:1:2:3", "client:-1", "server:initial:1x",
                          "client-:1", "client-01:1", "Client:1"})
    BOOST_TEST(!parse_selector(bad, error).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(selectors_match_their_sender_and_count) {
  std::string error;
  auto any_client = *parse_selector("client:2", error);
  auto second = *parse_selector("client-2:2", error);
  DatagramPosition pos{"client", "client-2", 2, 0, {}};
  BOOST_TEST(selects(any_client, pos));
  BOOST_TEST(selects(second, pos));
  pos.name = "client-1";
  BOOST_TEST(selects(any_client, pos));
  BOOST_TEST(!selects(second, pos));
  pos.group = pos.name = "server";
  BOOST_TEST(!selects(any_client, pos));
}

BOOST_AUTO_TEST_CASE(typed_selectors_count_datagrams_carrying_the_type) {
  std::string error;
  auto second_initial = *parse_selector("server:initial:2", error);
  // The 5th datagram of the direction, the 2nd carrying an Initial.
  DatagramPosition pos{"server", "server", 5, 0b0101, {2, 0, 1, 0}};
  BOOST_TEST(selects(second_initial, pos));
  pos.types = 0b0100;  // a Handshake only: the Initial count is stale
  BOOST_TEST(!selects(second_initial, pos));
  BOOST_TEST(!selects(*parse_selector("server:5", error), DatagramPosition{"server", "server", 4, 0, {}}));
  BOOST_TEST(any_selects({*parse_selector("client:1", error), *parse_selector("server:4", error)},
                         DatagramPosition{"server", "server", 4, 0, {}}));
}

BOOST_AUTO_TEST_SUITE_END()
