// `conform run` on the in-house QUIC plugin's scenarios (suite
// tests/data/suites/quic_scenarios.toml), as a user runs them: each case
// passes, leaves a capture per vantage point and a key log, and the
// decrypted captures (`conform dissect --json`) show exactly the streams and
// frames the scenario's parameters and knobs call for. Also: the same seed
// gives the same timeline, and knob values the plugin cannot take are
// refused before or at run time with the knob's name.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string kSuite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/quic_scenarios.toml";
const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;

/// Runs the whole suite once per test binary; returns the artifacts folder.
const std::string& suite_run() {
  static const std::string out = [] {
    const std::string dir = scratch_dir("quic_scenarios") + "/out";
    auto r = run_conform({"run", kSuite, "--out", dir}, ".", {kPluginPath});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
    return dir;
  }();
  return out;
}

std::string case_dir(const std::string& id) { return suite_run() + "/quic/" + id; }

/// The decrypted timeline of one vantage point of a case.
json dissect(const std::string& dir, const std::string& vantage) {
  BOOST_TEST_REQUIRE(std::filesystem::exists(dir + "/" + vantage + ".pcap"), dir + "/" + vantage);
  auto r = run_conform({"dissect", dir + "/" + vantage + ".pcap", "--keylog", dir + "/keys.log", "--json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  json j = json::parse(r.out);
  BOOST_TEST_REQUIRE(j["connections"].size() == 1u);
  BOOST_TEST_REQUIRE(j["connections"][0]["secrets_found"].get<bool>());
  return j["connections"][0];
}

/// Streams of the connection opened by `initiator`, uni or bidi.
std::vector<json> streams(const json& conn, const std::string& initiator, bool bidi) {
  std::vector<json> out;
  for (const json& s : conn["streams"])
    if (s["initiator"] == initiator && s["bidirectional"].get<bool>() == bidi) out.push_back(s);
  return out;
}

/// Streams whose `flow` ("server_to_client", ...) carried exactly `bytes`
/// with a FIN at that size.
size_t complete(const std::vector<json>& ss, const std::string& flow, uint64_t bytes) {
  size_t n = 0;
  for (const json& s : ss)
    n += s[flow]["unique_bytes"] == bytes && s[flow].value("fin_size", uint64_t{0}) == bytes;
  return n;
}

struct Seen {
  double time_s;
  json frame;
};

/// Frames of `type` (e.g. "MAX_STREAMS") sent in `direction`, in capture order.
std::vector<Seen> frames(const json& conn, const std::string& direction, const std::string& type) {
  std::vector<Seen> out;
  for (const json& d : conn["datagrams"])
    if (d["direction"] == direction)
      for (const json& p : d["packets"])
        for (const json& f : p.value("frames", json::array()))
          if (f["type"] == type) out.push_back({d["time_ns"].get<double>() / 1e9, f});
  return out;
}

void expect_clean_close(const json& conn, const std::string& direction) {
  const auto closes = frames(conn, direction, "CONNECTION_CLOSE");
  BOOST_TEST_REQUIRE(closes.size() >= 1u);
  BOOST_TEST(closes.front().frame["application"].get<bool>());
  BOOST_TEST(closes.front().frame["error_code"] == 0);
}

constexpr const char* kS2C = "server_to_client";
constexpr const char* kC2S = "client_to_server";

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_scenarios_test)

BOOST_AUTO_TEST_CASE(handshake_connects_and_the_client_closes) {
  for (const char* vantage : {"client", "server"}) {
    const json c = dissect(case_dir("handshake"), vantage);
    BOOST_TEST(c["streams"].empty());
    BOOST_TEST(frames(c, kS2C, "HANDSHAKE_DONE").size() == 1u);
    expect_clean_close(c, kC2S);
  }
  // linger_ms = 500: the close comes 500 ms after HANDSHAKE_DONE reached
  // the client (one way is 5 ms on the default 10 ms path).
  const json c = dissect(case_dir("handshake-linger"), "client");
  const double done = frames(c, kS2C, "HANDSHAKE_DONE").front().time_s;
  BOOST_TEST(frames(c, kC2S, "CONNECTION_CLOSE").front().time_s - done ==
             0.5, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(knobs_reach_the_handshake) {
  // tls_groups = cecpq2 on both sides, retry on the server: a 1354-byte
  // post-quantum ClientHello in two Initial datagrams, a Retry, the same
  // ClientHello again with the token, then a confirmed handshake.
  const json c = dissect(case_dir("handshake-cecpq2-retry"), "client");
  size_t retries = 0;
  uint64_t hello_end = 0;
  for (const json& d : c["datagrams"])
    for (const json& p : d["packets"]) {
      retries += p["type"] == "Retry";
      if (d["direction"] == kC2S && p["type"] == "Initial")
        for (const json& f : p.value("frames", json::array()))
          if (f["type"] == "CRYPTO")
            hello_end = std::max(hello_end, f["offset"].get<uint64_t>() + f["length"].get<uint64_t>());
    }
  BOOST_TEST(retries == 1u);
  BOOST_TEST(hello_end == 1354u);
  BOOST_TEST(frames(c, kS2C, "HANDSHAKE_DONE").size() == 1u);
  expect_clean_close(c, kC2S);
}

BOOST_AUTO_TEST_CASE(a_connection_error_still_completes_the_run) {
  // The relay ignores the client's limit (respect_peer_max_streams = false)
  // and opens stream 101: the client closes with STREAM_LIMIT_ERROR, the
  // run completes and the capture shows it.
  const json c = dissect(case_dir("fanout-over-the-limit"), "client");
  BOOST_TEST(streams(c, "server", false).size() == 101u);
  const auto closes = frames(c, kC2S, "CONNECTION_CLOSE");
  BOOST_TEST_REQUIRE(closes.size() == 1u);
  BOOST_TEST(!closes.front().frame["application"].get<bool>());
  BOOST_TEST(closes.front().frame["error_code"] == 0x4);
}

// A path that loses everything: the client probes, then closes one idle
// timeout (30 s) after its first Initial (RFC 9000 §10.1: probes do not
// restart the timer), and the run ends there, judged, not at the budget.
// The limit checks see the client's transport parameters but nothing sent
// under them: NOT EXERCISED, never a vacuous PASS.
BOOST_AUTO_TEST_CASE(a_run_whose_path_loses_everything_ends_at_the_idle_timeout) {
  const std::string dir = scratch_dir("quic_all_lost");
  const std::string suite = write_file(dir + "/s.toml", R"toml([[case]]
id = "idle/all-lost"
rfc = "9000§10.1"
requirement = "an endpoint MUST close once idle past its idle timeout (§10.1)"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 300, cadence_ms = 0 }
client = { initial_max_streams_uni = 10, initial_max_data = 5000 }
network = { loss_rate = 1 }
no_mutant = "a run whose path loses everything: what it shows is how long it lasts"
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "client"
  [[case.expect]]
  check = "max_streams_extended"
  by = "client"
  dir = "uni"
  may_be_unexercised = true
  [[case.expect]]
  check = "max_data_extended"
  by = "client"
  may_be_unexercised = true
  [[case.expect]]
  check = "credit_not_held_back"
  by = "client"
  may_be_unexercised = true
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const json& run = report["cases"][0]["runs"][0];
  BOOST_TEST(run["status"] == "PASS", run.dump());
  for (std::size_t k = 1; k < 4; ++k)
    BOOST_TEST(run["checks"][k]["verdict"] == "NOT EXERCISED", run["checks"][k].dump());
  const json& evidence = run["checks"][0]["evidence"];
  BOOST_REQUIRE(evidence.size() == 2u);
  BOOST_TEST(evidence[1]["text"] == "last counted datagram");
  BOOST_TEST(evidence[1]["time_ns"].get<std::int64_t>() < 30'000'000'000, "the client sent past its idle timeout");
}

BOOST_AUTO_TEST_CASE(fanout_delivers_every_stream_when_the_client_raises_max_streams) {
  const json c = dissect(case_dir("fanout"), "client");
  const auto uni = streams(c, "server", false);
  BOOST_TEST(uni.size() == 200u);
  BOOST_TEST(complete(uni, kS2C, 80) == 200u);
  // half_window: one MAX_STREAMS per 50 streams read, 150 then 200, 250, 300.
  std::vector<uint64_t> limits;
  for (const Seen& s : frames(c, kC2S, "MAX_STREAMS")) limits.push_back(s.frame["maximum"]);
  BOOST_TEST((limits == std::vector<uint64_t>{150, 200, 250, 300}));
  expect_clean_close(c, kS2C);
  // The server's own view holds the same 200 streams.
  BOOST_TEST(streams(dissect(case_dir("fanout"), "server"), "server", false).size() == 200u);
}

BOOST_AUTO_TEST_CASE(fanout_stops_silently_at_the_limit_without_max_streams) {
  const json c = dissect(case_dir("fanout-no-max-streams"), "client");
  const auto uni = streams(c, "server", false);
  BOOST_TEST(uni.size() == 100u);
  BOOST_TEST(complete(uni, kS2C, 80) == 100u);
  BOOST_TEST(frames(c, kC2S, "MAX_STREAMS").empty());
  BOOST_TEST(frames(c, kS2C, "STREAMS_BLOCKED").size() == 1u);
  BOOST_TEST(frames(c, kS2C, "STREAMS_BLOCKED").front().frame["limit"] == 100);
  // The relay gives up drain_ms (2 s) after the last frame was due. The
  // broadcast starts when the client's Finished reaches the server (15 ms);
  // frame 199 is due 199 * 20 ms later; the close takes 5 ms to arrive.
  const auto closes = frames(c, kS2C, "CONNECTION_CLOSE");
  BOOST_TEST_REQUIRE(closes.size() == 1u);
  BOOST_TEST(closes.front().time_s == 0.015 + 3.980 + 2.0 + 0.005, boost::test_tools::tolerance(1e-9));
  expect_clean_close(c, kS2C);
}

BOOST_AUTO_TEST_CASE(fanout_gives_groups_up_at_the_limit_with_fail) {
  // open_stream_when_blocked = fail: the relay refuses the 100 groups past
  // the limit instead of waiting, so nothing is left and it closes as soon
  // as frame 199 is due (3.995 s), not after the drain time.
  const std::string dir = case_dir("fanout-fail-at-the-limit");
  const json c = dissect(dir, "client");
  BOOST_TEST(streams(c, "server", false).size() == 100u);
  BOOST_TEST(frames(c, kS2C, "STREAMS_BLOCKED").size() == 1u);
  const auto closes = frames(c, kS2C, "CONNECTION_CLOSE");
  BOOST_TEST_REQUIRE(closes.size() == 1u);
  BOOST_TEST(closes.front().time_s == 0.015 + 3.980 + 0.005, boost::test_tools::tolerance(1e-9));
  const std::string log = read_file(dir + "/log.txt");
  BOOST_TEST(log.find("refused at the stream limit 100,") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(fanout_groups_frames_onto_streams) {
  const auto five = streams(dissect(case_dir("fanout-groups-of-5"), "client"), "server", false);
  BOOST_TEST(five.size() == 20u);
  BOOST_TEST(complete(five, kS2C, 5 * 80) == 20u);
  const auto one = streams(dissect(case_dir("fanout-one-group"), "client"), "server", false);
  BOOST_TEST(one.size() == 1u);
  BOOST_TEST(complete(one, kS2C, 100 * 80) == 1u);
}

BOOST_AUTO_TEST_CASE(fanout_pause_delays_the_second_half) {
  const json c = dissect(case_dir("fanout-pause"), "client");
  const auto uni = streams(c, "server", false);
  BOOST_TEST_REQUIRE(uni.size() == 100u);
  // Stream ids 3, 7, ...: frame 49 on id 199, frame 50 on id 203.
  double t49 = 0, t50 = 0;
  for (const Seen& s : frames(c, kS2C, "STREAM")) {
    if (s.frame["stream_id"] == 199) t49 = s.time_s;
    if (s.frame["stream_id"] == 203) t50 = s.time_s;
  }
  BOOST_TEST(t50 - t49 == 5.020, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fanout_to_three_subscribers_with_a_slow_last_one) {
  const std::string dir = case_dir("fanout-3-subscribers-slow-last");
  for (const char* v : {"client", "client-2"}) {
    const auto uni = streams(dissect(dir, v), "server", false);
    BOOST_TEST(uni.size() == 300u, v);
    BOOST_TEST(complete(uni, kS2C, 80) == 300u, v);
  }
  // The slow one reads 1000 B/s of a 8000 B/s broadcast: its 20 streams of
  // credit come back slowly, the relay queues 10 groups and drops the rest.
  const json slow = dissect(dir, "client-3");
  const auto uni = streams(slow, "server", false);
  BOOST_TEST(uni.size() == 60u);
  BOOST_TEST(complete(uni, kS2C, 80) == 60u);
  const std::string log = read_file(dir + "/log.txt");
  BOOST_TEST(log.find("opened 60/300 streams, finished 60, dropped at the queue limit 240,") != std::string::npos,
             log);
  // The server's capture holds all three connections.
  auto r = run_conform({"dissect", dir + "/server.pcap", "--keylog", dir + "/keys.log", "--json"});
  BOOST_TEST(json::parse(r.out)["connections"].size() == 3u);
}

BOOST_AUTO_TEST_CASE(publish_opens_client_streams_and_waits_at_the_limit) {
  const auto uni = streams(dissect(case_dir("publish"), "server"), "client", false);
  BOOST_TEST(uni.size() == 200u);
  BOOST_TEST(complete(uni, kC2S, 80) == 200u);

  const json c = dissect(case_dir("publish-server-never-raises"), "server");
  BOOST_TEST(streams(c, "client", false).size() == 100u);
  const auto blocked = frames(c, kC2S, "STREAMS_BLOCKED");
  BOOST_TEST_REQUIRE(blocked.size() == 1u);
  BOOST_TEST(blocked.front().frame["limit"] == 100);
  BOOST_TEST(blocked.front().frame["direction"] == "uni");
  expect_clean_close(c, kC2S);
}

BOOST_AUTO_TEST_CASE(request_response_on_bidirectional_streams) {
  const json c = dissect(case_dir("request-response"), "client");
  const auto bidi = streams(c, "client", true);
  BOOST_TEST(bidi.size() == 10u);
  BOOST_TEST(complete(bidi, kC2S, 100) == 10u);
  BOOST_TEST(complete(bidi, kS2C, 1000) == 10u);
  expect_clean_close(c, kC2S);
  // Two clients, five requests each, all outstanding at once.
  const std::string two = case_dir("request-response-2-clients");
  for (const char* v : {"client", "client-2"}) {
    const auto mine = streams(dissect(two, v), "client", true);
    BOOST_TEST(mine.size() == 5u, v);
    BOOST_TEST(complete(mine, kS2C, 1000) == 5u, v);
  }
}

BOOST_AUTO_TEST_CASE(bulk_both_directions) {
  const auto down = streams(dissect(case_dir("bulk-download"), "client"), "server", false);
  BOOST_TEST_REQUIRE(down.size() == 1u);
  BOOST_TEST(complete(down, kS2C, 1'000'000) == 1u);
  const auto up = streams(dissect(case_dir("bulk-upload"), "server"), "client", false);
  BOOST_TEST_REQUIRE(up.size() == 1u);
  BOOST_TEST(complete(up, kC2S, 300'000) == 1u);
}

BOOST_AUTO_TEST_CASE(one_seed_gives_one_timeline) {
  // BoringSSL's randomness (client random, key shares) changes bytes, never
  // sizes or times: the decrypted timelines match line for line.
  const std::string dir = scratch_dir("quic_scenarios_replay");
  for (const char* run : {"a", "b"}) {
    auto r = run_conform({"run", kSuite, "--filter", "quic/fanout-3-subscribers-slow-last", "--seed", "9",
                          "--out", dir + "/" + run},
                         ".", {kPluginPath});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
  }
  for (const char* v : {"server", "client", "client-3"}) {
    auto text = [&](const char* run) {
      const std::string d = dir + "/" + run + "/quic/fanout-3-subscribers-slow-last";
      return run_conform({"dissect", d + "/" + v + ".pcap", "--keylog", d + "/keys.log"}).out;
    };
    const std::string a = text("a");
    BOOST_TEST(a.size() > 10'000u);
    BOOST_TEST((a == text("b")), v);
  }
}

BOOST_AUTO_TEST_CASE(bad_knob_values_are_refused_with_their_name) {
  const std::string dir = scratch_dir("quic_scenarios_bad");
  const std::string head =
      "[[case]]\nid = \"bad\"\nrfc = \"9000§7\"\nrequirement = \"it MUST run\"\nplugin = \"quic\"\n"
      "scenario = \"handshake\"\n";
  const std::string expect = "no_mutant = \"refused before it runs\"\n  [[case.expect]]\n  check = \"datagrams_captured\"\n"
                             "  vantage = \"client\"\n";
  // The validator: a value outside one_of, a wrong type. Nothing runs.
  const auto policy = write_file(dir + "/policy.toml", head + "client = { max_streams_policy = \"sometimes\" }\n" + expect);
  auto r = run_conform({"run", policy, "--out", dir + "/o1"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find(policy + ":7:") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("max_streams_policy") != std::string::npos, r.err);
  const auto type = write_file(dir + "/type.toml", head + "server = { initial_max_streams_uni = \"many\" }\n" + expect);
  r = run_conform({"run", type, "--out", dir + "/o2"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find(type + ":7:") != std::string::npos, r.err);
  // Out of the knob's declared bounds: refused where it is written, nothing runs.
  const auto range = write_file(dir + "/range.toml", head + "client = { max_udp_payload_size = 1000 }\n" + expect);
  r = run_conform({"run", range, "--out", dir + "/o3"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == range + ":7:35: knob of plugin 'quic': 'max_udp_payload_size' = 1000 is out of range: from 1200 to "
                              "65527\n",
             r.err);
  // A float knob's bounds hold in a matrix too: 0 is outside (0, 1].
  const auto real = write_file(dir + "/real.toml",
                               head + "matrix = { \"client.cc_loss_reduction_factor\" = [0.5, 0] }\n" + expect);
  r = run_conform({"run", real, "--out", dir + "/o4"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == real + ":7:54: matrix value of 'client.cc_loss_reduction_factor' = 0 is out of range: "
                             "above 0, at most 1\n",
             r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/o4/sim"));
}

// The in-house QUIC's knobs can break whatever it plays, so each of its
// cases proves its checks able to fail with a mutant, or says why it has
// none: one with neither is refused where it is written, nothing runs.
BOOST_AUTO_TEST_CASE(a_case_with_no_mutant_must_say_why) {
  const std::string dir = scratch_dir("quic_no_mutant");
  const auto suite = write_file(dir + "/bare.toml",
                                "[[case]]\nid = \"bare\"\nrfc = \"9000§7\"\nrequirement = \"it MUST run\"\n"
                                "plugin = \"quic\"\nscenario = \"handshake\"\n"
                                "  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == suite + ":2:6: case 'bare' of plugin 'quic' needs a [[case.mutant]] whose knobs break what it "
                              "shows, so that its checks are seen to fail, or no_mutant = \"why\" when none can\n",
             r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/out/bare"));
}

BOOST_AUTO_TEST_CASE(the_virtual_time_budget_ends_a_long_run_as_timeout) {
  const std::string dir = scratch_dir("quic_scenarios_budget");
  const auto suite = write_file(dir + "/budget.toml",
                                "[[case]]\nid = \"long\"\nrfc = \"9000§4.6\"\nrequirement = \"it MUST end\"\n"
                                "plugin = \"quic\"\nscenario = \"uni-fanout\"\nparams = { frames = 200 }\n"
                                "network = { budget_ms = 1000 }\nno_mutant = \"a budget fixture\"\n"
                                "  [[case.expect]]\n  check = \"datagrams_captured\"\n  vantage = \"client\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.find("TIMEOUT     long") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_SUITE_END()
