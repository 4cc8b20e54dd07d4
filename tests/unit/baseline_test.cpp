// Baselines: reading an earlier report, and what a run's verdicts mean
// against it.
#include "gate/baseline.hpp"

#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;

namespace {

std::string message_of(const std::string& path) {
  try {
    read_baseline(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(baseline_test)

BOOST_AUTO_TEST_CASE(sorts_verdicts_into_regressions_new_known_and_fixed) {
  Baseline base{"b.json",
                {{"pass-pass", Status::pass}, {"pass-fail", Status::pass}, {"fail-fail", Status::fail},
                 {"fail-pass", Status::fail}, {"xfail-error", Status::xfail}, {"skip-fail", Status::unsupported},
                 {"timeout-error", Status::timeout}, {"gone", Status::pass}}};
  const auto c = compare_with_baseline(base, {{"pass-pass", Status::pass},
                                              {"pass-fail", Status::fail},
                                              {"fail-fail", Status::fail},
                                              {"fail-pass", Status::pass},
                                              {"xfail-error", Status::error},
                                              {"skip-fail", Status::fail},
                                              {"timeout-error", Status::error},
                                              {"new-fail", Status::xpass},
                                              {"new-pass", Status::pass}});
  auto ids = [](const std::vector<BaselineEntry>& list) {
    std::vector<std::string> out;
    for (const auto& e : list) out.push_back(e.id);
    return out;
  };
  BOOST_TEST(ids(c.regressions) == (std::vector<std::string>{"pass-fail", "xfail-error"}),
             boost::test_tools::per_element());
  BOOST_TEST(ids(c.new_failures) == (std::vector<std::string>{"skip-fail", "new-fail"}),
             boost::test_tools::per_element());
  BOOST_TEST(ids(c.known) == (std::vector<std::string>{"fail-fail", "timeout-error"}),
             boost::test_tools::per_element());
  BOOST_TEST(ids(c.fixed) == (std::vector<std::string>{"fail-pass"}), boost::test_tools::per_element());
  BOOST_TEST(c.not_run == 1u);
  BOOST_TEST(c.failed());
  BOOST_TEST((c.known[1].was == Status::timeout));
  BOOST_TEST((c.known[1].now == Status::error));
  BOOST_TEST(!c.new_failures[1].in_baseline);
}

BOOST_AUTO_TEST_CASE(only_known_failures_pass_the_gate) {
  Baseline base{"b.json", {{"a", Status::fail}, {"b", Status::pass}}};
  BOOST_TEST(!compare_with_baseline(base, {{"a", Status::fail}, {"b", Status::pass}}).failed());
  BOOST_TEST(!compare_with_baseline(base, {{"a", Status::pass}, {"b", Status::unsupported}}).failed());
  BOOST_TEST(compare_with_baseline(base, {{"a", Status::fail}, {"b", Status::timeout}}).failed());
}

BOOST_AUTO_TEST_CASE(reads_ids_and_statuses) {
  const std::string dir = scratch_dir("baseline_read");
  const auto path = write_file(dir + "/b.json", R"({"cases": [{"id": "x", "status": "PASS", "runs": []},
                                                           {"id": "y", "status": "XPASS"}], "totals": {}})");
  const Baseline b = read_baseline(path);
  BOOST_TEST(b.cases.size() == 2u);
  BOOST_TEST((b.cases.at("x") == Status::pass));
  BOOST_TEST((b.cases.at("y") == Status::xpass));
}

BOOST_AUTO_TEST_CASE(a_malformed_baseline_names_file_and_position) {
  const std::string dir = scratch_dir("baseline_bad");
  const std::string p = dir + "/b.json";
  write_file(p, "{\"cases\": [\n  {\"id\": \"x\",\n   \"status\": PASS}]}");
  // Column 14 is the 'P' that starts no JSON value.
  BOOST_TEST(message_of(p) == p + ":3:14: malformed JSON: syntax error while parsing value - invalid literal; "
                                  "last read: '\"status\": P'");
  write_file(p, "");
  BOOST_TEST(message_of(p).rfind(p + ":1:1: malformed JSON: ", 0) == 0, message_of(p));
  write_file(p, "[1]");
  BOOST_TEST(message_of(p) == p + ": at /: expected a conform JSON report (an object)");
  write_file(p, "{\"case\": []}");
  BOOST_TEST(message_of(p) == p + ": at /: no \"cases\": not a conform JSON report");
  write_file(p, "{\"cases\": {}}");
  BOOST_TEST(message_of(p) == p + ": at /cases: expected an array");
  write_file(p, R"({"cases": [{"id": "x", "status": "PASS"}, {"status": "FAIL"}]})");
  BOOST_TEST(message_of(p) == p + ": at /cases/1: no \"id\"");
  write_file(p, R"({"cases": [{"id": "x", "status": 3}]})");
  BOOST_TEST(message_of(p) == p + ": at /cases/0/status: expected a string");
  write_file(p, R"({"cases": [{"id": "x", "status": "PASSED"}]})");
  BOOST_TEST(message_of(p) == p + ": at /cases/0/status: unknown status \"PASSED\" (did you mean 'PASS'?)");
  write_file(p, R"({"cases": [{"id": "x", "status": "PASS"}, {"id": "x", "status": "FAIL"}]})");
  BOOST_TEST(message_of(p) == p + ": at /cases/1/id: case \"x\" appears twice");
  BOOST_TEST(message_of(dir + "/none.json") == dir + "/none.json: cannot read the file: No such file or directory");
}

BOOST_AUTO_TEST_SUITE_END()
