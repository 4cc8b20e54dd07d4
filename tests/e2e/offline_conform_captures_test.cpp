// `conform check` on captures conform recorded itself (captures/conform, made
// by scripts/make-conform-captures.sh): the client's view of two rfc9000
// cases with and without each of their mutants. Offline the scenario's
// parameters are unknown, so demand falls back to what the capture shows:
// the verdicts below are what that sees, including the mutants it cannot
// catch from a capture alone, each asserted.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string kCaptures = std::string(CONFORM_SOURCE_DIR) + "/captures/conform/";
const std::string kSuite = std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000/stream_limits.toml";
const std::vector<std::string> kEnv{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR};

struct Judged {
  int exit_code = -1;
  std::string out;
  json report;
  std::map<std::string, std::string> checks;
  std::string summary(const std::string& check) const {
    for (const auto& k : report.at("cases")[0].at("runs")[0].at("checks"))
      if (k.at("check") == check) return k.at("summary");
    return {};
  }
};

Judged judge(const std::string& name, const std::string& case_id) {
  const std::string dir = scratch_dir("conform_" + name);
  auto r = run_conform({"check", kCaptures + name + ".pcap", "--keylog", kCaptures + name + ".keys", kSuite,
                        "--filter", case_id, "--out", dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  Judged j{r.exit_code, r.out + r.err, json::parse(read_file(dir + "/r.json")), {}};
  for (const auto& k : j.report.at("cases")[0].at("runs")[0].at("checks")) j.checks[k.at("check")] = k.at("verdict");
  return j;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(offline_conform_captures_test)

BOOST_AUTO_TEST_CASE(max_streams_bidi_requests_with_and_without_its_mutant) {
  const Judged pass = judge("max-streams-bidi-requests", "max-streams-bidi/requests");
  BOOST_TEST(pass.exit_code == 0, pass.out);
  BOOST_TEST(pass.checks == (std::map<std::string, std::string>{{"streams_delivered", "PASS"},
                                                                {"max_streams_extended", "PASS"},
                                                                {"streams_blocked_sent", "PASS"}}));
  // Demand from the capture, said so: 300 opened, not "scenario requests=300".
  BOOST_TEST(pass.summary("streams_delivered") == "received=300/300 missing=[] (expected from opened in max-streams-bidi-requests.pcap)");
  BOOST_TEST(contains(pass.out, "scenario parameters are unknown, so checks use what each capture shows, and "
                                "expects that need them are NOT APPLICABLE"),
             pass.out);
  BOOST_TEST(pass.report.at("offline").at("mutants_not_applied").size() == 1u);

  // server.emit_max_streams = false: the client stops at 10 and says STREAMS_BLOCKED.
  const Judged mutant = judge("max-streams-bidi-requests-no-max-streams", "max-streams-bidi/requests");
  BOOST_TEST(mutant.exit_code == 1, mutant.out);
  BOOST_TEST(mutant.checks == (std::map<std::string, std::string>{{"streams_delivered", "PASS"},
                                                                  {"max_streams_extended", "FAIL"},
                                                                  {"streams_blocked_sent", "PASS"}}));
  // Online the scenario's requests=300 fails streams_delivered too; offline
  // only the 10 opened streams are known to have been wanted.
  BOOST_TEST(mutant.summary("streams_delivered") == "received=10/10 missing=[] (expected from opened in max-streams-bidi-requests-no-max-streams.pcap)");
  BOOST_TEST(contains(mutant.summary("max_streams_extended"), "wanting 11 (STREAMS_BLOCKED 10 at frame 8)"),
             mutant.summary("max_streams_extended"));
}

BOOST_AUTO_TEST_CASE(streams_blocked_publish_with_and_without_each_mutant) {
  struct Expected {
    const char* capture;
    int exit_code;
    std::map<std::string, std::string> checks;
  };
  const std::map<std::string, std::string> all_pass{{"streams_blocked_sent", "PASS"},
                                                    {"streams_delivered", "PASS"},
                                                    {"max_streams_extended", "PASS"}};
  auto with = [&](const std::string& failing) {
    auto m = all_pass;
    m[failing] = "FAIL";
    return m;
  };
  auto silent = with("streams_blocked_sent");
  for (const Expected& e : {Expected{"streams-blocked-publish", 0, all_pass},
                            // client.emit_streams_blocked = false
                            Expected{"streams-blocked-publish-no-streams-blocked", 1, silent},
                            // client.open_stream_when_blocked = "fail": the 180 streams given up
                            // were never opened, so no capture shows they were wanted.
                            Expected{"streams-blocked-publish-open-fails", 0, all_pass},
                            // server.emit_max_streams = false
                            Expected{"streams-blocked-publish-no-max-streams", 1, with("max_streams_extended")}}) {
    const Judged j = judge(e.capture, "streams-blocked/publish");
    BOOST_TEST(j.exit_code == e.exit_code, e.capture << ": " << j.out);
    BOOST_TEST(j.checks == e.checks, e.capture);
    // Whether each STREAMS_BLOCKED carries the limit in force is a case of
    // its own; without STREAMS_BLOCKED there is no blocked frame to judge.
    const Judged in_force = judge(e.capture, "streams-blocked/carries-the-limit-in-force");
    BOOST_TEST(in_force.checks.at("blocked_frames_not_early") ==
                   (e.checks.at("streams_blocked_sent") == "FAIL" ? "NOT EXERCISED" : "PASS"),
               e.capture);
  }
  const Judged open_fails = judge("streams-blocked-publish-open-fails", "streams-blocked/publish");
  BOOST_TEST(open_fails.summary("streams_delivered") == "received=20/20 missing=[] (expected from opened in streams-blocked-publish-open-fails.pcap)");
}

BOOST_AUTO_TEST_SUITE_END()
