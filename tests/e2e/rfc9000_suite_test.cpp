// `conform run suites/rfc9000`, the README's first command, as a user runs
// it: every case passes, every mutant is killed (each check it names fails
// on it), the reports are written, the covered RFC sections are printed, and
// a second run with the same seed gives the same verdicts and evidence.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

using namespace conform::test;

namespace {

const std::string kSuite = std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000";
const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;

/// The report without what legitimately differs between runs: wall-clock
/// durations and the artifact folders.
nlohmann::json verdicts_of(nlohmann::json report) {
  report.erase("out_dir");
  report["totals"].erase("duration_s");
  for (auto& c : report["cases"]) {
    c.erase("duration_s");
    auto strip = [](nlohmann::json& run) {
      run.erase("duration_s");
      run.erase("artifact_dir");
    };
    for (auto& run : c["runs"]) strip(run);
    for (auto& m : c["mutants"]) strip(m["run"]);
  }
  return report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rfc9000_suite_test)

BOOST_AUTO_TEST_CASE(every_case_passes_and_every_mutant_is_killed) {
  const std::string dir = scratch_dir("rfc9000");
  auto r = run_conform({"run", kSuite, "-j", "2", "--out", dir + "/out", "--json", dir + "/report.json", "--junit",
                        dir + "/report.xml"},
                       ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("sections covered: 9000§3.5 (1/1), 9000§4.1 (8/8), 9000§4.2 (4/4), 9000§4.6 (46/46)") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("9000§19.11 (3/3), 9000§19.12 (1/1), 9000§19.13 (1/1), 9000§19.14 (2/2)") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("9001§4.9.1 (1/1), 9001§5.7 (6/6), 9002§6.2.1 (3/3), 9002§6.2.2 (1/1), 9002§6.2.2.1 (1/1), 9002§6.2.4 (9/9)") != std::string::npos, r.out);
  const auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  BOOST_TEST(report["cases"].size() == 106u);
  std::size_t mutants = 0;
  for (const auto& c : report["cases"]) {
    BOOST_TEST(c["status"] == "PASS", c["id"] << ": " << c["headline"]);
    // Each capture the run wrote, and where: the simulator's taps stand at
    // each endpoint (docs/offline.md, "Vantage").
    std::set<std::string> captures;
    for (const auto& capture : c["runs"][0]["captures"])
      captures.insert(capture["file"].get<std::string>() + " " + capture["vantage"].get<std::string>());
    BOOST_TEST(captures.contains("client.pcap client"), c["id"]);
    BOOST_TEST(captures.contains("server.pcap server"), c["id"]);
    for (const auto& capture : captures)
      BOOST_TEST((capture.starts_with("client") ? capture.ends_with(" client") : capture == "server.pcap server"),
                 c["id"] << ": " << capture);
    for (const auto& m : c["mutants"]) {
      ++mutants;
      BOOST_TEST(m["killed"] == true, c["id"] << " survived " << m["label"]);
    }
  }
  BOOST_TEST(mutants == 134u);
  const std::string junit = read_file(dir + "/report.xml");
  std::size_t testcases = 0;
  for (auto at = junit.find("<testcase "); at != std::string::npos; at = junit.find("<testcase ", at + 1)) ++testcases;
  BOOST_TEST(testcases == 106u);
  BOOST_TEST(junit.find("<failure") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_stream_cliff_mutant_fails_like_the_incident) {
  const std::string dir = scratch_dir("rfc9000-cliff");
  auto r = run_conform({"run", kSuite, "--filter", "max-streams-uni/fanout-frames[frames=200]", "--out",
                        dir + "/out", "--json", dir + "/report.json"},
                       ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  const auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  const auto& mutant = report["cases"][0]["mutants"][0]["run"];
  std::string delivered;
  for (const auto& check : mutant["checks"])
    if (check["check"] == "streams_delivered") delivered = check["summary"];
  BOOST_TEST(delivered.find("received=100/200 missing=[100-199] (stream numbers from 0, not IDs; ") != std::string::npos,
             delivered);
}

BOOST_AUTO_TEST_CASE(one_seed_gives_the_same_verdicts_and_evidence) {
  const std::string dir = scratch_dir("rfc9000-twice");
  for (const char* n : {"1", "2"}) {
    auto r = run_conform({"run", kSuite, "-j", "2", "--seed", "7", "--out", dir + "/out" + n, "--json",
                          dir + "/report" + n + ".json"},
                         ".", {kPluginPath});
    BOOST_TEST(r.exit_code == 0, r.out << r.err);
  }
  const auto first = verdicts_of(nlohmann::json::parse(read_file(dir + "/report1.json")));
  const auto second = verdicts_of(nlohmann::json::parse(read_file(dir + "/report2.json")));
  BOOST_TEST(first.dump(1) == second.dump(1));
}

BOOST_AUTO_TEST_SUITE_END()
