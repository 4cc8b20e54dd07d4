// The external plugin as a user runs it: third-party QUIC programs from TOML
// profiles through the loopback relay, judged from the relay's captures.
// The ngtcp2 pairs need Debian's gtlsclient/gtlsserver and openssl and are
// skipped, saying so, without them; bad profiles and missing programs need
// nothing installed.
#include "support/peers.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>


#include <filesystem>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const json& case_named(const json& report, const std::string& id) {
  for (const auto& c : report.at("cases"))
    if (c.at("id") == id) return c;
  BOOST_FAIL("no case " + id);
  throw;
}

// check name → passed, for the case's first run.
std::map<std::string, bool> checks_of(const json& c) {
  std::map<std::string, bool> out;
  for (const auto& k : c.at("runs")[0].at("checks")) out[k.at("check")] = k.at("passed");
  return out;
}

std::string check_summary(const json& c, const std::string& check) {
  for (const auto& k : c.at("runs")[0].at("checks"))
    if (k.at("check") == check) return k.at("summary");
  return {};
}

const char* kCaseHead = R"toml(
rfc = "9000§4.6"
requirement = "a receiver is expected to raise the limit with MAX_STREAMS (§4.6); every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "request-response"
)toml";

// The case `NAME/one`, both sides played by the profile NAME (`sides`: its
// [client] and [server] tables), judged by no_connection_error: how the run
// ended and the case's JSON report.
struct ProfileRun {
  conform::test::CommandResult run;
  json report;
};
ProfileRun run_profile(const std::string& name, const std::string& sides) {
  const std::string dir = scratch_dir("profile-" + name);
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/" + name + ".toml", "[profile]\nname = \"" + name + "\"\n" + sides);
  const std::string suite = write_file(
      dir + "/s.toml", "[[case]]\nid = \"" + name + "/one\"" + kCaseHead + "client = { implementation = \"" + name +
                           "\" }\nserver = { implementation = \"" + name +
                           "\" }\n\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, "CONFORM_REQUIRE_PEERS=0"});
  return {r, case_named(json::parse(read_file(dir + "/r.json")), name + "/one")};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(external_plugin_test)

// ngtcp2 against itself, and our client against ngtcp2's server: 40
// requests against a server limit of 10 streams. Every pair delivers every
// request and gets MAX_STREAMS; gtlsclient never sends STREAMS_BLOCKED (its
// reference capture shows the same), conform's client does.
BOOST_AUTO_TEST_CASE(ngtcp2_pairs_are_judged_from_the_relay_captures) {
  if (peer_missing({"gtlsclient", "gtlsserver", "openssl"}, "Debian packages ngtcp2-client, ngtcp2-server, openssl"))
    return;
  const std::string dir = scratch_dir("ngtcp2-pairs");
  const std::string suite = write_file(dir + "/pairs.toml", std::string("[[case]]\nid = \"pairs/limit\"") + kCaseHead +
      R"toml(params = { requests = 40, response_bytes = 2000 }
server = { initial_max_streams_bidi = 10, implementation = "ngtcp2" }
network = { rtt_ms = 4 }
matrix = { "client.implementation" = ["ngtcp2", "conform"] }
timeout = 30

  [[case.expect]]
  check = "streams_delivered"
  from = "client"
  dir = "bidi"

  [[case.expect]]
  check = "max_streams_extended"
  by = "server"
  dir = "bidi"

  [[case.expect]]
  check = "streams_blocked_sent"
  by = "client"
  dir = "bidi"

  [[case.expect]]
  check = "client_initial_padded"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json", "-j", "2"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const std::string ngtcp2 = "pairs/limit[client.implementation=ngtcp2]";
  const std::string ours = "pairs/limit[client.implementation=conform]";
  BOOST_TEST(case_named(report, ngtcp2).at("status") == "FAIL");
  BOOST_TEST(case_named(report, ours).at("status") == "PASS", r.out);
  BOOST_TEST(checks_of(case_named(report, ngtcp2)) ==
             (std::map<std::string, bool>{{"streams_delivered", true}, {"max_streams_extended", true},
                                          {"streams_blocked_sent", false}, {"client_initial_padded", true}}),
             r.out);
  BOOST_TEST(check_summary(case_named(report, ngtcp2), "streams_delivered").find("received=40/40") !=
                 std::string::npos,
             check_summary(case_named(report, ngtcp2), "streams_delivered"));
  // The captures are the relay's, decrypted with both programs' key logs.
  const std::string run_dir = case_named(report, ngtcp2).at("runs")[0].at("artifact_dir");
  for (const char* file : {"client.pcap", "server.pcap", "keys.log", "client.keys", "server.keys", "log.txt"})
    BOOST_TEST(fs::exists(run_dir + "/" + file), file);
  BOOST_TEST(contains(read_file(run_dir + "/log.txt"), "external: server (ngtcp2): SSLKEYLOGFILE="));
  // The interop matrix: pairs × cases, on the console and in the JSON report.
  BOOST_TEST(contains(r.out, "interop matrix (client → server × case)"), r.out);
  BOOST_TEST(contains(r.out, "ngtcp2 → ngtcp2   FAIL"), r.out);
  BOOST_TEST(contains(r.out, "conform → ngtcp2  PASS"), r.out);
  const json& interop = report.at("interop");
  BOOST_TEST(interop.at("pairs") == json::array({"ngtcp2 → ngtcp2", "conform → ngtcp2"}));
  BOOST_TEST(interop.at("cases") == json::array({"pairs/limit"}));
  BOOST_TEST(interop.at("cells")[0].at("status") == "FAIL");
  BOOST_TEST(contains(interop.at("cells")[0].at("headline"), "streams_blocked_sent"));
}

BOOST_AUTO_TEST_CASE(a_bad_profile_stops_the_run_with_its_file_and_line) {
  const std::string dir = scratch_dir("bad-profile");
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/mine.toml",
             "[profile]\nname = \"mine\"\n\n[client]\nprogram = \"my-client\"\nargs = [\"-p\", \"{prot}\"]\n"
             "color = \"blue\"\n");
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"bad/one\"") + kCaseHead +
                                                            "\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:6:16: plugin 'external': client.args item: unknown placeholder "
                                        "'{prot}'; known: address, port,"),
             r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:7:1: plugin 'external': unknown key 'color' in [client]; "
                                        "expected program, package, args, env, prepare, files, forks"),
             r.err);
  BOOST_TEST(!fs::exists(dir + "/out/bad"), "nothing ran");
}

BOOST_AUTO_TEST_CASE(a_missing_program_is_unsupported_naming_it) {
  const auto [r, c] = run_profile("ghost", "[client]\nprogram = \"no-such-quic-client\"\nargs = [\"{url}\"]\n"
                                           "[server]\nprogram = \"no-such-quic-server\"\n");
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(c.at("status") == "UNSUPPORTED");
  BOOST_TEST(contains(c.at("headline"), "profile 'ghost' (server): program 'no-such-quic-server' not found in "),
             c.at("headline"));
}

// A client that dies sends nothing: the run is an ERROR naming its exit
// status, and no_connection_error, which only looks for faults, does not pass
// on captures without a connection.
BOOST_AUTO_TEST_CASE(a_crashing_client_is_an_error_not_a_pass) {
  const auto [r, c] = run_profile(
      "crashy", "[client]\nprogram = \"/bin/sh\"\nargs = [\"-c\", \"echo boom >&2; kill -SEGV $$\"]\n"
                "[server]\nprogram = \"conform-quic\"\n"
                "args = [\"server\", \"--listen\", \"{address}:{port}\", \"--cert\", \"{cert}\", \"--key\", \"{key}\", "
                "\"--htdocs\", \"{htdocs}\"]\n");
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(c.at("status") == "ERROR", c.dump());
  BOOST_TEST(contains(c.at("headline"), "client (crashy) ended abnormally: exit status 139"), c.at("headline"));
  BOOST_TEST(contains(c.at("headline"), "boom"), c.at("headline"));
}

// A server that exits without a word: the reason says so, never an empty
// detail after the colon.
BOOST_AUTO_TEST_CASE(a_silent_server_is_an_error_saying_it_wrote_nothing) {
  const auto [r, c] = run_profile("silent", "[client]\nprogram = \"/bin/true\"\nargs = []\n"
                                            "[server]\nprogram = \"/bin/sh\"\nargs = [\"-c\", \"exit 3\"]\n");
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(c.at("status") == "ERROR", c.dump());
  const std::string headline = c.at("headline");
  BOOST_TEST(contains(headline, "server (silent) exited with status 3 before binding UDP port "), headline);
  BOOST_TEST(headline.ends_with(": it wrote nothing on stderr"), headline);
}

BOOST_AUTO_TEST_SUITE_END()
