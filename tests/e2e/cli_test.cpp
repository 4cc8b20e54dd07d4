// The `conform` command line as a user meets it: help, version, listing,
// selection, mutants, seeds and replay, unsupported cases, report files.
#include "support/support.hpp"

#include <conform/plugin.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace conform::test;

namespace {

const std::string kSuites = std::string(CONFORM_TEST_DATA_DIR) + "/suites";
const std::string kMutants = kSuites + "/mutants.toml";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every member name of `j` with the path it was found at, but for the
// members whose names are data: the values of params, knobs and network,
// the sections by RFC section, and `offline` (docs/offline.md lists it).
void member_names(const nlohmann::json& j, const std::string& path, std::map<std::string, std::string>& out) {
  if (j.is_array())
    for (const auto& item : j) member_names(item, path + "[]", out);
  if (!j.is_object()) return;
  for (const auto& [key, value] : j.items()) {
    out.emplace(key, path + "/" + key);
    if (key == "params" || key == "knobs" || key == "network" || key == "offline") continue;
    if (key == "sections") {
      for (const auto& section : value) member_names(section, path + "/sections/*", out);
      continue;
    }
    member_names(value, path + "/" + key, out);
  }
}

std::string last_line(const std::string& text) {
  auto end = text.size() - (text.ends_with('\n') ? 1 : 0);
  return text.substr(text.rfind('\n', end - 1) + 1, end - text.rfind('\n', end - 1) - 1);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_test)

BOOST_AUTO_TEST_CASE(version_and_help_on_every_subcommand) {
  auto v = run_conform({"--version"});
  BOOST_TEST(v.exit_code == 0);
  BOOST_TEST(v.out == "conform 0.1.0\n");
  for (const char* sub : {"run", "list", "plugins"}) {
    auto h = run_conform({sub, "--help"});
    BOOST_TEST(h.exit_code == 0, sub);
    BOOST_TEST(contains(h.out, "--plugin-dir"), sub);
  }
  auto run_help = run_conform({"run", "--help"});
  for (const char* option : {"--out", "--jobs", "--filter", "--section", "--seed", "--junit",
                             "--json", "--timeout", "--quiet", "--verbose"})
    BOOST_TEST(contains(run_help.out, option), option);
  // Each option's argument named once; each command its own exit codes.
  BOOST_TEST(contains(run_help.out, "  -j,--jobs N  "), run_help.out);
  BOOST_TEST(contains(run_help.out, "  --timeout SECONDS=60  "), run_help.out);
  BOOST_TEST(contains(run_help.out, "Exit codes: 0 no case failed"), run_help.out);
  auto list_help = run_conform({"list", "--help"});
  BOOST_TEST(contains(list_help.out, "Exit codes: 0 printed; 2 bad input"), list_help.out);
  BOOST_TEST(!contains(list_help.out, "run only"), list_help.out);
}

// `list -v` shows what each case judges: its checks at their levels with
// the parameters the suite sets, and its mutants with what they must fail.
BOOST_AUTO_TEST_CASE(list_verbose_shows_checks_levels_and_mutants) {
  auto r = run_conform({"list", kMutants, "-v", "--filter", "mutant/killed"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "mutant/killed  plugin=fixture scenario=echo rfc=9000§4.6 mutants=1\n"
                      "    expect datagrams_captured [expectation]  from=\"server\", vantage=\"client\"\n"
                      "    mutant server.echo=false  fails datagrams_captured\n");
  // A case without mutants says why.
  auto control = run_conform({"list", std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000", "-v", "--filter",
                              "max-streams-uni/fanout-short"},
                             ".", {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  BOOST_TEST(control.exit_code == 0, control.err);
  BOOST_TEST(contains(control.out, "\n    no mutant: a control: its streams stay within the initial limit"),
             control.out);
}

// A second Ctrl-C ends conform by the default action and leaves
// `.conform.lock` behind: a file, not a lock, which the next run takes.
BOOST_AUTO_TEST_CASE(a_lock_file_left_behind_does_not_block_the_next_run) {
  const std::string dir = scratch_dir("cli_stale_lock");
  write_file(dir + "/.conform.lock", "");
  auto r = run_conform({"run", kMutants, "--filter", "mutant/killed", "--out", dir, "-q"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/.conform.lock"));
}

// A run that read the external plugin's own profiles replays with them:
// without, a suite naming one of them is bad input.
BOOST_AUTO_TEST_CASE(the_replay_line_carries_the_external_profiles) {
  const std::string dir = scratch_dir("cli_replay_profiles");
  auto r = run_conform({"run", kMutants, "--filter", "seeds/flaky", "--out", dir, "-q"}, ".",
                       {"CONFORM_EXTERNAL_PROFILES=/my profiles:/more"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(contains(r.out, "replay: CONFORM_EXTERNAL_PROFILES='/my profiles:/more' conform run " + kMutants), r.out);
}

// docs/reports.md's JSON schema names every member a real report holds
// (the schema in the docs is held to the output, not written beside it).
BOOST_AUTO_TEST_CASE(the_json_schema_in_the_docs_names_every_member_of_a_report) {
  const std::string doc = read_file(std::string(CONFORM_SOURCE_DIR) + "/docs/reports.md");
  const auto at = doc.find("## JSON (`--json FILE`)");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  const std::string block = doc.substr(at, doc.find("\n```\n", doc.find("```", at) + 3) - at);
  std::set<std::string> documented;
  const std::regex quoted("\"([a-z_]+)\"");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), quoted); it != std::sregex_iterator(); ++it)
    documented.insert((*it)[1]);
  const std::string dir = scratch_dir("cli_json_schema");
  std::map<std::string, std::string> seen;
  // A run with failures, seeds and mutants, and an offline check with
  // states a run never has.
  run_conform({"run", kMutants, "--out", dir + "/run", "-q", "--json", dir + "/run.json"});
  member_names(nlohmann::json::parse(read_file(dir + "/run.json")), "", seen);
  const std::string captures = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  run_conform({"check", captures + "handshake.pcap", std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000", "--out",
               dir + "/check", "-q", "--json", dir + "/check.json"},
              ".", {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  member_names(nlohmann::json::parse(read_file(dir + "/check.json")), "", seen);
  BOOST_TEST(seen.size() > 40u);
  for (const auto& [name, path] : seen) BOOST_TEST(documented.count(name) == 1u, path << " is not in docs/reports.md");
}

// A profile of one's own named without CONFORM_EXTERNAL_PROFILES (a
// replay line pasted without it): the error says where profiles come from.
BOOST_AUTO_TEST_CASE(an_unknown_implementation_names_where_profiles_come_from) {
  const std::string dir = scratch_dir("cli_unknown_implementation");
  const std::string suite = write_file(dir + "/mine.toml",
                                       "[suite]\ntitle = \"x\"\n\n[[case]]\nid = \"x/mine\"\nrfc = \"9000§4.6\"\n"
                                       "requirement = \"MUST x\"\nplugin = \"external\"\nscenario = \"request-response\"\n"
                                       "client = { implementation = \"mystack\" }\n  [[case.expect]]\n"
                                       "  check = \"no_connection_error\"\n");
  auto r = run_conform({"list", suite}, ".", {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, ":10:29: knob of plugin 'external': 'implementation' is \"mystack\", not one of "), r.err);
  BOOST_TEST(contains(r.err, "; the profile playing this role: one shipped with conform, or one of your own in a "
                             "folder of CONFORM_EXTERNAL_PROFILES\n"),
             r.err);
}

// With -v a surviving mutant says why: the check that held, with its
// summary, and the folder of the mutant's run.
BOOST_AUTO_TEST_CASE(a_surviving_mutant_says_which_check_held) {
  const std::string dir = scratch_dir("cli_mutant_survives");
  auto r = run_conform({"run", kMutants, "--filter", "mutant/survives", "-v", "--out", dir});
  BOOST_TEST(r.exit_code == 1);
  // Simulated runs keep the CPUs busy: one job per CPU unless -j says.
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  BOOST_TEST(contains(r.out, " · 1 case · " + std::to_string(cpus) + (cpus == 1 ? " job" : " jobs") + " · seed 1"),
             r.out);
  BOOST_TEST(contains(r.out, "    mutant server.echo=false: SURVIVED: PASS [expectation] datagrams_captured: "
                             "client.pcap holds 3 datagrams from client (required >= 1) (" +
                                 dir + "/mutant/survives/@mutant-1)\n"),
             r.out);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  BOOST_TEST(run_conform({}).exit_code == 2);
  BOOST_TEST(run_conform({"run"}).exit_code == 2);
  BOOST_TEST(run_conform({"run", kMutants, "--no-such-option"}).exit_code == 2);
  BOOST_TEST(run_conform({"run", kMutants, "-j", "0"}).exit_code == 2);
  BOOST_TEST(run_conform({"run", kMutants, "--timeout", "-1"}).exit_code == 2);
  auto missing = run_conform({"run", "no/such/suite.toml"});
  BOOST_TEST(missing.exit_code == 2);
  BOOST_TEST(missing.err == "no/such/suite.toml: no such suite file or folder\n");
  auto nothing = run_conform({"run", kMutants, "--filter", "nope*"});
  BOOST_TEST(nothing.exit_code == 2);
  BOOST_TEST(nothing.err == kMutants + ": no case matches --filter nope*\n");
}

BOOST_AUTO_TEST_CASE(bad_option_values_exit_2_before_running) {
  const std::string dir = scratch_dir("cli_option_values");
  for (const char* timeout : {"nan", "inf", "1e10", "0"})
    BOOST_TEST(run_conform({"run", kMutants, "--timeout", timeout, "--out", dir}).exit_code == 2, timeout);
  // Integers are whole decimal numbers in range, never clamped, wrapped or
  // read as octal or hex: the option and the value are named.
  for (const char* seed : {"-1", "99999999999999999999999", "18446744073709551616", "abc", "0x10", "1e3"}) {
    auto r = run_conform({"run", kMutants, "--seed", seed, "--out", dir});
    BOOST_TEST(r.exit_code == 2, seed);
    BOOST_TEST(contains(r.err, std::string("--seed: '") + seed +
                                   "' is not a whole number from 0 to 18446744073709551615\n"),
               seed << ": " << r.err);
  }
  for (const char* jobs : {"0", "257", "-1", "4294967297", "99999999999999999999", "0x10"}) {
    auto r = run_conform({"run", kMutants, "-j", jobs, "--out", dir});
    BOOST_TEST(r.exit_code == 2, jobs);
    BOOST_TEST(contains(r.err, std::string("--jobs: '") + jobs + "' is not a whole number from 1 to 256\n"),
               jobs << ": " << r.err);
  }
  auto largest = run_conform({"run", kMutants, "--seed", "18446744073709551615", "--filter", "seeds/flaky", "--out",
                              dir + "/largest"});
  BOOST_TEST(contains(largest.out, "seed 18446744073709551615"), largest.out + largest.err);
  // An empty path names nothing to write: refused, not taken as the
  // current folder or as no report.
  for (const char* option : {"--out", "--json", "--junit", "--html", "--baseline"}) {
    auto empty = run_conform({"run", kMutants, option, ""});
    BOOST_TEST(empty.exit_code == 2, option << ": " << empty.out + empty.err);
    BOOST_TEST(contains(empty.err, std::string(option) + ": an empty path names nothing"), empty.err);
  }
  auto same = run_conform({"run", kMutants, "--json", dir + "/r", "--junit", dir + "/r", "--out", dir});
  BOOST_TEST(same.exit_code == 2);
  BOOST_TEST(same.err == dir + "/r: --json and --junit name the same file\n");
  auto unwritable = run_conform({"run", kMutants, "--json", "/proc/r.json", "--out", dir});
  BOOST_TEST(unwritable.exit_code == 2);
  BOOST_TEST(unwritable.out.empty());
  BOOST_TEST(unwritable.err == "/proc/r.json: --json: cannot create a file in /proc: No such file or directory\n",
             unwritable.err);
  // A folder where a file is to be written: said so, not "write failed".
  const std::string capture = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/handshake.pcap";
  auto qlog = run_conform({"dissect", capture, "--qlog", dir});
  BOOST_TEST(qlog.exit_code == 2);
  BOOST_TEST(qlog.err == dir + ": cannot write the report: is a folder\n", qlog.err);
}

BOOST_AUTO_TEST_CASE(a_second_run_into_the_same_out_folder_is_refused) {
  const std::string dir = scratch_dir("cli_lock");
  const std::string suite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/isolation.toml";
  // The first run holds the folder while its hanging case waits out 2 s.
  pid_t first = fork();
  if (first == 0) {
    run_conform({"run", suite, "--filter", "isolation/hang", "--timeout", "2", "--out", dir});
    _exit(0);
  }
  CommandResult second;
  for (int i = 0; i < 100; ++i) {
    usleep(20'000);
    second = run_conform({"run", suite, "--filter", "isolation/echo", "--out", dir});
    if (second.exit_code == 2) break;
  }
  waitpid(first, nullptr, 0);
  BOOST_TEST(second.exit_code == 2);
  BOOST_TEST(second.err == dir + ": --out: another conform run is writing into this folder\n");
  auto after = run_conform({"run", suite, "--filter", "isolation/echo", "--out", dir});
  BOOST_TEST(after.exit_code == 0, after.err);
}

BOOST_AUTO_TEST_CASE(plugins_describes_the_fixture) {
  auto r = run_conform({"plugins"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(contains(r.out, "fixture 1.0\n  file: " + std::string(CONFORM_TEST_PLUGIN_DIR) + "/fixture.so\n"
                             "  abi: " + std::to_string(conform::kAbiVersion) + "\n  time: simulated\n  roles: client, server\n"), r.out);
  BOOST_TEST(contains(r.out, "    echo (boolean) = true  whether the server answers\n"), r.out);
  BOOST_TEST(contains(r.out, "      mode (string) = \"plain\" one of plain|fancy  a string parameter\n"));
}

BOOST_AUTO_TEST_CASE(a_bad_plugin_file_is_one_line_and_exit_2) {
  const std::string bad = std::string(CONFORM_TEST_BAD_PLUGIN_DIR) + "/wrong_abi.so";
  auto r = run_conform({"plugins", "--plugin", bad});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == bad + ": ABI version 999, but this conform needs " +
                       std::to_string(conform::kAbiVersion) + "; rebuild the plugin against this conform\n");
  auto dir = run_conform({"list", kMutants, "--plugin-dir", "/no/such/dir"});
  BOOST_TEST(dir.exit_code == 2);
  BOOST_TEST(dir.err == "/no/such/dir: no such plugin folder\n");
}

BOOST_AUTO_TEST_CASE(list_shows_expanded_cases) {
  const std::string dir = scratch_dir("cli_list");
  const std::string suite = write_file(dir + "/m.toml", R"([[case]]
id = "m/x"
rfc = "9000§4.6"
requirement = "MUST"
plugin = "fixture"
scenario = "echo"
matrix = { datagrams = [1, 2], "network.rtt_ms" = [10, 20.5] }
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
)");
  auto r = run_conform({"list", suite});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out ==
             "m/x[datagrams=1,network.rtt_ms=10]  plugin=fixture scenario=echo rfc=9000§4.6\n"
             "m/x[datagrams=1,network.rtt_ms=20.5]  plugin=fixture scenario=echo rfc=9000§4.6\n"
             "m/x[datagrams=2,network.rtt_ms=10]  plugin=fixture scenario=echo rfc=9000§4.6\n"
             "m/x[datagrams=2,network.rtt_ms=20.5]  plugin=fixture scenario=echo rfc=9000§4.6\n");
}

BOOST_AUTO_TEST_CASE(validation_errors_name_file_line_column_and_run_nothing) {
  const std::string dir = scratch_dir("cli_validation");
  const std::string suite = write_file(dir + "/bad.toml", R"([[case]]
id = "bad/knob"
rfc = "9000§4.6"
requirement = "MUST"
plugin = "fixture"
scenario = "echo"
server = { ecoh = false }
  [[case.expect]]
  check = "datagrams_capture"
  vantage = "client"
)");
  write_file(dir + "/report.json", "kept");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/report.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == suite + ":7:12: unknown knob of plugin 'fixture': 'ecoh' (did you mean 'echo'?)\n" +
                          suite + ":9:11: unknown check 'datagrams_capture' (did you mean 'datagrams_captured'?)\n");
  BOOST_TEST(r.out.empty());
  BOOST_TEST(read_file(dir + "/report.json") == "kept");
  BOOST_TEST(!std::filesystem::exists(dir + "/out"));
}

// Mutants judged for real: one whose run reaches the virtual-time budget
// (a deadlock's symptom) is judged on the captures it left, killed or not,
// its TIMEOUT shown on its run; a case's xfail never hides a mutant that
// survived; and a mutant runs on every seed of its case, killed only when
// killed on each (here half the datagrams are lost: seeds 1 and 3 lose the
// echo, seeds 2 and 4 do not).
BOOST_AUTO_TEST_CASE(mutants_are_judged_on_every_seed_after_a_timeout_and_despite_xfail) {
  const std::string dir = scratch_dir("cli_mutants_judged");
  const std::string head = "rfc = \"9000§4.6\"\nrequirement = \"the server MUST answer (fixture)\"\n"
                           "plugin = \"fixture\"\nscenario = \"sim-echo\"\nparams = { datagrams = 400 }\n";
  const std::string suite = write_file(dir + "/s.toml", "[[case]]\nid = \"mutant/deadlocks\"\n" + head + R"toml(
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "server"
  min = 400
  [[case.mutant]]
  network = { budget_ms = 100 }
  fails = ["datagrams_captured"]

[[case]]
id = "mutant/deadlocks-unseen"
)toml" + head + R"toml(
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "client"
  [[case.mutant]]
  network = { budget_ms = 100 }
  fails = ["datagrams_captured"]

[[case]]
id = "mutant/survives-xfail"
xfail = "a known bug (fixture)"
)toml" + head + R"toml(
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "client"
  [[case.mutant]]
  server = { echo = false }
  fails = ["datagrams_captured"]

[[case]]
id = "mutant/lucky-seeds"
seeds = 4
)toml" + head + R"toml(
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "server"
  [[case.mutant]]
  network = { loss_rate = 0.5 }
  params = { datagrams = 1 }
  fails = ["datagrams_captured"]
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json", "-v"});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "PASS        mutant/deadlocks  "), r.out);
  BOOST_TEST(contains(r.out, "FAIL        mutant/deadlocks-unseen  "), r.out);
  BOOST_TEST(contains(r.out, "mutant survived: check datagrams_captured passed with network.budget_ms=100"), r.out);
  BOOST_TEST(contains(r.out, "FAIL        mutant/survives-xfail  "), r.out);
  BOOST_TEST(contains(r.out, "mutant survived: check datagrams_captured passed with server.echo=false"), r.out);
  BOOST_TEST(contains(r.out, "FAIL        mutant/lucky-seeds  "), r.out);
  BOOST_TEST(contains(r.out, "mutant params.datagrams=1, network.loss_rate=0.5: SURVIVED on seeds 2, 4 of 4: PASS "
                             "[expectation] datagrams_captured: client.pcap holds 1 datagrams from server"),
             r.out);
  BOOST_TEST(last_line(r.out) == "1 passed, 3 failed", r.out);
  const auto report = nlohmann::json::parse(read_file(dir + "/r.json"));
  const auto& deadlock = report["cases"][0]["mutants"][0];
  BOOST_TEST(deadlock["killed"] == true, deadlock.dump());
  BOOST_TEST(deadlock["run"]["status"] == "TIMEOUT", deadlock.dump());
  BOOST_TEST(contains(deadlock["run"]["reason"], "virtual-time budget of 100 ms"), deadlock.dump());
  BOOST_TEST(deadlock["run"]["checks"][0]["verdict"] == "FAIL", deadlock.dump());
  const auto& lucky = report["cases"][3]["mutants"][0];
  BOOST_TEST(lucky["killed"] == false, lucky.dump());
  BOOST_TEST(lucky["seeds"] == nlohmann::json::array({1, 2, 3, 4}), lucky.dump());
  BOOST_TEST(lucky["survived_seeds"] == nlohmann::json::array({2, 4}), lucky.dump());
  BOOST_TEST(lucky["run"]["seed"] == 2, lucky.dump());
  BOOST_TEST(report["cases"][3]["seed"] == 2, report["cases"][3].dump());
}

BOOST_AUTO_TEST_CASE(mutants_seeds_unsupported_and_reports) {
  const std::string dir = scratch_dir("cli_mutants");
  auto r = run_conform({"run", kMutants, "--out", dir + "/out", "--json", dir + "/r.json",
                        "--junit", dir + "/r.xml"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(contains(r.out, "PASS        mutant/killed  "), r.out);
  BOOST_TEST(contains(r.out, "1 mutant killed"));
  BOOST_TEST(contains(r.out, "FAIL        mutant/survives  "));
  BOOST_TEST(contains(r.out, "mutant survived: check datagrams_captured passed with server.echo=false"));
  BOOST_TEST(contains(r.out, "FAIL        seeds/flaky  "));
  BOOST_TEST(contains(r.out, "2/4 seeds passed  datagrams_captured [expectation]: client.pcap holds 0 datagrams from server"));
  BOOST_TEST(contains(r.out, "(seed 1; replay: conform run " + kMutants + " --seed 1 --filter seeds/flaky)"));
  BOOST_TEST(contains(r.out, "UNSUPPORTED unsupported/runtime  "));
  BOOST_TEST(contains(r.out, "s  the fixture cannot run this here\n"));
  BOOST_TEST(contains(r.out, "sections covered: 9000§4.6 (1/2), 9000§13.2 (0/1), 9000§13.2.1 (0/1)\n"));
  BOOST_TEST(last_line(r.out) == "1 passed, 2 failed, 1 skipped");

  auto report = nlohmann::json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(report["cases"].size() == 4u);
  BOOST_TEST(report["cases"][2]["runs"].size() == 4u);
  BOOST_TEST(report["cases"][2]["runs_passed"] == 2);
  BOOST_TEST(report["cases"][1]["mutants"][0]["survived"][0] == "datagrams_captured");
  BOOST_TEST(report["sections"]["9000§4.6"]["passed"] == 1);
  BOOST_TEST(report["sections"]["9000§4.6"]["failed"] == 1);
  const std::string xml = read_file(dir + "/r.xml");
  BOOST_TEST(contains(xml, "<testsuite name=\"" + kMutants + "\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\""));
  BOOST_TEST(contains(xml, "<skipped message=\"the fixture cannot run this here\"/>"));
  BOOST_TEST(std::filesystem::exists(dir + "/out/seeds/flaky/@seed-3/verdict.json"));
  BOOST_TEST(std::filesystem::exists(dir + "/out/mutant/killed/@mutant-1/client.pcap"));
}

BOOST_AUTO_TEST_CASE(the_replay_command_replays_one_seed) {
  const std::string dir = scratch_dir("cli_replay");
  auto odd = run_conform({"run", kMutants, "--seed", "1", "--filter", "seeds/flaky", "--out", dir});
  BOOST_TEST(odd.exit_code == 1);
  BOOST_TEST(contains(odd.out, "seed 1 (pinned)"));
  BOOST_TEST(last_line(odd.out) == "0 passed, 1 failed");
  auto even = run_conform({"run", kMutants, "--seed", "2", "--filter", "seeds/flaky", "--out", dir});
  BOOST_TEST(even.exit_code == 0);
  BOOST_TEST(last_line(even.out) == "1 passed, 0 failed");
}

BOOST_AUTO_TEST_CASE(section_selects_by_prefix_and_quiet_prints_failures_only) {
  const std::string dir = scratch_dir("cli_section");
  auto r = run_conform({"run", kMutants, "--section", "9000§13.2", "--quiet", "--out", dir});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(!contains(r.out, "mutant/"));
  BOOST_TEST(contains(r.out, "FAIL        seeds/flaky"));
  BOOST_TEST(!contains(r.out, "UNSUPPORTED"));
  BOOST_TEST(last_line(r.out) == "0 passed, 1 failed, 1 skipped");
}

BOOST_AUTO_TEST_SUITE_END()
