// suites/capture, the default suite of `conform check`: its cases pass on the
// simulated network with every mutant killed, and a capture judged without
// naming a suite gets them, each endpoint's and direction's check judged on
// its own (captures/conform: runs of conform with and without a mutant).
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <tuple>
#include <vector>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string kSource = CONFORM_SOURCE_DIR;
const std::vector<std::string> kEnv{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Checked {
  CommandResult result;
  json report;
  // Case id (without the capture) → status.
  std::map<std::string, std::string> status;
  // (check, by, dir) → verdict, for the case `case_id`.
  std::map<std::tuple<std::string, std::string, std::string>, std::string> checks(const std::string& case_id) const {
    std::map<std::tuple<std::string, std::string, std::string>, std::string> out;
    for (const auto& c : report.at("cases"))
      if (c.at("id").get<std::string>().rfind(case_id + " @", 0) == 0)
        for (const auto& k : c.at("runs")[0].at("checks")) {
          const auto& p = k.at("params");
          out[{k.at("check"), p.value("by", ""), p.value("dir", "")}] = k.at("verdict");
        }
    return out;
  }
};

Checked check_without_suite(const std::string& capture, const std::string& keys, const std::string& name) {
  const std::string dir = scratch_dir("capture_suite_" + name);
  Checked c{run_conform({"check", capture, "--keylog", keys, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                        kEnv),
            {},
            {}};
  c.report = json::parse(read_file(dir + "/r.json"));
  for (const auto& k : c.report.at("cases")) {
    const std::string id = k.at("id");
    c.status[id.substr(0, id.find(" @"))] = k.at("status");
  }
  return c;
}

Checked conform_capture(const std::string& name) {
  const std::string base = kSource + "/captures/conform/" + name;
  return check_without_suite(base + ".pcap", base + ".keys", name);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capture_suite_test)

BOOST_AUTO_TEST_CASE(every_case_passes_and_every_mutant_is_killed_in_simulation) {
  const std::string dir = scratch_dir("capture_suite_run");
  auto r = run_conform({"run", kSource + "/suites/capture", "-j", "2", "--out", dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const auto report = json::parse(read_file(dir + "/r.json"));
  std::map<std::string, std::size_t> killed;
  for (const auto& c : report.at("cases")) {
    BOOST_TEST(c.at("status") == "PASS", c.at("id"));
    for (const auto& m : c.at("mutants"))
      if (m.at("killed")) ++killed[c.at("id")];
  }
  BOOST_TEST(killed == (std::map<std::string, std::size_t>{{"capture/max-streams-extended", 1},
                                                           {"capture/streams-blocked-sent", 1},
                                                           {"capture/stream-limits-within-bound", 1},
                                                           {"capture/blocked-frames-current", 1},
                                                           {"capture/pto-probes-coalesced", 2},
                                                           {"capture/packets-before-keys-buffered", 1}}));
}

BOOST_AUTO_TEST_CASE(a_capture_without_a_suite_is_judged_by_the_default_suite) {
  const Checked ok = conform_capture("max-streams-bidi-requests");
  BOOST_TEST(ok.result.exit_code == 0, ok.result.out + ok.result.err);
  BOOST_TEST(contains(ok.result.out, "no suite given: judging with the default suite " + kSource + "/suites/capture"),
             ok.result.out);
  // No probe and no early packet in a clean simulated run: never exercised.
  BOOST_TEST(ok.status == (std::map<std::string, std::string>{{"capture/max-streams-extended", "PASS"},
                                                               {"capture/stream-limits-within-bound", "PASS"},
                                                               {"capture/streams-blocked-sent", "PASS"},
                                                               {"capture/blocked-frames-current", "PASS"},
                                                               {"capture/pto-probes-coalesced", "NOT EXERCISED"},
                                                               {"capture/packets-before-keys-buffered",
                                                                "NOT EXERCISED"}}));
}

BOOST_AUTO_TEST_CASE(a_server_that_never_raises_max_streams_fails_only_its_own_check) {
  // server.emit_max_streams = false: the client's bidi requests stop at 10.
  const Checked c = conform_capture("max-streams-bidi-requests-no-max-streams");
  BOOST_TEST(c.result.exit_code == 1, c.result.out + c.result.err);
  BOOST_TEST(c.status.at("capture/max-streams-extended") == "FAIL");
  BOOST_TEST(c.status.at("capture/streams-blocked-sent") == "PASS");
  const auto checks = c.checks("capture/max-streams-extended");
  BOOST_TEST(checks.at({"max_streams_extended", "server", "bidi"}) == "FAIL");
  BOOST_TEST(checks.at({"max_streams_extended", "server", "uni"}) == "NOT EXERCISED");
  BOOST_TEST(checks.at({"max_streams_extended", "client", "bidi"}) == "NOT EXERCISED");
  BOOST_TEST(checks.at({"max_streams_extended", "client", "uni"}) == "NOT EXERCISED");
  BOOST_TEST(contains(c.result.out, "max_streams_extended [expectation]: the client bidi streams reached the limit 10"),
             c.result.out);
}

BOOST_AUTO_TEST_CASE(a_client_that_never_sends_streams_blocked_fails_only_its_own_check) {
  const Checked c = conform_capture("streams-blocked-publish-no-streams-blocked");
  BOOST_TEST(c.result.exit_code == 1, c.result.out + c.result.err);
  BOOST_TEST(c.status.at("capture/streams-blocked-sent") == "FAIL");
  BOOST_TEST(c.status.at("capture/max-streams-extended") == "PASS");
  const auto checks = c.checks("capture/streams-blocked-sent");
  BOOST_TEST(checks.at({"streams_blocked_sent", "client", "uni"}) == "FAIL");
  BOOST_TEST(checks.at({"streams_blocked_sent", "client", "bidi"}) == "NOT EXERCISED");
  BOOST_TEST(checks.at({"streams_blocked_sent", "server", "uni"}) == "NOT EXERCISED");
  BOOST_TEST(checks.at({"streams_blocked_sent", "server", "bidi"}) == "NOT EXERCISED");
}

BOOST_AUTO_TEST_CASE(a_third_party_handshake_exercises_none_of_the_behaviours) {
  const std::string base = kSource + "/captures/ngtcp2/handshake";
  const Checked c = check_without_suite(base + ".pcap", base + ".keys", "ngtcp2_handshake");
  BOOST_TEST(c.result.exit_code == 0, c.result.out + c.result.err);
  BOOST_TEST(c.status.size() == 6u);
  // 3 uni streams under the limit 3, no probe, nothing early: nothing to
  // judge but the stream limits of the transport parameters (tshark: the
  // client's initial_max_streams_bidi/uni 100/100, the server's uni 3),
  // within 2^60.
  for (const auto& [id, status] : c.status)
    BOOST_TEST(status == (id == "capture/stream-limits-within-bound" ? "PASS" : "NOT EXERCISED"), id);
}

BOOST_AUTO_TEST_CASE(a_tcp_capture_is_not_judged_by_quic_cases) {
  const std::string dir = scratch_dir("capture_suite_tcp");
  const std::string tcp = kSource + "/captures/tcp/linux-tiny-buffer.pcap";
  auto r = run_conform({"check", tcp, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == tcp + ": no chosen case judges what the captures hold (TCP connections only): name a suite of "
                            "TCP checks (suites/tcp judges TCP, suites/capture QUIC)\n");
  // With both suites, only suites/tcp's cases are judged on the TCP connection.
  r = run_conform({"check", tcp, kSource + "/suites/capture", kSource + "/suites/tcp", "--out", dir + "/out", "--json",
                   dir + "/r.json"},
                  ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  std::vector<std::string> ids;
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const auto& c : report.at("cases")) ids.push_back(c.at("id"));
  const std::string at = " @ linux-tiny-buffer.pcap#1";
  BOOST_TEST(ids == (std::vector<std::string>{"loopback-stall/buffers-auto" + at, "loopback-stall/client-fixed" + at,
                                              "loopback-stall/all-fixed" + at}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
