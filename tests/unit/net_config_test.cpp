// A `network` table read into link settings: defaults, units, selectors and
// every problem reported with its key.
#include "net/net_config.hpp"
#include "net/network_spec.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using Strings = std::vector<std::string>;

BOOST_AUTO_TEST_SUITE(net_config_test)

BOOST_AUTO_TEST_CASE(defaults_match_the_spec) {
  ValueMap defaults;
  for (const auto& s : network_spec()) defaults[s.name] = *s.default_value;
  NetConfig from_spec, empty;
  BOOST_TEST(read_net_config(defaults, from_spec).empty());
  BOOST_TEST(read_net_config({}, empty).empty());
  BOOST_TEST(from_spec.one_way_delay.ns() == empty.one_way_delay.ns());
  BOOST_TEST(from_spec.one_way_delay.ns() == 5'000'000);
  BOOST_TEST(from_spec.mtu == empty.mtu);
  BOOST_TEST(from_spec.budget.ns() == empty.budget.ns());
  BOOST_TEST(from_spec.reorder_delay.ns() == empty.reorder_delay.ns());
  BOOST_TEST(from_spec.burst.leave_bad == empty.burst.leave_bad);
  BOOST_TEST(!from_spec.burst.enabled());
}

BOOST_AUTO_TEST_CASE(units_are_converted) {
  NetConfig c;
  auto problems = read_net_config({{"rtt_ms", 40.0}, {"bandwidth_mbps", 100.0}, {"jitter_ms", 0.5},
                                   {"drop", Strings{"client:3", "server:initial:1", "client-2:handshake:2"}}},
                                  c);
  BOOST_TEST(problems.empty());
  BOOST_TEST(c.one_way_delay.ns() == 20'000'000);
  BOOST_TEST(c.bandwidth_bps == 1e8);
  BOOST_TEST(c.jitter.ns() == 500'000);
  BOOST_REQUIRE(c.drop.size() == 3u);
  BOOST_TEST(c.drop[0].sender == "client");
  BOOST_TEST(!c.drop[0].type.has_value());
  BOOST_TEST(c.drop[0].nth == 3);
  BOOST_TEST((c.drop[1].type == LongType::initial));
  BOOST_TEST(c.drop[2].sender == "client-2");
  BOOST_TEST((c.drop[2].type == LongType::handshake));
  BOOST_TEST(c.drop[2].nth == 2);
}

BOOST_AUTO_TEST_CASE(every_problem_names_its_key) {
  NetConfig c;
  auto problems = read_net_config(
      {{"loss_rate", -0.1}, {"mtu", std::int64_t{20}}, {"corrupt_bits", std::int64_t{0}},
       {"budget_ms", 0.0}, {"drop", Strings{"client", "peer:1", "server:initial:0", "server:long:1", "client-0:1"}}},
      c);
  std::vector<std::string> lines;
  for (const auto& p : problems) lines.push_back(p.key + ": " + p.message);
  const std::vector<std::string> want = {
      "mtu: must be at least 29",
      "loss_rate: must be between 0 and 1, not -0.1",
      "drop: 'client' must read <sender>:<n> or <sender>:<type>:<n>, e.g. client:3 or server:initial:1",
      "drop: 'peer:1': sender must be client, client-<k> (k from 1) or server",
      "drop: 'server:initial:0': the datagram number must be an integer from 1",
      "drop: 'server:long:1': packet type must be initial, 0rtt, handshake or retry",
      "drop: 'client-0:1': sender must be client, client-<k> (k from 1) or server",
      "corrupt_bits: must be at least 1",
      "budget_ms: must be above 0",
  };
  BOOST_TEST(lines == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
