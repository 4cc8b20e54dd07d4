// Every point of a case's matrix, and every mutant on it, read at load: the
// network tables into link settings, each problem once at the value that
// causes it; knob values of the matrix and mutants held to their ranges.
#include "suite/matrix.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;

BOOST_AUTO_TEST_SUITE(network_points_test)

BOOST_AUTO_TEST_CASE(a_matrix_value_out_of_range_is_refused_at_the_value) {
  const auto dir = scratch_dir("network_points_range");
  const auto p = parse_text(dir, "range.toml",
                            case_head("p/range") +
                                "matrix = { \"network.loss_rate\" = [0.1, 1.5], frames = [1, 2] }\n"  // 7
                                + kExpect +                                                 // 8-10
                                "  [[case.mutant]]\n"                                       // 11
                                "  network = { ge_loss_bad = -1, budget_ms = 0 }\n"         // 12
                                "  fails = [\"datagrams_captured\"]\n");                    // 13
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 7, 40, "matrix value of 'network.loss_rate' = 1.5 is out of range: from 0 to 1"),
                     at(p.path, 12, 29, "network setting 'ge_loss_bad' = -1 is out of range: from 0 to 1"),
                     at(p.path, 12, 45,
                        "network setting 'budget_ms' = 0 is out of range: above 0, at most 1000000000"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_selector_no_point_can_use_is_refused_once_where_it_was_written) {
  const auto dir = scratch_dir("network_points_selectors");
  const auto p = parse_text(dir, "selectors.toml",
                            case_head("p/selectors") +
                                "network = { reorder = [\"server:0\"] }\n"                       // 7
                                "matrix = { \"network.drop\" = [[\"client:1\"], [\"clinet:1\"]], frames = [1, 2, 3] }\n"  // 8
                                + kExpect +                                                      // 9-11
                                "  [[case.mutant]]\n"                                            // 12
                                "  network = { duplicate = [\"server\"] }\n"                     // 13
                                "  fails = [\"datagrams_captured\"]\n");                         // 14
  const std::string sender = "sender must be client, client-<k> (k from 1) or server";
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 7, 23, "network.reorder 'server:0': the datagram number must be an integer from 1"),
                     at(p.path, 8, 44, "network.drop 'clinet:1': " + sender),
                     at(p.path, 13, 27,
                        "network.duplicate 'server' must read <sender>[:<part>]...[:<count>], e.g. client:3, "
                        "server:initial:1 or server:handshake:pn=2"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(each_point_and_mutant_runs_on_its_own_link_settings) {
  const auto dir = scratch_dir("network_points_typed");
  auto p = parse_text(dir, "typed.toml",
                            case_head("p/typed") +
                                "network = { bandwidth_mbps = 10 }\n"                                     // 7
                                "matrix = { frames = [1, 2], \"network.rtt_ms\" = [10, 40, 100] }\n"       // 8
                                + kExpect +
                                "  [[case.mutant]]\n"
                                "  network = { rtt_ms = 2 }\n"
                                "  fails = [\"datagrams_captured\"]\n"
                                "  [[case.mutant]]\n"
                                "  client = { emit_max_streams = false }\n"
                                "  fails = [\"datagrams_captured\"]\n");
  BOOST_REQUIRE_MESSAGE(p.problems.empty(), (p.problems.empty() ? std::string() : p.lines().front()));
  const CaseDecl& decl = p.suite->cases.at(0);
  BOOST_TEST(decl.nets.size() == 3u);  // the frames axis does not change the network
  BOOST_REQUIRE(decl.mutant_nets.size() == 2u);

  std::vector<std::unique_ptr<SuiteFile>> suites;
  suites.push_back(std::move(p.suite));
  const auto cases = expand_cases(suites, test_catalogue());
  BOOST_REQUIRE(cases.size() == 6u);
  const std::vector<std::int64_t> one_way_ms = {5, 20, 50, 5, 20, 50};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    BOOST_TEST(c.net(nullptr).one_way_delay.ns() == one_way_ms[i] * 1'000'000, c.id());
    BOOST_TEST(c.net(nullptr).bandwidth_bps == 1e7, c.id());
    BOOST_TEST(c.net(&c.decl->mutants[0]).one_way_delay.ns() == 1'000'000, c.id());
    BOOST_TEST(c.net(&c.decl->mutants[0]).bandwidth_bps == 1e7, c.id());
    BOOST_TEST(c.net(&c.decl->mutants[1]).one_way_delay.ns() == one_way_ms[i] * 1'000'000, c.id());
  }
  BOOST_TEST(cases[1].id() == "p/typed[frames=1,network.rtt_ms=40]");
}

BOOST_AUTO_TEST_SUITE_END()
