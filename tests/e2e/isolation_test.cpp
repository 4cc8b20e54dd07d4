// `conform run` as a user runs it: a plugin that segfaults in one case and
// hangs in another while a third case passes.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace conform::test;

BOOST_AUTO_TEST_SUITE(isolation_test)

BOOST_AUTO_TEST_CASE(crash_and_hang_are_error_and_timeout_and_the_run_goes_on) {
  const std::string dir = scratch_dir("isolation");
  const std::string suite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/isolation.toml";
  auto r = run_conform({"run", suite, "--timeout", "1.5", "-j", "2", "--out", dir + "/out",
                        "--json", dir + "/report.json"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.find("ERROR       isolation/segfault") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("the run crashed: killed by SIGSEGV (Segmentation fault)") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("TIMEOUT     isolation/hang") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("no end after 1.5 s") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASS        isolation/echo") != std::string::npos, r.out);
  // Results come in case order whatever order the children ended in.
  BOOST_TEST(r.out.find("isolation/segfault") < r.out.find("isolation/hang"));
  BOOST_TEST(r.out.find("isolation/hang") < r.out.find("isolation/echo"));
  BOOST_TEST(r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1) == "1 passed, 2 failed\n");

  // The passing case's artifacts are whole.
  auto verdict = nlohmann::json::parse(read_file(dir + "/out/isolation/echo/verdict.json"));
  BOOST_TEST(verdict["status"] == "PASS");
  BOOST_TEST(verdict["checks"][0]["summary"] ==
             "client.pcap holds 5 datagrams from server (required 5..5)");
  BOOST_TEST(std::filesystem::file_size(dir + "/out/isolation/echo/client.pcap") > 0u);
  auto crashed = nlohmann::json::parse(read_file(dir + "/out/isolation/segfault/verdict.json"));
  BOOST_TEST(crashed["status"] == "ERROR");

  auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  BOOST_TEST(report["totals"]["passed"] == 1);
  BOOST_TEST(report["totals"]["failed"] == 2);
  BOOST_TEST(report["cases"][1]["status"] == "TIMEOUT");
}

BOOST_AUTO_TEST_SUITE_END()
