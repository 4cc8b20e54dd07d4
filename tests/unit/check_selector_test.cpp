// A mutant's `fails` entries: a check name alone, or name[key=value,...]
// picking the instances of that check whose parameters hold those values.
#include "suite/check_selector.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;

BOOST_AUTO_TEST_SUITE(check_selector_test)

BOOST_AUTO_TEST_CASE(parses_a_name_alone_and_with_parameters) {
  std::string problem;
  auto plain = parse_check_selector("max_streams_extended", problem);
  BOOST_REQUIRE(plain.has_value());
  BOOST_TEST(plain->check == "max_streams_extended");
  BOOST_TEST(plain->params.empty());

  auto qualified = parse_check_selector("max_streams_extended[by=client,dir=uni]", problem);
  BOOST_REQUIRE(qualified.has_value());
  BOOST_TEST(qualified->check == "max_streams_extended");
  BOOST_REQUIRE_EQUAL(qualified->params.size(), 2u);
  BOOST_TEST(qualified->params[0].first == "by");
  BOOST_TEST(qualified->params[0].second == "client");
  BOOST_TEST(qualified->params[1].first == "dir");
  BOOST_TEST(qualified->params[1].second == "uni");
}

BOOST_AUTO_TEST_CASE(malformed_entries_say_why) {
  const std::vector<std::pair<std::string, std::string>> bad{
      {"", "names no check"},
      {"[by=client]", "names no check"},
      {"x[by=client", "must read name[key=value,...]"},
      {"x[]", "must read name[key=value,...]"},
      {"x[by]", "'by' is not key=value"},
      {"x[by=client,]", "'' is not key=value"},
      {"x[=client]", "'=client' is not key=value"},
      {"x[by=]", "'by=' is not key=value"},
  };
  for (const auto& [text, why] : bad) {
    std::string problem;
    BOOST_TEST(!parse_check_selector(text, problem).has_value(), text);
    BOOST_TEST(problem == why, text);
  }
}

BOOST_AUTO_TEST_CASE(selects_by_name_and_every_given_value) {
  std::string problem;
  const ValueMap client_uni{{"by", Value{std::string("client")}}, {"dir", Value{std::string("uni")}},
                            {"max_wait_ms", Value{-1.0}}, {"ahead", Value{false}}};
  const ValueMap server_uni{{"by", Value{std::string("server")}}, {"dir", Value{std::string("uni")}}};
  const auto any = *parse_check_selector("max_streams_extended", problem);
  const auto by_client = *parse_check_selector("max_streams_extended[by=client]", problem);
  const auto client_bidi = *parse_check_selector("max_streams_extended[by=client,dir=bidi]", problem);
  const auto typed = *parse_check_selector("max_streams_extended[ahead=false,max_wait_ms=-1]", problem);

  BOOST_TEST(selects(any, "max_streams_extended", client_uni));
  BOOST_TEST(selects(any, "max_streams_extended", server_uni));
  BOOST_TEST(!selects(any, "streams_blocked_sent", client_uni));
  BOOST_TEST(selects(by_client, "max_streams_extended", client_uni));
  BOOST_TEST(!selects(by_client, "max_streams_extended", server_uni));
  BOOST_TEST(!selects(client_bidi, "max_streams_extended", client_uni));
  // Values are spelled as in expanded case ids: booleans and numbers bare.
  BOOST_TEST(selects(typed, "max_streams_extended", client_uni));
  // A key the instance lacks never matches.
  BOOST_TEST(!selects(*parse_check_selector("max_streams_extended[vantage=client]", problem),
                      "max_streams_extended", client_uni));
}

BOOST_AUTO_TEST_SUITE_END()
