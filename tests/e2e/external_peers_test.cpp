// Third-party peers of the external plugin as a user meets them: quinn 0.9
// on the raw-streams scenario, browsers loading a page, a profile's
// throwaway folder, a forking program ended with everything it forked, and
// a missing peer (UNSUPPORTED naming its package; an error under
// CONFORM_REQUIRE_PEERS=1). Tests needing a peer skip without it
// (support/peers.hpp).
#include "support/peers.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;
// The tests below that expect UNSUPPORTED must not inherit .ci/run's setting.
const std::string kPeersOptional = "CONFORM_REQUIRE_PEERS=0";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const json& case_named(const json& report, const std::string& id) {
  for (const auto& c : report.at("cases"))
    if (c.at("id") == id) return c;
  BOOST_FAIL("no case " + id);
  throw;
}

std::map<std::string, bool> checks_of(const json& c) {
  std::map<std::string, bool> out;
  for (const auto& k : c.at("runs")[0].at("checks")) out[k.at("check")] = k.at("passed");
  return out;
}

std::string build_program(const std::string& name) {
  return (fs::path(CONFORM_PLUGIN_DIR).parent_path() / name).string();
}

// Runs case `id` of a one-case suite with profile `name` (TOML after its
// [profile] table) playing the client against conform-quic's server.
struct ProfileRun {
  CommandResult run;
  json report;
  std::string dir;
};
ProfileRun run_client_profile(const std::string& name, const std::string& client, const std::string& env) {
  const std::string dir = scratch_dir("peer-" + name);
  write_file(dir + "/profiles/" + name + ".toml", "[profile]\nname = \"" + name + "\"\n" + client);
  const std::string suite = write_file(dir + "/s.toml", R"toml([[case]]
id = "peer/one"
rfc = "9000§4.6"
requirement = "every stream MUST be delivered (§2.2)"
plugin = "external"
scenario = "request-response"
params = { requests = 3, time_limit_ms = 5000 }
client = { implementation = ")toml" + name + R"toml(" }
server = { implementation = "conform" }

  [[case.expect]]
  check = "no_connection_error"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + dir + "/profiles", env});
  return {r, case_named(json::parse(read_file(dir + "/r.json")), "peer/one"), dir};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(external_peers_test)

BOOST_AUTO_TEST_CASE(a_missing_peer_is_unsupported_naming_its_package) {
  const auto [r, c, dir] = run_client_profile(
      "ghost", "[client]\nprogram = \"no-such-browser\"\npackage = \"the Debian package ghost-browser\"\n",
      kPeersOptional);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(c.at("status") == "UNSUPPORTED");
  BOOST_TEST(contains(c.at("headline"), "program 'no-such-browser' not found in "), c.at("headline"));
  BOOST_TEST(contains(c.at("headline"), ": install the Debian package ghost-browser (scripts/setup.sh does)"),
             c.at("headline"));
}

BOOST_AUTO_TEST_CASE(require_peers_makes_a_missing_peer_an_error) {
  const auto [r, c, dir] = run_client_profile(
      "ghost", "[client]\nprogram = \"no-such-browser\"\npackage = \"the Debian package ghost-browser\"\n",
      "CONFORM_REQUIRE_PEERS=1");
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(c.at("status") == "ERROR");
  BOOST_TEST(contains(c.at("headline"), "CONFORM_REQUIRE_PEERS=1: profile 'ghost' (client): program 'no-such-browser'"),
             c.at("headline"));
}

// files are written into {profile_dir} and the prepare steps run in order
// before the program starts; the folder is gone after the run.
BOOST_AUTO_TEST_CASE(a_profile_prepares_its_throwaway_folder_and_it_is_removed) {
  const auto [r, c, dir] = run_client_profile("prepared", R"toml([client]
program = "/bin/sh"
args = ["-c", "cat {profile_dir}/settings.txt {profile_dir}/step1 {profile_dir}/step2"]

[[client.prepare]]
program = "/bin/sh"
args = ["-c", "echo first > {profile_dir}/step1"]

[[client.prepare]]
program = "/bin/sh"
args = ["-c", "test -f {profile_dir}/step1 && echo second > {profile_dir}/step2"]

[client.files]
"settings.txt" = "port {port}"
)toml", kPeersOptional);
  const std::string run_dir = c.at("runs")[0].at("artifact_dir");
  const std::string out = read_file(run_dir + "/client.out");
  BOOST_TEST(out.starts_with("port "), out);
  BOOST_TEST(contains(out, "first\nsecond\n"), out);
  BOOST_TEST(!fs::exists(run_dir + "/client-profile"));
  BOOST_TEST(contains(read_file(run_dir + "/log.txt"), "external: in a private network namespace"),
             read_file(run_dir + "/log.txt"));
}

// A program that forks runs as the first process of a PID namespace of its
// own: when it exits, what it left running is ended with it.
BOOST_AUTO_TEST_CASE(a_forking_program_takes_what_it_forked_with_it) {
  if (peer_missing({"unshare"}, "Debian package util-linux")) return;
  const auto [r, c, dir] = run_client_profile("forker", R"toml([client]
program = "/bin/sh"
forks = true
args = ["-c", "sleep 31.4159 & echo started"]
)toml", kPeersOptional);
  const std::string run_dir = c.at("runs")[0].at("artifact_dir");
  BOOST_TEST(read_file(run_dir + "/client.out") == "started\n");
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    BOOST_TEST(!contains(cmdline, "31.4159"), "still running: " << entry.path());
  }
}

// quinn 0.9 against itself (suites/interop/raw_streams.toml): both receivers
// raise MAX_STREAMS and every stream arrives; held at the limit, quinn 0.9
// sends no STREAMS_BLOCKED (PEERS.md's ground truth), the case's XFAIL.
BOOST_AUTO_TEST_CASE(quinn_0_9_raises_limits_and_never_says_streams_blocked) {
  if (peer_missing({build_program("conform-quinn")},
                   "Debian packages cargo, rustc, librust-quinn-dev, librust-tokio-dev, librust-rustls-dev"))
    return;
  const std::string dir = scratch_dir("quinn");
  auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/raw_streams.toml", "--out",
                        dir + "/out", "--json", dir + "/r.json"},
                       ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const std::string pair = "[client.implementation=quinn-0.9,server.implementation=quinn-0.9]";
  const json& raised = case_named(report, "interop/raw-streams" + pair);
  BOOST_TEST(raised.at("status") == "PASS", r.out);
  BOOST_TEST(checks_of(raised).size() == 5u);
  const json& blocked = case_named(report, "interop/raw-streams-blocked" + pair);
  BOOST_TEST(blocked.at("status") == "XFAIL", r.out);
  BOOST_TEST(checks_of(blocked) == (std::map<std::string, bool>{{"streams_blocked_sent", false}}));
}

// Both browsers, held at 10 bidi streams by conform's server, send
// STREAMS_BLOCKED (PEERS.md's ground truth); each run's profile folder goes.
BOOST_AUTO_TEST_CASE(browsers_held_at_the_limit_say_streams_blocked) {
  if (peer_missing({"chromium", "firefox-esr", "certutil", "unshare"},
                   "Debian packages chromium, firefox-esr, libnss3-tools, util-linux"))
    return;
  const std::string dir = scratch_dir("browsers");
  auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/browsers.toml", "--filter",
                        "*server.implementation=conform*", "--out", dir + "/out", "--json", dir + "/r.json", "-j", "2"},
                       ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const char* browser : {"chromium", "firefox"}) {
    const json& c = case_named(report, std::string("interop/browser-page[client.implementation=") + browser +
                                           ",server.implementation=conform]");
    BOOST_TEST(checks_of(c).at("streams_blocked_sent"), browser << ": " << r.out);
    const std::string run_dir = c.at("runs")[0].at("artifact_dir");
    BOOST_TEST(!fs::exists(run_dir + "/client-profile"), browser);
  }
}

BOOST_AUTO_TEST_SUITE_END()
