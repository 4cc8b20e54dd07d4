// `conform run suites/tcp` as CI runs it (as root, so the relay can capture
// on lo): every case is judged from its capture, and every mutant (a tiny
// fixed buffer with a slow reader) is killed: each TCP check fails on it.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

using namespace conform::test;

BOOST_AUTO_TEST_SUITE(tcp_suite_test)

BOOST_AUTO_TEST_CASE(every_mutant_is_killed) {
  if (geteuid() != 0) {
    // Without capture privilege every case is UNSUPPORTED: nothing to judge.
    BOOST_TEST_MESSAGE("not root: the tcp suite cannot capture here; skipped");
    return;
  }
  const std::string dir = scratch_dir("tcp_suite");
  const std::string suite = std::string(CONFORM_SOURCE_DIR) + "/suites/tcp";
  auto r = run_conform({"run", suite, "-j", "1", "--out", dir + "/out", "--json", dir + "/report.json"}, ".",
                       {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  std::size_t mutants = 0;
  for (const auto& c : report["cases"]) {
    BOOST_TEST(c["status"] != "UNSUPPORTED", c["id"]);
    BOOST_TEST(c["status"] != "ERROR", c["id"] << ": " << c["headline"]);
    for (const auto& m : c["mutants"]) {
      ++mutants;
      BOOST_TEST(m["killed"] == true, c["id"] << " survived " << m["label"] << ": " << m["survived"]);
      for (const auto& check : m["run"]["checks"])
        BOOST_TEST(check["passed"] == false, c["id"] << ": " << check["check"] << " passed on the mutant");
    }
  }
  BOOST_TEST(mutants >= 1u);
  BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), r.out << r.err);
}

BOOST_AUTO_TEST_SUITE_END()
