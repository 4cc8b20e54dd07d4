// SurveyTurns: a capture's vantage survey added to in the order its
// connections ended, whatever thread reads each one's signs, as one thread
// adding them in that order would.
#include "dissect/key_log.hpp"
#include "offline/capture_units.hpp"
#include "offline/survey_turns.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace conform;

namespace {

// The QUIC connections of committed captures, in the order each ended:
// one host and several, client, server and path vantages, and a capture
// without keys (no ACK read).
std::vector<dissect::Connection> connections() {
  const std::string dir = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  std::vector<dissect::Connection> out;
  for (const char* name : {"two-connections", "loss", "migration", "gso", "retry"}) {
    const auto keys = dissect::read_key_log(dir + name + ".keys");
    stream_connections(dir + name + ".pcap", keys, [](const CapturedDatagram&) {},
                       [&](dissect::Connection&& c) { out.push_back(std::move(c)); });
  }
  const dissect::KeyLog none;
  stream_connections(dir + "handshake.pcap", none, [](const CapturedDatagram&) {},
                     [&](dissect::Connection&& c) { out.push_back(std::move(c)); });
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(survey_turns_test)

BOOST_AUTO_TEST_CASE(turns_taken_on_threads_in_any_order_survey_as_one_thread_would) {
  const auto all = connections();
  BOOST_REQUIRE(all.size() >= 7u);
  VantageSurvey one;
  std::vector<std::string> so_far;
  for (const auto& c : all) {
    one.add(c);
    so_far.emplace_back(to_string(one.infer().vantage));
  }
  // What the pooled signs say differs along the way, or the test shows little.
  BOOST_TEST(std::count(so_far.begin(), so_far.end(), so_far.front()) < static_cast<long>(so_far.size()));
  for (int round = 0; round < 20; ++round) {
    SurveyTurns turns;
    std::vector<SurveyTurn> given;
    for (std::size_t k = 0; k < all.size(); ++k) given.push_back(turns.next());
    std::vector<std::string> seen(all.size());
    std::vector<std::thread> threads;
    // The last turns first: each waits for those before it.
    for (std::size_t k = all.size(); k-- > 0;)
      threads.emplace_back([&, k] { seen[k] = to_string(given[k].take(all[k])); });
    for (auto& t : threads) t.join();
    BOOST_TEST(seen == so_far, boost::test_tools::per_element());
    const auto survey = turns.finish();
    BOOST_TEST(survey.infer().reason == one.infer().reason);
  }
}

// A turn whose every copy is gone untaken (a task a failed pool dropped)
// holds up no later one, and its connection's signs are not in the survey.
BOOST_AUTO_TEST_CASE(a_turn_dropped_untaken_passes) {
  const auto all = connections();
  SurveyTurns turns;
  auto first = turns.next();
  std::optional<SurveyTurn> dropped = turns.next();
  auto third = turns.next();
  std::thread later([&] { third.take(all[2]); });
  first.take(all[0]);
  dropped.reset();
  later.join();
  VantageSurvey expected;
  expected.add(all[0]);
  expected.add(all[2]);
  BOOST_TEST(turns.finish().infer().reason == expected.infer().reason);
}

// Two connections each between two ports of one host, but not the same
// host: the capture is not on one host, in turns as in one thread.
BOOST_AUTO_TEST_CASE(one_host_each_but_two_hosts_are_not_one_host) {
  auto on_host = [](std::uint32_t address) {
    dissect::Connection c;
    dissect::Datagram d;
    d.from = NetEndpoint{address, 1000};
    d.to = NetEndpoint{address, 443};
    c.datagrams.push_back(d);
    return c;
  };
  const std::vector<dissect::Connection> two{on_host(0x0a000001), on_host(0x0a000002)};
  VantageSurvey one;
  for (const auto& c : two) one.add(c);
  BOOST_TEST(!one.infer().one_host.has_value());
  SurveyTurns turns;
  for (const auto& c : two) turns.next().take(c);
  const auto inferred = turns.finish().infer();
  BOOST_TEST(!inferred.one_host.has_value());
  BOOST_TEST(inferred.reason == one.infer().reason);
}

BOOST_AUTO_TEST_SUITE_END()
