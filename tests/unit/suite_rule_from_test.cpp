// `rule_from = "FILE#ID"`: a case takes its summary, rfc, requirement and
// expectations from a case of another file, and keeps its own plugin,
// scenario, knobs and mutants; every way of naming it wrongly is a problem
// at its position.
#include "suite/loader.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace conform;
using namespace conform::test;

namespace {

// The rule: a case of the tcp plugin with two expects (lines 1-16).
const std::string kRule = R"(
[[case]]
id = "rule/one"
summary = "the rule's summary"
rfc = "9000§19.20"
requirement = "a server MUST close"
plugin = "tcp"
scenario = "bulk"

  [[case.expect]]
  check = "datagrams_captured"
  vantage = "server"

  [[case.expect]]
  check = "datagrams_captured"
  level = "SHOULD"
  vantage = "client"
)";

// A case of the quic plugin that takes the rule, `extra` after line 5.
std::string taker(const std::string& rule_from, const std::string& extra = "") {
  return "[[case]]\n"
         "id = \"taker/one\"\n"
         "rule_from = \"" + rule_from + "\"\n"
         "plugin = \"quic\"\n"
         "scenario = \"handshake\"\n" + extra +
         "client = { initial_mtu = 1400 }\n"
         "no_mutant = \"a test\"\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(suite_rule_from_test)

BOOST_AUTO_TEST_CASE(a_case_takes_the_rule_and_keeps_its_own_plugin_scenario_and_knobs) {
  const auto dir = scratch_dir("rule_from_takes");
  write_file(dir + "/rules/r.toml", toml_text(kRule));
  const auto p = parse_text(dir, "interop/t.toml", taker("../rules/r.toml#rule/one"));
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const CaseDecl& c = p.suite->cases[0];
  BOOST_TEST(c.id == "taker/one");
  BOOST_TEST(c.summary == "the rule's summary");
  BOOST_TEST(c.rfc == "9000§19.20");
  BOOST_TEST(c.requirement == "a server MUST close");
  BOOST_TEST(c.plugin == "quic");
  BOOST_TEST(c.scenario == "handshake");
  BOOST_TEST(describe(c.knobs.at("client")) == "initial_mtu=integer 1400");
  BOOST_REQUIRE_EQUAL(c.expects.size(), 2u);
  BOOST_TEST(c.expects[0].check == "datagrams_captured");
  BOOST_TEST(describe(c.expects[0].params) == "from=string \"any\"; max=integer -1; min=integer 1; vantage=string \"server\"");
  BOOST_TEST(describe(c.expects[1].params) == "from=string \"any\"; max=integer -1; min=integer 1; vantage=string \"client\"");
  BOOST_TEST((c.expects[1].level == RequirementLevel::should));
  // An expect's position is where it is written: in the rule's file, at its
  // check.
  BOOST_TEST(c.expects[0].pos.file == dir + "/interop/../rules/r.toml");
  BOOST_TEST(c.expects[0].pos.line == 10u);
}

// Each problem is told once, where it is, and a case whose rule_from names
// no rule adds nothing about the keys the rule was to give.
BOOST_AUTO_TEST_CASE(every_wrong_rule_from_is_a_problem_at_its_position) {
  const auto dir = scratch_dir("rule_from_wrong");
  write_file(dir + "/r.toml", toml_text(kRule));
  write_file(dir + "/chain.toml", taker("r.toml#rule/one"));
  write_file(dir + "/broken.toml", "[[case]\n");
  write_file(dir + "/twice.toml", toml_text(kRule) + toml_text(kRule));
  std::filesystem::create_directories(dir + "/folder");
  struct Row {
    std::string rule_from, extra;
    std::vector<std::string> expected;  // "line:col: message" of t.toml, or whole lines
  };
  const std::string form = "3:13: 'rule_from' must read FILE#CASE-ID (FILE relative to this suite file)";
  const std::vector<Row> rows = {
      {"r.toml", "", {form}},
      {"r.toml#", "", {form}},
      {"#rule/one", "", {form}},
      {"r.toml\\u0000x#rule/one", "", {"3:13: 'rule_from' must not hold control characters"}},
      {"missing.toml#rule/one", "",
       {"3:13: 'rule_from' names " + dir + "/./missing.toml, which cannot be read (cannot read: No such file or "
        "directory; FILE is relative to the folder of the suite file)"}},
      {"folder#rule/one", "",
       {"3:13: 'rule_from' names " + dir + "/./folder, which cannot be read (not a regular file; FILE is relative to "
        "the folder of the suite file)"}},
      {"broken.toml#x", "",
       {dir + "/./broken.toml:1:8: Error while parsing table header: expected ']', saw '\\n'",
        "3:13: 'rule_from' names " + dir + "/./broken.toml, which has a problem at " + dir + "/./broken.toml:1:8"}},
      {"r.toml#rule/on", "", {"3:13: 'rule_from': " + dir + "/./r.toml has no case 'rule/on' (did you mean 'rule/one'?)"}},
      {"r.toml#rule/two", "", {"3:13: 'rule_from': " + dir + "/./r.toml has no case 'rule/two'"}},
      {"twice.toml#rule/one", "", {"3:13: 'rule_from': " + dir + "/./twice.toml has case 'rule/one' twice (lines 1 and 17)"}},
      {"t.toml#taker/one", "", {"3:13: 'rule_from' names this case itself"}},
      {"chain.toml#taker/one", "", {"3:13: 'rule_from': case 'taker/one' takes its own rule from elsewhere; name that one"}},
      {"r.toml#rule/one", "summary = \"mine\"\n",
       {"6:11: 'summary' is given by the rule this case takes from 'rule/one' (rule_from): say it once, there"}},
  };
  for (const auto& row : rows) {
    // Written under ./ so the paths above are the loader's own spelling.
    const auto p = parse_text(dir, "./t.toml", taker(row.rule_from, row.extra));
    std::vector<std::string> expected;
    for (const auto& e : row.expected) expected.push_back(e.front() == '/' ? e : p.path + ":" + e);
    BOOST_TEST(sorted(p.lines()) == sorted(expected), boost::test_tools::per_element());
  }
}

// A rule that lacks a key is told at the rule, in its own file.
BOOST_AUTO_TEST_CASE(a_rule_without_its_keys_is_told_where_it_is_written) {
  const auto dir = scratch_dir("rule_from_incomplete");
  const auto rules = write_file(dir + "/r.toml", "[[case]]\nid = \"rule/bare\"\nplugin = \"tcp\"\n");
  const auto p = parse_text(dir, "t.toml", taker("r.toml#rule/bare"));
  BOOST_TEST(sorted(p.lines()) == sorted({rules + ":1:1: case needs 'rfc'", rules + ":1:1: case needs 'requirement'",
                                          rules + ":1:1: case 'taker/one' takes a rule that has no [[case.expect]]: "
                                                  "nothing would judge it"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
