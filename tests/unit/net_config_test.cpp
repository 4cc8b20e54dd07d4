// A `network` table read into link settings: defaults, units, selectors and
// every problem reported with its key.
#include "net/net_config.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace conform;
using Strings = std::vector<std::string>;

BOOST_AUTO_TEST_SUITE(net_config_test)

BOOST_AUTO_TEST_CASE(defaults_match_the_spec) {
  ValueMap defaults;
  for (const auto& s : network_spec())
    if (s.default_value) defaults[s.name] = *s.default_value;
  NetConfig from_spec, empty;
  BOOST_TEST(read_net_config(defaults, from_spec).empty());
  BOOST_TEST(read_net_config({}, empty).empty());
  BOOST_TEST(from_spec.one_way_delay.ns() == empty.one_way_delay.ns());
  BOOST_TEST(from_spec.one_way_delay.ns() == 5'000'000);
  BOOST_TEST(from_spec.mtu == empty.mtu);
  BOOST_TEST(from_spec.budget.ns() == empty.budget.ns());
  BOOST_TEST(from_spec.reorder_delay.ns() == empty.reorder_delay.ns());
  BOOST_TEST(from_spec.ge_leave_bad == empty.ge_leave_bad);
  BOOST_TEST(!from_spec.burst_loss());
  BOOST_TEST(std::get<double>(*network_spec().front().default_value) == 10.0);
}

BOOST_AUTO_TEST_CASE(a_direction_sets_its_own_keys_apart_from_the_rest) {
  NetConfig c;
  BOOST_TEST(read_net_config({{"rtt_ms", 20.0},
                              {"mtu", std::int64_t{1400}},
                              {"server_mtu", std::int64_t{1280}},
                              {"client_delay_ms", 30.0},
                              {"client_loss_rate", 0.25}},
                             c)
                 .empty());
  BOOST_TEST(c.mtu == 1400);
  BOOST_TEST(c.sent_by("server").mtu == 1280);
  BOOST_TEST(c.sent_by("client").mtu == 1400);
  BOOST_TEST(c.sent_by("server").one_way_delay.ns() == 10'000'000);
  BOOST_TEST(c.sent_by("client").one_way_delay.ns() == 30'000'000);
  BOOST_TEST(c.sent_by("client").loss_rate == 0.25);
  BOOST_TEST(c.sent_by("server").loss_rate == 0.0);
  // A copy changed apart leaves the original's direction as it was.
  NetConfig copy = c;
  copy.edit_sent_by("server").mtu = 1000;
  BOOST_TEST(c.sent_by("server").mtu == 1280);
  BOOST_TEST(copy.sent_by("server").mtu == 1000);
  // Without such keys both directions are the table itself.
  NetConfig plain;
  BOOST_TEST(&plain.sent_by("server") == &plain);
  // Every key a direction sets apart has its twin and its base.
  std::set<std::string> names;
  for (const NetSetting& s : net_settings()) names.insert(s.spec.name);
  for (const NetSetting& s : net_settings())
    if (!s.sender.empty()) {
      BOOST_TEST(names.contains((s.sender == "server" ? "client_" : "server_") + s.base_key), s.spec.name);
      BOOST_TEST((s.base_key == "delay_ms" || names.contains(s.base_key)), s.spec.name);
    }
  BOOST_TEST(!names.contains("server_drop"));
  BOOST_TEST(!names.contains("server_budget_ms"));
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

BOOST_AUTO_TEST_CASE(every_problem_names_its_key_in_the_order_of_the_rows) {
  NetConfig c;
  auto problems = read_net_config(
      {{"loss_rate", -0.1}, {"mtu", std::int64_t{20}}, {"corrupt_bits", std::int64_t{0}},
       {"budget_ms", 0.0}, {"queue_bytes", 1.5}, {"lossrate", 0.5},
       {"drop", Strings{"client", "peer:1", "server:initial:0", "server:long:1", "client-0:1"}}},
      c);
  std::vector<std::string> lines;
  for (const auto& p : problems) lines.push_back(p.key + " " + p.message);
  const std::vector<std::string> want = {
      "mtu = 20 is out of range: at least 29",
      "queue_bytes must be an integer",
      "loss_rate = -0.1 is out of range: from 0 to 1",
      "drop 'client' must read <sender>[:<part>]...[:<count>], e.g. client:3, server:initial:1 or "
      "server:handshake:pn=2; "
      "'peer:1': sender must be client, client-<k> (k from 1) or server; "
      "'server:initial:0': the datagram number must be an integer from 1; "
      "'server:long:1': unknown part 'long'; accepted parts: <sender>, <n>, initial, 0rtt, handshake, retry, 1rtt, "
      "pn=<n>, frame=<NAME>, offset>=<n>, ack_only, ack_eliciting, from_ms=<t>, to_ms=<t>, after=handshake_done "
      "(docs/suites.md, \"Selectors\"); "
      "'client-0:1': sender must be client, client-<k> (k from 1) or server",
      "corrupt_bits = 0 is out of range: at least 1",
      "budget_ms = 0 is out of range: above 0, at most 1000000000",
      "lossrate is not a network setting",
  };
  BOOST_TEST(lines == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_row_reads_back_its_own_default) {
  // A row whose default and setter disagree (a unit applied one way only)
  // would change the network of every case that leaves the key out.
  for (const NetSetting& s : net_settings()) {
    NetConfig set, untouched;
    // A key one direction sets apart has none: absent, its base key rules.
    BOOST_REQUIRE(s.spec.default_value.has_value() == s.sender.empty());
    if (!s.sender.empty()) continue;
    BOOST_TEST(s.set(*s.spec.default_value, set).empty(), s.spec.name);
    BOOST_TEST(set.one_way_delay.ns() == untouched.one_way_delay.ns(), s.spec.name);
    BOOST_TEST(set.bandwidth_bps == untouched.bandwidth_bps, s.spec.name);
    BOOST_TEST(set.budget.ns() == untouched.budget.ns(), s.spec.name);
    BOOST_TEST(set.reorder_delay.ns() == untouched.reorder_delay.ns(), s.spec.name);
    BOOST_TEST(set.ge_leave_bad == untouched.ge_leave_bad, s.spec.name);
  }
  BOOST_TEST(net_settings().size() == network_spec().size());
}

BOOST_AUTO_TEST_SUITE_END()
