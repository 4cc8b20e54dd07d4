// The external plugin as a user runs it: third-party QUIC programs from TOML
// profiles through the loopback relay, judged from the relay's captures;
// Chromium, Firefox and quinn 0.9 as peers; a profile's throwaway folder, a
// forking program ended with its forks, a missing peer (UNSUPPORTED naming
// its package, an ERROR under CONFORM_REQUIRE_PEERS=1).
// The ngtcp2 pairs need Debian's gtlsclient/gtlsserver and openssl and are
// skipped, saying so, without them (failed under CONFORM_REQUIRE_TOOLS=1;
// the peers' tests under CONFORM_REQUIRE_PEERS=1); bad profiles and missing
// programs need nothing installed.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>


#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <fstream>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;
// The tests that expect UNSUPPORTED must not inherit .ci/run's setting.
const std::string kPeersOptional = "CONFORM_REQUIRE_PEERS=0";

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
  for (const auto& k : c.at("runs")[0].at("checks")) out[k.at("check")] = k.at("verdict") == "PASS";
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
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, kPeersOptional});
  return {r, case_named(json::parse(read_file(dir + "/r.json")), name + "/one")};
}

std::string build_program(const std::string& name) {
  return (fs::path(CONFORM_PLUGIN_DIR).parent_path() / name).string();
}

// Runs case `peer/one` of a one-case suite with profile `name` (TOML after its
// [profile] table) playing the client against conform-quic's server.
struct ClientRun {
  CommandResult run;
  json report;
  std::string dir;
};
ClientRun run_client_profile(const std::string& name, const std::string& client, const std::string& env) {
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

// Runs the cases `expected` names of suites/interop/`suite` (2 jobs) and
// checks each one's status: the verdicts tshark gives on their captures.
// Returns the JSON report.
json run_expecting(const std::string& suite, const std::map<std::string, std::string>& expected) {
  const std::string dir = scratch_dir(suite);
  std::vector<std::string> args = {"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/" + suite,
                                   "--out", dir + "/out", "--json", dir + "/r.json", "-j", "2"};
  for (const auto& [id, status] : expected) args.insert(args.end(), {"--filter", id});
  const auto r = run_conform(args, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const auto& [id, status] : expected) BOOST_TEST(case_named(report, id).at("status") == status, id << ": " << r.out);
  return report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(external_plugin_test)

// ngtcp2 against itself, and our client against ngtcp2's server: 40
// requests against a server limit of 10 streams. Every pair delivers every
// request and gets MAX_STREAMS; gtlsclient never sends STREAMS_BLOCKED (its
// reference capture shows the same), conform's client does.
BOOST_AUTO_TEST_CASE(ngtcp2_pairs_are_judged_from_the_relay_captures, *needs({"gtlsclient", "gtlsserver", "openssl"})) {
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
  // No profile here downloads: no empty download/ folder is left behind.
  BOOST_TEST(!fs::exists(run_dir + "/download"));
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

// A profile of one's own with problems: a case that plays it is refused
// with every problem at once, its missing program among them.
BOOST_AUTO_TEST_CASE(a_bad_profile_stops_the_run_with_its_file_and_line) {
  const std::string dir = scratch_dir("bad-profile");
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/mine.toml",
             "[profile]\nname = \"mine\"\n\n[client]\nprogram = \"my-client\"\nargs = [\"-p\", \"{prot}\"]\n"
             "color = \"blue\"\nenv = { \"A=B\" = \"x\" }\n");
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"bad/one\"") + kCaseHead +
                                                            "client = { implementation = \"mine\" }\n"
                                                            "\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:5:11: plugin 'external': program 'my-client' not found in "),
             r.err);
  BOOST_TEST(!contains(r.err, "warning:"), r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:6:16: plugin 'external': client.args item: unknown placeholder "
                                        "'{prot}'; known: address, port,"),
             r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:7:1: plugin 'external': unknown key 'color' in [client]; "
                                        "expected program, package, args, env, keylog, needs, prepare, files, forks, quic_knobs, "
                                        "profile_template"),
             r.err);
  BOOST_TEST(contains(r.err, profiles + "/mine.toml:8:9: plugin 'external': client.env: 'A=B' is not an environment "
                                        "variable name"),
             r.err);
  BOOST_TEST(!fs::exists(dir + "/out/bad"), "nothing ran");
}

// A profile template is made once, by the first run, and each run's
// {profile_dir} starts as a copy of it without what leave_out names, the
// role's files written over it. A template that cannot be made is the
// run's error, with the program's words; a template table without args or
// with a leave_out that climbs out is the profile's problem.
BOOST_AUTO_TEST_CASE(a_profile_template_is_made_once_and_each_run_starts_from_a_copy, *needs({"openssl"})) {
  const std::string dir = scratch_dir("profile-template");
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/warm.toml", "[profile]\nname = \"warm\"\n[client]\nprogram = \"/bin/sh\"\n"
             "args = [\"-c\", \"ls -A {profile_dir} > {download_dir}/listing; cat {profile_dir}/state >> "
             "{download_dir}/listing\"]\n"
             "[client.files]\n\"own\" = \"per run\"\n"
             "[client.profile_template]\n"
             "args = [\"-c\", \"echo made >> " + dir + "/made; echo warm > {profile_dir}/state; "
             "touch {profile_dir}/lock; ln -s " + dir + "/victim {profile_dir}/own; mkdir {profile_dir}/cache\"]\n"
             "leave_out = [\"lock\"]\n");
  write_file(dir + "/victim", "not conform's\n");
  write_file(profiles + "/cold.toml", "[profile]\nname = \"cold\"\n[client]\nprogram = \"/bin/sh\"\n"
             "args = [\"-c\", \"true\"]\n[client.profile_template]\n"
             "args = [\"-c\", \"echo tried >> " + dir + "/tried; echo no profile here >&2; exit 3\"]\n");
  write_file(profiles + "/piped.toml", "[profile]\nname = \"piped\"\n[client]\nprogram = \"/bin/sh\"\n"
             "args = [\"-c\", \"true\"]\n[client.profile_template]\nargs = [\"-c\", \"mkfifo {profile_dir}/pipe\"]\n");
  std::string cases = std::string("[[case]]\nid = \"warm/one\"") + kCaseHead +
                      "seeds = 3\nclient = { implementation = \"warm\" }\nserver = { implementation = \"conform\" }\n"
                      "\n  [[case.expect]]\n  check = \"no_connection_error\"\n";
  for (const char* name : {"cold", "piped"})
    cases += std::string("\n[[case]]\nid = \"") + name + "/one\"" + kCaseHead + "seeds = 2\nclient = { implementation = \"" +
             name + "\" }\nserver = { implementation = \"conform\" }\n\n  [[case.expect]]\n  check = \"no_connection_error\"\n";
  const std::string suite = write_file(dir + "/s.toml", cases);
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json", "-j", "1"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, kPeersOptional});
  BOOST_TEST(read_file(dir + "/made") == "made\n", r.out + r.err);
  BOOST_TEST(contains(r.out, " · 3 cases · 1 job · seed 1"), r.out);
  // The file the role writes replaced the link the template left: written
  // in {profile_dir}, not where the link pointed.
  BOOST_TEST(read_file(dir + "/victim") == "not conform's\n");
  const json report = json::parse(read_file(dir + "/r.json"));
  const json& warm = case_named(report, "warm/one");
  BOOST_TEST(warm.at("runs").size() == 3u);
  for (const auto& run : warm.at("runs")) {
    const std::string run_dir = run.at("artifact_dir");
    BOOST_TEST(read_file(run_dir + "/download/listing") == "cache\nown\nstate\nwarm\n", run_dir);
    BOOST_TEST(!fs::exists(run_dir + "/client-profile"), "the copy is thrown away with the run");
  }
  const std::string first = warm.at("runs")[0].at("artifact_dir");
  BOOST_TEST(contains(read_file(first + "/log.txt"), "external: client (warm): making the profile template each "
                                                     "run copies, in " + first + "/client-template.out and .err"));
  // A template that cannot be made is tried once: the other runs get its reason.
  const json& cold = case_named(report, "cold/one");
  BOOST_TEST(cold.at("status") == "ERROR");
  BOOST_TEST(read_file(dir + "/tried") == "tried\n");
  const std::string reason = cold.at("runs")[0].at("reason");
  BOOST_TEST(contains(reason, "making the profile template ("), reason);
  BOOST_TEST(contains(reason, ") failed with status 3: no profile here"), reason);
  BOOST_TEST(cold.at("runs")[1].at("reason") == reason + " (in an earlier run of this conform; not tried again)");
  const std::string piped = case_named(report, "piped/one").at("runs")[0].at("reason");
  BOOST_TEST(contains(piped, " left pipe, neither a file, a folder nor a symbolic link, which a copy cannot hold: "
                             "name it in leave_out"),
             piped);

  // Runs of real programs mostly wait on them: three jobs per CPU unless -j says.
  r = run_conform({"run", suite, "--out", dir + "/out", "--filter", "cold/*"}, ".",
                  {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, kPeersOptional});
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  BOOST_TEST(contains(r.out, " · 1 case · " + std::to_string(3 * cpus) + " jobs · seed 1"), r.out);

  write_file(profiles + "/cold.toml", "[profile]\nname = \"cold\"\n[client]\nprogram = \"/bin/sh\"\n"
             "[client.profile_template]\nleave_out = [\"../up\", 7, \"a\\u0000b\"]\n"
             "[server]\nprogram = \"/bin/sh\"\n[server.profile_template]\nargs = [\"{port}\"]\n");
  r = run_conform({"run", suite, "--out", dir + "/out2", "--filter", "cold/*"}, ".",
                  {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, kPeersOptional});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, profiles + "/cold.toml:5:1: plugin 'external': client.profile_template needs 'args', "
                                        "an array of strings"),
             r.err);
  BOOST_TEST(contains(r.err, profiles + "/cold.toml:10:9: plugin 'external': server.profile_template.args item: "
                                        "{port} differs from run to run, and the template is made once: only "
                                        "{profile_dir} (the template's folder) is allowed"),
             r.err);
  for (const char* at : {":6:14:", ":6:23:", ":6:26:"})
    BOOST_TEST(contains(r.err, profiles + "/cold.toml" + at + " plugin 'external': client.profile_template.leave_out "
                                          "items must be plain file names inside {profile_dir}"),
               r.err);
}

// One broken profile in CONFORM_EXTERNAL_PROFILES blocks only the cases
// that play it: the shipped interop suite and a case of conform against
// itself load and run, each problem a warning.
BOOST_AUTO_TEST_CASE(a_broken_profile_blocks_only_the_cases_that_play_it) {
  const std::string dir = scratch_dir("broken-profile-elsewhere");
  const std::string profiles = dir + "/profiles";
  const std::string mine = write_file(profiles + "/mine.toml", "[profile]\nname = \"mine\"\ncolour = \"red\"\n"
                                                               "[client]\nprogram = \"no-such-quic-client\"\n");
  const std::string unreadable = write_file(profiles + "/torn.toml", "[profile\n");
  const std::vector<std::string> env = {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles, kPeersOptional};
  const std::vector<std::string> warnings = {
      "warning: " + mine + ":3:1: plugin 'external': unknown key 'colour' in [profile]; expected name, summary, "
                           "version, version_from, workload\n",
      "warning: " + mine + ":5:11: plugin 'external': program 'no-such-quic-client' not found in ",
      "warning: " + unreadable + ":1:9: plugin 'external': Error while parsing table header: expected ']'"};
  auto list = run_conform({"list", std::string(CONFORM_SOURCE_DIR) + "/suites/interop"}, ".", env);
  BOOST_TEST(list.exit_code == 0, list.out + list.err);
  BOOST_TEST(contains(list.out, "interop/reserved-streams-toward-client[client.implementation=conform]"), list.out);
  for (const auto& w : warnings) BOOST_TEST(contains(list.err, w), list.err);

  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"conform/one\"") + kCaseHead +
                                                            "params = { requests = 3 }\n"
                                                            "\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto run = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", env);
  BOOST_TEST(run.exit_code == 0, run.out + run.err);
  BOOST_TEST(case_named(json::parse(read_file(dir + "/r.json")), "conform/one").at("status") == "PASS");
  for (const auto& w : warnings) BOOST_TEST(contains(run.err, w), run.err);

  // The profile that cannot be parsed has no name: a case naming it names
  // no profile, after the warning that says why.
  write_file(suite, std::string("[[case]]\nid = \"torn/one\"") + kCaseHead + "client = { implementation = \"torn\" }\n"
                    "\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  run = run_conform({"run", suite, "--out", dir + "/out2"}, ".", env);
  BOOST_TEST(run.exit_code == 2, run.out + run.err);
  BOOST_TEST(contains(run.err, "knob of plugin 'external': 'implementation' is \"torn\", not one of "), run.err);
  BOOST_TEST(contains(run.err, warnings[2]), run.err);
}

// A profile's row names its stack with the version installed here, read
// from dpkg's records or the npm package's package.json, never typed in:
// `conform plugins` lists it (compared with dpkg-query's answer), and a
// run's behaviour matrix carries it. A version_from that names no package
// manager or no package is the profile's problem, by file:line:col.
BOOST_AUTO_TEST_CASE(a_profiles_version_is_what_is_installed_here, *needs({"dpkg-query"})) {
  const std::string dir = scratch_dir("profile-versions");
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/mine.toml", "[profile]\nname = \"mine\"\nversion = \"1.2\"\nversion_from = \"debian:bash\"\n"
                                      "[client]\nprogram = \"/bin/true\"\n");
  write_file(profiles + "/other.toml", "[profile]\nname = \"other\"\nversion_from = \"npm:@nobody/none\"\n"
                                       "[client]\nprogram = \"/bin/true\"\n");
  const std::string bad = write_file(profiles + "/bad.toml",
                                     "[profile]\nname = \"bad\"\nversion_from = \"pip:requests\"\n"
                                     "[client]\nprogram = \"/bin/true\"\n");
  const std::string climbs = write_file(profiles + "/climbs.toml",
                                        "[profile]\nname = \"climbs\"\nversion = \"1\\n2\"\n"
                                        "version_from = \"npm:../../etc\"\n[client]\nprogram = \"/bin/true\"\n");
  const auto dpkg = run_program("/usr/bin/dpkg-query", {"-W", "-f=${Version}", "bash"});
  BOOST_TEST_REQUIRE(dpkg.exit_code == 0, dpkg.err);
  const std::vector<std::string> env = {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles};
  const auto r = run_conform({"plugins"}, ".", env);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, "\n      mine: mine 1.2 (Debian bash " + dpkg.out + ")\n"), r.out);
  BOOST_TEST(contains(r.out, "\n      other: other (npm @nobody/none: not installed)\n"), r.out);
  BOOST_TEST(contains(r.out, "    " + bad + ":3:16: version_from must be \"debian:PACKAGE\", \"npm:PACKAGE\" or "
                                            "\"conform\", not \"pip:requests\"\n"),
             r.out);
  BOOST_TEST(contains(r.out, "    " + climbs + ":3:11: 'version' must be a string of one line\n"), r.out);
  BOOST_TEST(contains(r.out, "    " + climbs + ":4:16: '../../etc' is not a package name after 'npm:'\n"), r.out);
  BOOST_TEST(!contains(r.out, "      bad:"), r.out);

  // conform against itself: its row says which conform it is.
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"conform/one\"") + kCaseHead +
                                                            "params = { requests = 3 }\nclient = { implementation = \"conform\" }\n"
                                                            "server = { implementation = \"conform\" }\n"
                                                            "\n  [[case.expect]]\n  check = \"max_streams_extended\"\n"
                                                            "  by = \"server\"\n  dir = \"bidi\"\n  may_be_unexercised = true\n");
  const auto version = run_conform({"--version"});
  BOOST_TEST_REQUIRE(version.out.starts_with("conform "), version.out);
  const std::string label = "conform (" + version.out.substr(0, version.out.size() - 1) + ")";
  const auto run = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", env);
  BOOST_TEST(run.exit_code == 0, run.out + run.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(report.at("interop").at("behaviours").at("versions") == (json{{"conform", label}}));
  BOOST_TEST(contains(run.out, "\n" + label + "  "), run.out);
}

// What an npm package says of its version is read with care: a
// package.json that is a folder or a FIFO (which would block the read) is
// named, not read, as is one without a version string or with a version
// that would break a table row; the plugin still loads. The plugin is
// copied beside a build folder of the test's own, whose peers/node_modules
// the npm versions are read from.
BOOST_AUTO_TEST_CASE(a_package_json_that_cannot_be_read_is_named_not_read) {
  const std::string dir = scratch_dir("profile-npm-versions");
  const std::string modules = dir + "/build/peers/node_modules";
  fs::create_directories(dir + "/build/plugins");
  fs::copy_file(fs::path(CONFORM_PLUGIN_DIR) / "external.so", dir + "/build/plugins/external.so");
  write_file(modules + "/ok/package.json", R"({"name": "ok", "version": "2.0.1"})");
  fs::create_directories(modules + "/folder/package.json");
  fs::create_directories(modules + "/fifo");
  BOOST_TEST_REQUIRE(mkfifo((modules + "/fifo/package.json").c_str(), 0644) == 0);
  write_file(modules + "/number/package.json", R"({"version": 3})");
  write_file(modules + "/escape/package.json", "{\"version\": \"1.0\\n\\u001b[31mred\"}");
  for (const char* package : {"ok", "folder", "fifo", "number", "escape", "missing"})
    write_file(dir + "/profiles/" + package + ".toml", std::string("[profile]\nname = \"p-") + package +
                                                           "\"\nversion_from = \"npm:" + package +
                                                           "\"\n[client]\nprogram = \"/bin/true\"\n");
  const auto r = run_conform({"plugins"}, ".",
                             {"CONFORM_PLUGIN_PATH=" + dir + "/build/plugins", "CONFORM_EXTERNAL_PROFILES=" + dir + "/profiles"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  for (const std::string line : {"p-ok: p-ok (npm ok 2.0.1)",
                                 "p-folder: p-folder (npm folder: package.json is not a regular file of at most 1 MiB)",
                                 "p-fifo: p-fifo (npm fifo: package.json is not a regular file of at most 1 MiB)",
                                 "p-number: p-number (npm number: package.json has no version string)",
                                 "p-escape: p-escape (npm escape: its version is not one line of at most 100 bytes)",
                                 "p-missing: p-missing (npm missing: not installed)"})
    BOOST_TEST(contains(r.out, "\n      " + line + "\n"), line << "\n" << r.out);
}

// Profile folders as a user's shell may give them: one named twice (or the
// shipped one named again) is read once, so nothing is a duplicate of
// itself; hidden files (an editor's .#x.toml lock) are not profiles; a
// FIFO is refused, not read (the read would never end); a file that
// cannot be read says why; a file for a folder is named as such; and a
// profile's name must read back in a case id.
BOOST_AUTO_TEST_CASE(profile_folders_are_read_once_and_only_their_regular_files) {
  const std::string dir = scratch_dir("profile-folders");
  const std::string profiles = dir + "/profiles";
  write_file(profiles + "/mine.toml", "[profile]\nname = \"mine\"\n[client]\nprogram = \"/bin/true\"\n");
  write_file(profiles + "/.hidden.toml", "not a profile");
  fs::create_symlink(profiles + "/gone", profiles + "/.#mine.toml");
  fs::create_symlink(profiles + "/gone", profiles + "/dangling.toml");
  BOOST_TEST_REQUIRE(mkfifo((profiles + "/fifo.toml").c_str(), 0644) == 0);
  write_file(profiles + "/odd.toml", "[profile]\nname = \"a,b=c]\"\n[client]\nprogram = \"/bin/true\"\n");
  const std::string shipped = (fs::path(CONFORM_PLUGIN_DIR) / "external-profiles").string();
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"mine/one\"") + kCaseHead +
                                                            "client = { implementation = \"mine\" }\n"
                                                            "\n  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"list", suite}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles + ":" + profiles + "/:" + shipped +
                                         ":/etc/passwd"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, "mine/one  plugin=external"), r.out);
  BOOST_TEST(!contains(r.err, "also defined"), r.err);
  BOOST_TEST(!contains(r.err, "hidden"), r.err);
  BOOST_TEST(contains(r.err, "warning: " + profiles + "/fifo.toml: plugin 'external': not a regular file\n"), r.err);
  BOOST_TEST(contains(r.err, "warning: " + profiles + "/dangling.toml: plugin 'external': not a regular file\n"),
             r.err);
  BOOST_TEST(contains(r.err, "warning: /etc/passwd: plugin 'external': not a folder: CONFORM_EXTERNAL_PROFILES names "
                             "folders\n"),
             r.err);
  BOOST_TEST(contains(r.err, "warning: " + profiles + "/odd.toml:2:8: plugin 'external': [profile] name \"a,b=c]\" "
                                                      "must be letters, digits, '.', '_' and '-'"),
             r.err);
}

// A user's own profile names the stack under test: its missing program is
// bad input naming the profile's line, never UNSUPPORTED (exit 0).
BOOST_AUTO_TEST_CASE(a_missing_program_of_ones_own_profile_is_exit_2_naming_it) {
  const std::string dir = scratch_dir("profile-ghost");
  const std::string profiles = dir + "/profiles";
  const std::string profile =
      write_file(profiles + "/ghost.toml", "[profile]\nname = \"ghost\"\n[client]\nprogram = \"no-such-quic-client\"\n"
                                           "args = [\"{url}\"]\n[server]\nprogram = \"no-such-quic-server\"\n"
                                           "package = \"the Debian package ghost-quic\"\n[[server.prepare]]\n"
                                           "program = \"no-such-tool\"\n");
  // A folder is no program, though access(2) calls it executable.
  const std::string folder = write_file(profiles + "/folder.toml", "[profile]\nname = \"folder\"\n[client]\n"
                                                                   "program = \"/tmp\"\n");
  const std::string suite = write_file(
      dir + "/s.toml", std::string("[[case]]\nid = \"ghost/one\"") + kCaseHead +
                           "client = { implementation = \"ghost\" }\nserver = { implementation = \"ghost\" }\n\n"
                           "  [[case.expect]]\n  check = \"no_connection_error\"\n");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + profiles});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, profile + ":4:11: plugin 'external': program 'no-such-quic-client' not found in "), r.err);
  BOOST_TEST(contains(r.err, profile + ":7:11: plugin 'external': program 'no-such-quic-server' not found in "), r.err);
  BOOST_TEST(contains(r.err, "/sbin: install the Debian package ghost-quic (scripts/setup.sh does)\n"), r.err);
  BOOST_TEST(contains(r.err, profile + ":10:11: plugin 'external': program 'no-such-tool' not found in "), r.err);
  BOOST_TEST(contains(r.err, folder + ":4:11: plugin 'external': program '/tmp' is not an executable file\n"), r.err);
  BOOST_TEST(!fs::exists(dir + "/out/ghost"), "nothing ran");
}

// The in-house QUIC's knobs reach conform's programs as options, and any
// other profile cannot play a case that sets one: UNSUPPORTED naming the
// knob and the profile, installed or not (a program of one's own profile
// that takes no knobs here).
BOOST_AUTO_TEST_CASE(an_in_house_knob_is_passed_to_conform_and_refused_elsewhere) {
  const std::string dir = scratch_dir("in-house-knobs");
  write_file(dir + "/profiles/plain.toml", "[profile]\nname = \"plain\"\n[client]\nprogram = \"/bin/true\"\n");
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"knobs/one\"") + kCaseHead +
      R"toml(params = { requests = 2, time_limit_ms = 5000 }
client = { emit_max_data = false }
server = { implementation = "conform", max_streams_policy = "every_stream", emit_streams_blocked = false }
matrix = { "client.implementation" = ["plain", "conform"] }

  [[case.expect]]
  check = "no_connection_error"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                       {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + dir + "/profiles", kPeersOptional});
  const json report = json::parse(read_file(dir + "/r.json"));
  const json& plain = case_named(report, "knobs/one[client.implementation=plain]");
  BOOST_TEST(plain.at("status") == "UNSUPPORTED", r.out);
  BOOST_TEST(plain.at("headline") == "knob emit_max_data is the in-house QUIC's: profile 'plain' cannot play it",
             plain.at("headline"));
  const json& ours = case_named(report, "knobs/one[client.implementation=conform]");
  BOOST_TEST(ours.at("status") == "PASS", r.out);
  const std::string log = read_file(ours.at("runs")[0].at("artifact_dir").get<std::string>() + "/log.txt");
  // Only the knobs set to other than their default, in the knob table's order.
  BOOST_TEST(contains(log, "--max-streams-policy every_stream --emit-streams-blocked false\n"), log);
  BOOST_TEST(contains(log, "--emit-max-data false\n"), log);
  BOOST_TEST(!contains(log, "--emit-max-streams"), log);
}

// conform's client refusing a knob value the suite loader lets through (an
// empty ALPN list) exits 2 before sending anything: the run is an ERROR
// saying so, not a FAIL of the server it never reached.
BOOST_AUTO_TEST_CASE(a_client_that_sends_nothing_and_fails_is_an_error) {
  const std::string dir = scratch_dir("client-refused");
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"refused/one\"") + kCaseHead +
      R"toml(params = { requests = 1, time_limit_ms = 5000 }
client = { implementation = "conform", alpn = [] }
server = { implementation = "conform" }

  [[case.expect]]
  check = "handshake_done_sent"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const json& c = case_named(report, "refused/one");
  BOOST_TEST(c.at("status") == "ERROR", c.dump());
  BOOST_TEST(c.at("headline").get<std::string>().starts_with(
                 "client (conform) ended (exit status 2) before sending a datagram: --alpn: "),
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
  BOOST_TEST(contains(c.at("headline"), "client (crashy) ended abnormally: killed by SIGSEGV: "), c.at("headline"));
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

// Third-party peers: profile folders, forking programs, quinn 0.9, browsers.

// A peer that is not installed (here: a file it needs) is UNSUPPORTED
// (npm_peers_test), and an ERROR when CONFORM_REQUIRE_PEERS=1.
BOOST_AUTO_TEST_CASE(require_peers_makes_a_missing_peer_an_error) {
  const auto [r, c, dir] = run_client_profile(
      "ghost", "[client]\nprogram = \"/bin/true\"\nneeds = [\"peers/no-such-package\"]\n", "CONFORM_REQUIRE_PEERS=1");
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(c.at("status") == "ERROR");
  BOOST_TEST(c.at("headline") == "CONFORM_REQUIRE_PEERS=1: profile 'ghost' (client): " + build_program("peers") +
                                     "/no-such-package is missing (scripts/setup.sh installs it)",
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
BOOST_AUTO_TEST_CASE(a_forking_program_takes_what_it_forked_with_it, *needs_peers({"unshare"})) {
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

// quinn 0.9 (Debian's crates, plugins/external/quinn-peer) in the raw-QUIC
// stream scenarios, against itself and against quiche: as the client it
// raises MAX_STREAMS_UNI and reads every stream; held at a server limit it
// waits and delivers all, without STREAMS_BLOCKED (PEERS.md's ground truth).
BOOST_AUTO_TEST_CASE(quinn_0_9_raises_limits_without_streams_blocked, *needs_peers({build_program("conform-quinn")})) {
  const std::string dir = scratch_dir("quinn");
  auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/raw_streams.toml", "--filter",
                        "*client.implementation=quinn-0.9,server.implementation=quinn-0.9*", "--out", dir + "/out",
                        "--json", dir + "/r.json", "-j", "2"},
                       ".", {kPluginPath});
  const json report = json::parse(read_file(dir + "/r.json"));
  const std::string pair = "[client.implementation=quinn-0.9,server.implementation=quinn-0.9]";
  const json& raised = case_named(report, "interop/streams-toward-client-uni" + pair);
  BOOST_TEST(raised.at("status") == "PASS", r.out);
  BOOST_TEST(checks_of(raised) == (std::map<std::string, bool>{{"max_streams_extended", true},
                                                                 {"streams_delivered", true},
                                                                 {"no_connection_error", true}}));
  const json& blocked = case_named(report, "interop/held-at-limit-client-uni" + pair);
  BOOST_TEST(checks_of(blocked) == (std::map<std::string, bool>{{"streams_blocked_sent", false},
                                                                  {"streams_delivered", true},
                                                                  {"no_connection_error", true}}),
             r.out);
}

// Both browsers, held at 10 bidi streams by conform's server, send
// STREAMS_BLOCKED (PEERS.md's ground truth), counted by tshark in the
// decrypted client-side capture; each run's profile folder goes. (Not the
// verdict of streams_blocked_sent: in real time a limit can be raised in the
// datagram after the one that reached it, and that check then wants a
// STREAMS_BLOCKED for that value too, so its verdict varies run to run.)
// A first flight held back or lost (suites/interop/first_flight.toml), with
// the verdicts tshark shows on these runs' captures. Held back (after the
// client's first datagram, its ClientHello, was lost): quic-go's client
// acknowledges the Handshake packets that came before the ServerHello
// (it kept them); ngtcp2's acknowledges only later ones, and the server
// re-sends the CRYPTO offsets the early ones carried (it dropped them).
// Lost: ngtcp2's server re-sends Initial and Handshake CRYPTO in one
// datagram; quinn 0.9's re-sends its 90-byte ServerHello in Initial-only
// datagrams and its 712 Handshake CRYPTO bytes only after the client's ACK.
const std::vector<std::string> kFirstFlightNeeds = {"gtlsclient", "gtlsserver", build_program("conform-quic-go"),
                                                    build_program("conform-quinn")};
BOOST_AUTO_TEST_CASE(first_flight_verdicts_match_what_tshark_shows, *needs_peers(kFirstFlightNeeds)) {
  const json report = run_expecting("first_flight.toml",
                                    {{"interop/early-packets-buffered[client.implementation=quic-go]", "PASS"},
                                     {"interop/early-packets-buffered[client.implementation=ngtcp2]", "FAIL"},
                                     {"interop/server-probes-coalesce[server.implementation=ngtcp2]", "PASS"},
                                     {"interop/server-probes-coalesce-raw[server.implementation=quinn-0.9]", "FAIL"}});
  const std::string quinn = case_named(report, "interop/server-probes-coalesce-raw[server.implementation=quinn-0.9]")
                                .at("headline");
  BOOST_TEST(quinn.starts_with("probe_coalesces_spaces [SHOULD]: frame "), quinn);
  BOOST_TEST(contains(quinn, " re-sent Initial CRYPTO in 137 of 1200 bytes without the "), quinn);
}

// suites/interop/scripted_peer.toml, conform scripted by the quic plugin's
// knobs, against ngtcp2 and quic-go. tshark on the captures: conform's
// client opens stream 40 past a limit of 10; ngtcp2's server closes with
// error 0x4 (STREAM_LIMIT_ERROR), quic-go 0.29's with 0x5
// (STREAM_STATE_ERROR, "peer tried to open stream 40 (current limit: 36)";
// its streams_map.go turns every stream error into STREAM_STATE_ERROR),
// which RFC 9000 §4.6 does not allow. Held at 10 streams by conform's
// server, which sends no MAX_STREAMS, quic-go's client sends one
// STREAMS_BLOCKED (0x16) and ngtcp2's none, as PEERS.md says.
const std::vector<std::string> kScriptedNeeds = {"gtlsclient", "gtlsserver", build_program("conform-quic-go")};
BOOST_AUTO_TEST_CASE(conform_scripted_by_the_quic_knobs_provokes_what_is_judged, *needs_peers(kScriptedNeeds)) {
  const json report =
      run_expecting("scripted_peer.toml",
                    {{"interop/stream-limit-violation-answered[server.implementation=ngtcp2]", "PASS"},
                     {"interop/stream-limit-violation-answered[server.implementation=quic-go]", "FAIL"},
                     {"interop/stream-limit-violation-answered[server.implementation=conform]", "PASS"},
                     {"interop/held-by-a-silent-server[client.implementation=ngtcp2]", "FAIL"},
                     {"interop/held-by-a-silent-server[client.implementation=quic-go]", "PASS"},
                     {"interop/held-by-a-silent-server[client.implementation=conform]", "PASS"}});
  const json& quic_go = case_named(report, "interop/stream-limit-violation-answered[server.implementation=quic-go]");
  BOOST_TEST(contains(quic_go.at("headline"), "no CONNECTION_CLOSE with STREAM_LIMIT_ERROR from server; transport "
                                              "closes seen: server STREAM_STATE_ERROR"),
             quic_go.at("headline"));
  const std::string log = read_file(quic_go.at("runs")[0].at("artifact_dir").get<std::string>() + "/log.txt");
  BOOST_TEST(contains(log, "--respect-peer-max-streams false\n"), log);
  const json& ngtcp2 = case_named(report, "interop/held-by-a-silent-server[client.implementation=ngtcp2]");
  BOOST_TEST(contains(ngtcp2.at("headline"), "never raised; no STREAMS_BLOCKED 10 sent"), ngtcp2.at("headline"));
}

// Held at 0 (suites/interop/scripted_peer.toml, zero_initial_stream_limits
// and zero_initial_data_limit): conform's server allows no stream of the
// case's direction, or conform's client no byte, until 300 ms after the
// handshake. tshark on the held side's capture: quic-go's HTTP/3 client
// says STREAMS_BLOCKED 0 (0x16) before the server's first MAX_STREAMS (10,
// no earlier than 300 ms into the capture); ngtcp2's and quinn 0.9's (uni,
// 0x17) say nothing. Of the servers held at 0 bytes, conform's says
// DATA_BLOCKED 0 (0x14) before the client's first MAX_DATA (65536, no
// earlier than 300 ms); quic-go's says it only at the later limits,
// ngtcp2's never. Every stream is delivered.
const std::vector<std::string> kHeldAtZeroNeeds = {"gtlsclient", "gtlsserver", "tshark",
                                                   build_program("conform-quic-go"), build_program("conform-quinn")};
BOOST_AUTO_TEST_CASE(stacks_held_at_a_limit_of_0_are_judged_as_tshark_shows, *needs_peers(kHeldAtZeroNeeds)) {
  const std::string http3 = "interop/held-at-zero-by-a-late-server[client.implementation=",
                    raw = "interop/held-at-zero-raw[client.implementation=quinn-0.9]",
                    data = "interop/held-at-zero-by-a-late-client[server.implementation=";
  const json report = run_expecting("scripted_peer.toml", {{http3 + "quic-go]", "PASS"},
                                                           {http3 + "ngtcp2]", "FAIL"},
                                                           {raw, "FAIL"},
                                                           {data + "quic-go]", "FAIL"},
                                                           {data + "ngtcp2]", "FAIL"},
                                                           {data + "conform]", "PASS"}});
  struct Seen {
    std::string id, check, held, blocked_type, blocked_field, raise_type, raise_field, first_raise;
    bool says_blocked_0;
  };
  // A client held at a stream limit (blocked frame type, MAX_STREAMS type,
  // first raise), a server at the data limit.
  const auto streams = [](const std::string& id, const char* blocked, const char* raise, const char* first, bool says) {
    return Seen{id, "streams_blocked_sent", "client", blocked, "quic.sib.stream_limit", raise, "quic.ms.max_streams",
                first, says};
  };
  const auto bytes = [](const std::string& id, bool says) {
    return Seen{id, "data_blocked_sent", "server", "0x14", "quic.sb.stream_data_limit", "0x10", "quic.md.maximum_data",
                "65536", says};
  };
  for (const Seen& seen : {streams(http3 + "quic-go]", "0x16", "0x12", "10", true),
                           streams(http3 + "ngtcp2]", "0x16", "0x12", "10", false),
                           streams(raw, "0x17", "0x13", "5", false), bytes(data + "quic-go]", false),
                           bytes(data + "ngtcp2]", false), bytes(data + "conform]", true)}) {
    const json& c = case_named(report, seen.id);
    const auto checks = checks_of(c);
    BOOST_TEST(checks.at(seen.check) == seen.says_blocked_0, seen.id);
    BOOST_TEST(checks.at("streams_delivered"), seen.id);
    const std::string run_dir = c.at("runs")[0].at("artifact_dir");
    const std::string capture = seen.held + ".pcap", held_address = seen.held == "client" ? "127.0.0.1" : "127.0.0.2";
    const std::string raise = "ip.src != " + held_address + " && quic.frame_type == " + seen.raise_type;
    std::istringstream raises(tshark_fields(run_dir, capture, raise, {"frame.time_relative", seen.raise_field}));
    std::string first_raise;
    std::getline(raises, first_raise);
    BOOST_TEST_REQUIRE(!first_raise.empty(), seen.id << ": no raise");
    const double raised_at = std::stod(first_raise.substr(0, first_raise.find('\t')));
    BOOST_TEST(raised_at >= 0.3, seen.id << ": " << first_raise);
    BOOST_TEST(first_raise.substr(first_raise.find('\t') + 1) == seen.first_raise, seen.id);
    const std::string sent_blocked = "ip.src == " + held_address + " && quic.frame_type == " + seen.blocked_type;
    std::istringstream blocked(
        tshark_fields(run_dir, capture, sent_blocked, {"frame.time_relative", seen.blocked_field}));
    bool blocked_at_0 = false;
    for (std::string line; std::getline(blocked, line);) {
      const auto tab = line.find('\t');
      if (line.substr(tab + 1).starts_with("0") && std::stod(line.substr(0, tab)) < raised_at) blocked_at_0 = true;
    }
    BOOST_TEST(blocked_at_0 == seen.says_blocked_0, seen.id);
  }
}

// The same over each capture of the client's connections (client.pcap,
// client-2.pcap, ...: a browser may open several).
std::string client_frames(const std::string& run_dir, const std::string& filter, const std::string& field) {
  std::string out;
  for (const auto& f : fs::directory_iterator(run_dir)) {
    const std::string name = f.path().filename().string();
    if (!name.starts_with("client") || f.path().extension() != ".pcap") continue;
    out += tshark_fields(run_dir, name, filter, {field});
  }
  return out;
}

const std::vector<std::string> kBrowserNeeds = {"chromium", "firefox-esr", "certutil", "unshare", "tshark"};
BOOST_AUTO_TEST_CASE(browsers_held_at_the_limit_say_streams_blocked, *needs_peers(kBrowserNeeds)) {
  const std::string dir = scratch_dir("browsers");
  auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/browsers.toml", "--filter",
                        "*server.implementation=conform*", "--out", dir + "/out", "--json", dir + "/r.json", "-j", "2"},
                       ".", {kPluginPath});
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const char* browser : {"chromium", "firefox"}) {
    const json& c = case_named(report, std::string("interop/browser-page[client.implementation=") + browser +
                                           ",server.implementation=conform]");
    BOOST_TEST((c.at("status") == "PASS" || c.at("status") == "FAIL"), browser << ": " << r.out);
    const std::string run_dir = c.at("runs")[0].at("artifact_dir");
    BOOST_TEST(!fs::exists(run_dir + "/client-profile"), browser);
    const std::string limits = client_frames(run_dir, "quic.frame_type == 0x16", "quic.sib.stream_limit");
    BOOST_TEST(!limits.empty(), browser << " sent no STREAMS_BLOCKED");
  }
}

// Held for good by conform's server (emit_max_streams = false), both
// browsers must say STREAMS_BLOCKED: a verdict that no longer depends on
// when a MAX_STREAMS arrives. tshark: Chromium sent 21 packets with
// STREAMS_BLOCKED, Firefox one (on whichever of its two connections reached
// the limit); the server sent no MAX_STREAMS.
BOOST_AUTO_TEST_CASE(browsers_held_by_a_silent_server_say_streams_blocked, *needs_peers(kBrowserNeeds)) {
  const std::string dir = scratch_dir("browsers-silent");
  auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/scripted_peer.toml", "--filter",
                        "interop/browser-held-by-a-silent-server*", "--out", dir + "/out", "--json", dir + "/r.json",
                        "-j", "2"},
                       ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const char* browser : {"chromium", "firefox"}) {
    const json& c =
        case_named(report, std::string("interop/browser-held-by-a-silent-server[client.implementation=") + browser + "]");
    BOOST_TEST(c.at("status") == "PASS", browser << ": " << c.dump());
    const std::string run_dir = c.at("runs")[0].at("artifact_dir");
    BOOST_TEST(!client_frames(run_dir, "quic.frame_type == 0x16", "frame.number").empty(),
               browser << " sent no STREAMS_BLOCKED");
    BOOST_TEST(client_frames(run_dir, "quic.frame_type == 0x12", "frame.number").empty(),
               browser << ": the server raised the limit");
  }
}

// The scripts of issue 43 against ngtcp2 and quic-go (scripted_peer.toml),
// each provoking in the other stack what a suites/rfc9000 case judges.
// tshark on the captures: held at 10 streams by a server that raises the
// limit only when asked, quic-go's client sends STREAMS_BLOCKED 10 (0x16)
// and gets every answer, ngtcp2's sends none and is held until the time
// limit; held at 65536 bytes by a client that raises MAX_DATA only when
// asked, quic-go's server sends DATA_BLOCKED 65536 (0x14), ngtcp2's sends
// none and stays there; unanswered for 3.5 s, both clients re-send their
// ClientHello in probes whose intervals double (RFC 9002 §6.2.1, §6.2.4).
BOOST_AUTO_TEST_CASE(the_scripts_provoke_what_is_judged_in_third_party_stacks, *needs_peers(kScriptedNeeds)) {
  const json report =
      run_expecting("scripted_peer.toml",
                    {{"interop/held-until-it-asks-for-streams[client.implementation=ngtcp2]", "FAIL"},
                     {"interop/held-until-it-asks-for-streams[client.implementation=quic-go]", "PASS"},
                     {"interop/held-until-it-asks-for-data[server.implementation=ngtcp2]", "FAIL"},
                     {"interop/held-until-it-asks-for-data[server.implementation=quic-go]", "PASS"},
                     {"interop/slow-server-flight[client.implementation=ngtcp2]", "PASS"},
                     {"interop/slow-server-flight[client.implementation=quic-go]", "PASS"}});
  const std::string streams =
      case_named(report, "interop/held-until-it-asks-for-streams[client.implementation=ngtcp2]").at("headline");
  BOOST_TEST(contains(streams, "streams_blocked_sent [SHOULD]: bidi streams: at the limit 10 from frame "), streams);
  BOOST_TEST(contains(streams, "never raised; no STREAMS_BLOCKED 10 sent"), streams);
  const std::string data =
      case_named(report, "interop/held-until-it-asks-for-data[server.implementation=ngtcp2]").at("headline");
  BOOST_TEST(contains(data, "data_blocked_sent [SHOULD]: connection data: at the limit 65536 from frame "), data);
  BOOST_TEST(contains(data, "never raised; no DATA_BLOCKED 65536 sent"), data);
}

// The refusing and the resetting scripts of issue 43 (scripted_peer.toml)
// against ngtcp2 and quic-go. tshark on the captures, 2026-12-05: refused,
// quic-go's client opens all 40 requests (its last stream 156) and the
// server resets each (RESET_STREAM on 40 streams); ngtcp2's client stops
// after its first 10 (streams 0-36), its own choice; cut short after 1000
// bytes, both open all 20 (last stream 76) and see 20 resets; no transport
// CONNECTION_CLOSE anywhere.
const std::vector<std::string> kRefusingNeeds = {"gtlsclient", build_program("conform-quic-go"), "tshark"};
BOOST_AUTO_TEST_CASE(refused_and_cut_short_requests_end_no_connection, *needs_peers(kRefusingNeeds)) {
  const std::string dir = scratch_dir("scripted-refusals");
  std::vector<std::string> args = {"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/scripted_peer.toml", "--out",
                                   dir + "/out", "--json", dir + "/r.json", "-j", "2"};
  const std::vector<std::string> ids = {"interop/requests-refused[client.implementation=ngtcp2]",
                                        "interop/requests-refused[client.implementation=quic-go]",
                                        "interop/answers-cut-short[client.implementation=ngtcp2]",
                                        "interop/answers-cut-short[client.implementation=quic-go]"};
  for (const auto& id : ids) args.insert(args.end(), {"--filter", id});
  const auto r = run_conform(args, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const auto& id : ids) BOOST_TEST(case_named(report, id).at("status") == "PASS", id << ": " << r.out);
  auto last_stream = [&](const std::string& id) {
    const std::string ids_seen = client_frames(dir + "/out/" + id, "ip.src == 127.0.0.1 && quic.stream.stream_id",
                                               "quic.stream.stream_id");
    long last = -1;
    std::istringstream in(ids_seen);
    for (std::string line; std::getline(in, line, '\n');)
      for (std::istringstream cells(line); std::getline(cells, line, ',');) last = std::max(last, std::stol(line));
    return last;
  };
  BOOST_TEST(last_stream(ids[1]) == 156);
  BOOST_TEST(last_stream(ids[0]) == 36);
  BOOST_TEST(last_stream(ids[2]) == 76);
  BOOST_TEST(last_stream(ids[3]) == 76);
  for (const auto& id : ids)
    BOOST_TEST(client_frames(dir + "/out/" + id, "quic.frame_type == 0x1c", "frame.number").empty(), id);
}

// A client that writes its key log only as it exits (and a server that
// writes none): the relay cannot read the packets its selectors by content
// name when they pass, so the run is an ERROR naming the selector, not a
// PASS on a path nothing was dropped from. Needs only conform-quic.
BOOST_AUTO_TEST_CASE(a_key_log_written_late_makes_a_content_selector_an_error) {
  const std::string dir = scratch_dir("relay-late-keys");
  const std::string quic = build_program("conform-quic");
  const std::string wrapper = write_file(dir + "/late.sh", "#!/bin/sh\n# usage: late.sh KEYLOG conform-quic-args...\n"
                                                          "keys=$1; shift\n\"" + quic + "\" \"$@\" --keylog \"$keys.tmp\"\n"
                                                          "rc=$?; cat \"$keys.tmp\" >> \"$keys\"; exit $rc\n");
  chmod(wrapper.c_str(), 0755);
  write_file(dir + "/profiles/late.toml", R"toml([profile]
name = "late"
[client]
program = ")toml" + wrapper + R"toml("
keylog = true
args = ["{keylog}", "client", "{url}", "-n", "{requests}", "--timeout", "{time_limit_s}"]
[server]
program = ")toml" + quic + R"toml("
keylog = false
args = ["server", "--listen", "{address}:{port}", "--cert", "{cert}", "--key", "{key}", "--htdocs", "{htdocs}"]
)toml");
  const std::string suite = write_file(dir + "/s.toml", R"toml([[case]]
id = "relay/late-keys"
rfc = "9000§13.3"
requirement = "the server MUST send a HANDSHAKE_DONE frame as soon as the handshake is complete (RFC 9001 §4.1.2)"
plugin = "external"
scenario = "request-response"
params = { requests = 1, response_bytes = 1000, time_limit_ms = 5000 }
client = { implementation = "late" }
server = { implementation = "late" }
network = { rtt_ms = 10, drop = ["server:frame=HANDSHAKE_DONE:1st"] }

  [[case.expect]]
  check = "handshake_done_sent"
  level = "MUST"
)toml");
  const auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                             {kPluginPath, "CONFORM_EXTERNAL_PROFILES=" + dir + "/profiles"});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const json& c = case_named(report, "relay/late-keys");
  BOOST_TEST(c.at("status") == "ERROR", r.out);
  BOOST_TEST(contains(c.at("headline"), "network.drop 'server:frame=HANDSHAKE_DONE:1st' reads the packets of the server, "
                                        "but "),
             c.at("headline"));
  BOOST_TEST(contains(c.at("headline"), "carried packets the key logs could not read yet when they passed the relay"),
             c.at("headline"));
}

// ack_probes against third-party servers (scripted_peer.toml): conform's
// client acknowledges none of the server's Handshake probes while the relay
// keeps its Finished from the server. tshark on the server's capture: every
// Handshake ACK that reached quic-go before the Finished acknowledges its
// flight's first packet alone (largest 0), and quic-go's probe bursts after
// the first such ACK come at intervals that double; ngtcp2, which discards
// the cut datagram under 1200 bytes (RFC 9000 §14.1), probes once before
// the Finished arrives: NOT EXERCISED.
BOOST_AUTO_TEST_CASE(stale_acks_leave_third_party_probes_backing_off, *needs_peers({"gtlsserver", build_program("conform-quic-go"), "tshark"})) {
  const std::string dir = scratch_dir("stale-acks");
  const std::vector<std::string> ids = {"interop/probes-answered-by-stale-acks[server.implementation=ngtcp2]",
                                        "interop/probes-answered-by-stale-acks[server.implementation=quic-go]"};
  std::vector<std::string> args = {"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/scripted_peer.toml", "--out",
                                   dir + "/out", "--json", dir + "/r.json", "-j", "2"};
  for (const auto& id : ids) args.insert(args.end(), {"--filter", id});
  const auto r = run_conform(args, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(case_named(report, ids[0]).at("status") == "NOT EXERCISED", r.out);
  BOOST_TEST(case_named(report, ids[1]).at("status") == "PASS", r.out);
  // One value per matching frame of the server's capture.
  auto values = [&](const std::string& id, const std::string& filter, const std::string& field) {
    std::vector<double> out;
    std::istringstream in(tshark_fields(dir + "/out/" + id, "server.pcap", filter, {field}));
    for (std::string line; std::getline(in, line);) out.push_back(std::stod(line));
    return out;
  };
  const std::string finished = "ip.src == 127.0.0.1 && quic.long.packet_type == 2 && quic.frame_type == 0x06";
  const std::string client_acks = "ip.src == 127.0.0.1 && quic.long.packet_type == 2 && quic.frame_type == 0x02";
  const std::string resends = "ip.src == 127.0.0.2 && quic.long.packet_type == 2 && quic.crypto.offset == 0";
  // The server's bursts of Handshake CRYPTO from offset 0 after the first
  // client ACK and before the Finished arrived (a burst: datagrams within 1 ms).
  auto bursts = [&](const std::string& id) {
    const double first_ack = values(id, client_acks, "frame.time_relative").at(0);
    const double arrived = values(id, finished, "frame.time_relative").at(0);
    std::vector<double> out;
    for (double t : values(id, resends, "frame.time_relative"))
      if (t > first_ack && t < arrived && (out.empty() || t - out.back() > 0.001)) out.push_back(t);
    return out;
  };
  const double finished_at = values(ids[1], finished, "frame.time_relative").at(0);
  for (double largest : values(ids[1], client_acks + " && frame.time_relative < " + std::to_string(finished_at),
                               "quic.ack.largest_acknowledged"))
    BOOST_TEST(largest == 0.0);
  const std::vector<double> quic_go = bursts(ids[1]);
  BOOST_TEST_REQUIRE(quic_go.size() >= 3u);
  for (std::size_t i = 2; i < quic_go.size(); ++i)
    BOOST_TEST(quic_go[i] - quic_go[i - 1] >= 1.5 * (quic_go[i - 1] - quic_go[i - 2]), i);
  BOOST_TEST(bursts(ids[0]).size() <= 1u);
}

// suites/interop/violations.toml (issue 41): conform's client sends what
// RFC 9000 forbids once the handshake is confirmed. tshark on the relay's
// server capture: the client's 1-RTT packet carries the violation (a
// HANDSHAKE_DONE, 30; the reserved bits, 3) and ngtcp2's and quic-go's
// servers then close with the code the RFC names (PROTOCOL_VIOLATION, 10).
BOOST_AUTO_TEST_CASE(third_party_servers_answer_violations_with_the_rfc_code, *needs_peers(kScriptedNeeds)) {
  const std::string dir = scratch_dir("violations-interop");
  std::vector<std::string> ids;
  for (const std::string rule : {"handshake-done", "reserved-bits-set"})
    for (const std::string server : {"ngtcp2", "quic-go"})
      ids.push_back("interop/violation/" + rule + "[server.implementation=" + server + "]");
  std::vector<std::string> args = {"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/violations.toml", "--out",
                                   dir + "/out", "--json", dir + "/r.json", "-j", "2"};
  for (const auto& id : ids) args.insert(args.end(), {"--filter", id});
  const auto r = run_conform(args, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const auto& id : ids) {
    BOOST_TEST(case_named(report, id).at("status") == "PASS", id << ": " << r.out);
    auto fields = [&](const std::string& field) {
      return tshark_fields(dir + "/out/" + id, "server.pcap", "quic.short", {"ip.src", field});
    };
    // Whether a packet from the client has `value` among its `field` values.
    auto from_client = [&](const std::string& field, const std::string& value) {
      std::istringstream lines(fields(field));
      for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with("127.0.0.1\t")) continue;
        std::istringstream values(line.substr(10));
        for (std::string v; std::getline(values, v, ',');)
          if (v == value) return true;
      }
      return false;
    };
    BOOST_TEST((contains(id, "handshake-done") ? from_client("quic.frame_type", "30")
                                               : from_client("quic.short.reserved", "3")),
               id);
    BOOST_TEST(contains(fields("quic.cc.error_code"), "127.0.0.2\t10\n"), id);
  }
}

// The differences of suites/interop/violations.toml from the RFC, as tshark
// shows them: quic-go takes a NEW_CONNECTION_ID whose connection ID is zero
// bytes long (RFC 9000 §19.15: MUST close with FRAME_ENCODING_ERROR) and
// goes on without any CONNECTION_CLOSE; ngtcp2 answers a RESET_STREAM for
// one of its send-only streams with the generic PROTOCOL_VIOLATION where
// §19.4 names STREAM_STATE_ERROR (§11: allowed, a SHOULD missed); ngtcp2's
// client answers an unknown frame type otherwise (below).
BOOST_AUTO_TEST_CASE(violations_third_party_servers_answer_otherwise, *needs_peers(kScriptedNeeds)) {
  const std::string dir = scratch_dir("violations-differences");
  const std::string quic_go = "interop/violation/new-connection-id-zero-length[server.implementation=quic-go]";
  const std::string ngtcp2 = "interop/violation/reset-stream-send-only[server.implementation=ngtcp2]";
  const std::string ngtcp2_client = "interop/violation/unknown-frame-type-from-server[client.implementation=ngtcp2]";
  const auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/violations.toml", "--out",
                              dir + "/out", "--json", dir + "/r.json", "-j", "2", "--filter", quic_go, "--filter", ngtcp2,
                              "--filter", ngtcp2_client},
                             ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(contains(case_named(report, quic_go).at("headline"),
                      "connection_closed_with [MUST]: no CONNECTION_CLOSE with FRAME_ENCODING_ERROR|PROTOCOL_VIOLATION|"
                      "INTERNAL_ERROR from server; transport closes seen: none"),
             r.out);
  BOOST_TEST(contains(case_named(report, ngtcp2).at("headline"),
                      "connection_closed_with [SHOULD]: no CONNECTION_CLOSE with STREAM_STATE_ERROR from server; "
                      "transport closes seen: server PROTOCOL_VIOLATION"),
             r.out);
  auto tshark = [&](const std::string& id, const std::string& filter, const std::string& field) {
    return tshark_fields(dir + "/out/" + id, "server.pcap", filter, {field});
  };
  BOOST_TEST(tshark(quic_go, "ip.src == 127.0.0.1 && quic.frame_type == 0x18", "quic.nci.connection_id.length") == "0\n");
  BOOST_TEST(tshark(quic_go, "quic.frame_type == 0x1c", "frame.number").empty());
  BOOST_TEST(contains(tshark(ngtcp2, "ip.src == 127.0.0.2 && quic.frame_type == 0x1c", "quic.cc.error_code"), "10\n"));
  BOOST_TEST(!tshark(ngtcp2, "ip.src == 127.0.0.1 && quic.frame_type == 0x04", "frame.number").empty());
  // ngtcp2's client, sent frame type 0x3e (62) at the end of the server's
  // first 1-RTT packet, goes on reading the response and closes later with
  // STREAM_STATE_ERROR (5), not FRAME_ENCODING_ERROR (RFC 9000 §12.4).
  const auto client_capture = [&](const std::string& filter, const std::string& field) {
    return tshark_fields(dir + "/out/" + ngtcp2_client, "client.pcap", filter, {field});
  };
  BOOST_TEST(!client_capture("ip.src == 127.0.0.2 && quic.frame_type == 0x3e", "frame.number").empty());
  BOOST_TEST(client_capture("ip.src == 127.0.0.1 && quic.frame_type == 0x1c", "quic.cc.error_code") == "5\n");
  BOOST_TEST(contains(case_named(report, ngtcp2_client).at("headline"), "transport closes seen: client STREAM_STATE_ERROR"),
             r.out);
}

// RFC 9001's and RFC 9114's rules against ngtcp2 0.12.1 (GnuTLS) and
// quic-go 0.29, as tshark shows them: a TLS KeyUpdate (handshake type 24)
// in a 1-RTT packet makes ngtcp2's server abort (SIGABRT, no close);
// quic-go's server takes one right after the client's Finished in a
// Handshake packet and serves the request; ngtcp2's server answers a
// ClientHello without the quic_transport_parameters extension (57) with
// CRYPTO_ERROR 0x150 (336, internal_error) where RFC 9001 §8.2 names
// 0x16d; quic-go's HTTP/3 server, sent a second SETTINGS (4) on the
// client's control stream, answers the request (HEADERS, 1) and never
// closes (RFC 9114 §7.2.4: H3_FRAME_UNEXPECTED).
BOOST_AUTO_TEST_CASE(tls_and_http3_violations_third_party_servers_answer_otherwise, *needs_peers(kScriptedNeeds)) {
  const std::string dir = scratch_dir("tls-violations-differences");
  const std::string crash = "interop/violation/key-update[server.implementation=ngtcp2]";
  const std::string quic_go = "interop/violation/key-update-in-handshake[server.implementation=quic-go]";
  const std::string no_tp = "interop/violation/transport-parameters-extension-missing[server.implementation=ngtcp2]";
  const std::string settings = "interop/violation/h3-second-settings[server.implementation=quic-go]";
  const auto r = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/violations.toml", "--out",
                              dir + "/out", "--json", dir + "/r.json", "-j", "2", "--filter", crash, "--filter", quic_go,
                              "--filter", no_tp, "--filter", settings},
                             ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  for (const auto& id : {crash, quic_go, no_tp, settings}) BOOST_TEST(case_named(report, id).at("status") == "FAIL", id);
  auto tshark = [&](const std::string& id, const std::string& filter, const std::string& field) {
    return tshark_fields(dir + "/out/" + id, "server.pcap", filter, {field});
  };
  BOOST_TEST(!tshark(crash, "ip.src == 127.0.0.1 && quic.short && tls.handshake.type == 24", "frame.number").empty());
  BOOST_TEST(tshark(crash, "ip.src == 127.0.0.2 && quic.frame_type == 0x1c", "frame.number").empty());
  BOOST_TEST(contains(read_file(dir + "/out/" + crash + "/log.txt"), "the server had exited with status 134"));
  BOOST_TEST(!tshark(quic_go, "ip.src == 127.0.0.1 && quic.long.packet_type == 2 && tls.handshake.type == 24",
                     "frame.number")
                  .empty());
  BOOST_TEST(tshark(quic_go, "ip.src == 127.0.0.2 && quic.frame_type == 0x1c", "frame.number").empty());
  const std::string extensions = tshark(no_tp, "ip.src == 127.0.0.1 && tls.handshake.type == 1", "tls.handshake.extension.type");
  BOOST_TEST(!extensions.empty());
  BOOST_TEST(!contains("," + extensions.substr(0, extensions.find('\n')) + ",", ",57,"), extensions);
  BOOST_TEST(tshark(no_tp, "ip.src == 127.0.0.2 && quic.frame_type == 0x1c", "quic.cc.error_code") == "336\n");
  BOOST_TEST(contains(tshark(settings, "ip.src == 127.0.0.1 && http3.stream_type == 0", "http3.frame_type"), "4,4"));
  BOOST_TEST(!tshark(settings, "ip.src == 127.0.0.2 && http3.frame_type == 1", "frame.number").empty());
  BOOST_TEST(tshark(settings, "ip.src == 127.0.0.2 && (quic.frame_type == 0x1c || quic.frame_type == 0x1d)", "frame.number")
                 .empty());
}

// Selectors by content on the relay: it reads each datagram with the key
// logs the programs write as they run. Against ngtcp2's and quic-go's
// servers, the server's first datagram carrying HANDSHAKE_DONE and the
// client's first carrying an ack-eliciting Handshake packet (its Finished)
// are lost: tshark, decrypting the relay's captures, counts one such
// datagram fewer at the receiver than at the sender, and the HANDSHAKE_DONE
// the client got is a later packet than the first the server sent.
BOOST_AUTO_TEST_CASE(the_relay_picks_packets_by_content_from_the_programs_key_logs, *needs_peers({"gtlsserver", build_program("conform-quic-go"), "tshark"})) {
  const std::string dir = scratch_dir("relay-content");
  const std::string suite = write_file(dir + "/s.toml", R"toml([[case]]
id = "relay/by-content"
rfc = "9000§13.3"
requirement = "the server MUST send a HANDSHAKE_DONE frame as soon as the handshake is complete (RFC 9001 §4.1.2), and sends it again until acknowledged (§13.3)"
plugin = "external"
scenario = "request-response"
params = { requests = 1, response_bytes = 1000, time_limit_ms = 5000 }
client = { implementation = "conform" }
network = { rtt_ms = 10, drop = ["server:frame=HANDSHAKE_DONE:1st", "client:handshake:ack_eliciting:1st"] }
matrix = { "server.implementation" = ["ngtcp2", "quic-go"] }

  [[case.expect]]
  check = "handshake_done_sent"
  level = "MUST"
)toml");
  const auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json", "-j", "2"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  auto tshark = [](const std::string& run, const std::string& pcap, const std::string& filter, const std::string& field) {
    return tshark_fields(run, pcap, filter, {field});
  };
  auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  for (const std::string server : {"ngtcp2", "quic-go"}) {
    const std::string run = dir + "/out/relay/by-content[server.implementation=" + server + "]";
    const std::string done = "ip.src == 127.0.0.2 && quic.frame_type == 0x1e";
    const std::string sent_done = tshark(run, "server.pcap", done, "quic.packet_number");
    const std::string got_done = tshark(run, "client.pcap", done, "quic.packet_number");
    BOOST_TEST(lines(sent_done) >= 2, server << ": " << sent_done);
    BOOST_TEST(lines(got_done) == lines(sent_done) - 1, server << ": sent " << sent_done << " got " << got_done);
    BOOST_TEST(got_done.substr(0, got_done.find('\n')) != sent_done.substr(0, sent_done.find('\n')), server);
    const std::string finished = "ip.src == 127.0.0.1 && quic.long.packet_type == 2 && quic.frame_type == 0x06";
    const auto sent_finished = lines(tshark(run, "client.pcap", finished, "frame.number"));
    BOOST_TEST(sent_finished >= 2, server);
    BOOST_TEST(lines(tshark(run, "server.pcap", finished, "frame.number")) == sent_finished - 1, server);
  }
}


// The folder the runs share (plugins/external/run_cache.hpp) outlives a
// conform killed before it unloads its plugins; the next conform removes
// it, and only it: not one whose `.alive` a living conform holds locked,
// not one without `.alive` (being made, or an older conform's) or whose
// `.alive` is no regular file (a FIFO must not hold it up), and its own
// goes when it ends.
BOOST_AUTO_TEST_CASE(the_next_conform_removes_the_cache_folder_a_killed_one_left) {
  const std::string dir = scratch_dir("cache-folders");
  const std::string tmp = dir + "/tmp";
  fs::remove_all(tmp);
  write_file(tmp + "/conform-external-killed/.alive", "");
  write_file(tmp + "/conform-external-killed/certificate-1200-day0/cert.pem", "made");
  write_file(tmp + "/conform-external-living/.alive", "");
  write_file(tmp + "/conform-external-older/cert.pem", "made");
  // Not a lock file: a FIFO (opening it would wait for a writer) and a folder.
  fs::create_directories(tmp + "/conform-external-fifo");
  BOOST_TEST_REQUIRE(mkfifo((tmp + "/conform-external-fifo/.alive").c_str(), 0600) == 0);
  fs::create_directories(tmp + "/conform-external-folder/.alive");
  const int living = open((tmp + "/conform-external-living/.alive").c_str(), O_RDONLY | O_CLOEXEC);
  BOOST_TEST_REQUIRE(flock(living, LOCK_SH) == 0);
  const std::string suite = write_file(dir + "/s.toml", std::string("[[case]]\nid = \"cache/one\"") + kCaseHead +
      R"toml(params = { requests = 1, time_limit_ms = 5000 }
client = { implementation = "conform" }
server = { implementation = "conform" }

  [[case.expect]]
  check = "no_connection_error"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", {kPluginPath, "TMPDIR=" + tmp});
  close(living);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  std::set<std::string> left;
  for (const auto& entry : fs::directory_iterator(tmp)) left.insert(entry.path().filename().string());
  BOOST_TEST((left == std::set<std::string>{"conform-external-fifo", "conform-external-folder", "conform-external-living",
                                            "conform-external-older"}),
             "left in TMPDIR: " << [&] {
               std::string names;
               for (const auto& n : left) names += n + " ";
               return names;
             }());
}

BOOST_AUTO_TEST_SUITE_END()
