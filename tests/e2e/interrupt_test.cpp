// Ctrl-C in the middle of `conform run`, sent as a user's terminal would
// (SIGINT to the conform process): the finished cases are reported, the
// others are INTERRUPTED in every report, every process the runs started
// is gone within a second, the lock and the folders of runs that never
// started are removed, and the exit code is 130. An interop run is asked
// to stop first, and ends its programs and removes their folders.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kSuite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/interrupt.toml";

// Whether `pid` runs no more (gone, or a zombie waiting for its parent).
bool is_dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z' ||
         line[close + 2] == 'X';
}

// The process ids each hanging run wrote (the run and the process it
// started), once every one of `files` holds a whole line; fails after 30 s.
std::vector<pid_t> pids_of(const std::vector<std::string>& files, BackgroundProgram& run) {
  const auto limit = Clock::now() + std::chrono::seconds(30);
  std::vector<pid_t> pids;
  for (const auto& file : files) {
    // The shell creates the file before the program writes its line: wait
    // for the line's end, or a pid may be read from an empty file.
    while (read_file(file).find('\n') == std::string::npos) {
      BOOST_TEST_REQUIRE(run.wait(0.02) == -1, "conform ended early: " + run.out() + run.err());
      BOOST_TEST_REQUIRE((Clock::now() < limit), "no " + file + " after 30 s: " + run.out());
    }
    std::istringstream in(read_file(file));
    for (pid_t pid; in >> pid;) pids.push_back(pid);
  }
  return pids;
}

std::vector<std::string> empty_folders(const std::string& root) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_directory() && fs::is_empty(entry.path())) out.push_back(entry.path().string());
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// `conform run` of a one-case suite of the external plugin in `dir`, with
// the profiles of dir/profiles: case `id`, its params and roles as `roles`
// (TOML lines), judged by no_connection_error; its folder is dir/out/ID.
std::unique_ptr<BackgroundProgram> start_external_case(const std::string& dir, const std::string& id,
                                                       const std::string& roles) {
  const std::string suite = write_file(dir + "/s.toml", "[[case]]\nid = \"" + id + "\"\n" + R"toml(rfc = "9000§10.2"
requirement = "a connection MUST end without error (fixture)"
plugin = "external"
scenario = "request-response"
)toml" + roles + "  [[case.expect]]\n  check = \"no_connection_error\"\n");
  return std::make_unique<BackgroundProgram>(
      std::vector<std::string>{CONFORM_BINARY, "run", suite, "--out", dir + "/out"}, dir + "/conform", ".",
      std::vector<std::string>{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR,
                               "CONFORM_EXTERNAL_PROFILES=" + dir + "/profiles", "CONFORM_REQUIRE_PEERS=0"});
}

// A client that writes its process id to {profile_dir}/../client.pid and waits.
const char* kWaitingClient = R"toml([client]
program = "sh"
args = ["-c", "echo $$ > {profile_dir}/../client.pid; exec sleep 60"]
keylog = false
)toml";

// `conform run` of one interop case whose client is `client` (a [client]
// table that writes its process id to {profile_dir}/../client.pid and
// waits) and whose server is conform-quic, once both programs are up.
struct InteropRun {
  std::unique_ptr<BackgroundProgram> run;
  std::string folder;
  std::vector<pid_t> pids;
};

InteropRun start_interop_run(const std::string& name, const std::string& client) {
  const std::string dir = scratch_dir(name);
  const std::string conform_quic = (fs::path(CONFORM_PLUGIN_DIR).parent_path() / "conform-quic").string();
  write_file(dir + "/profiles/waiter.toml", "[profile]\nname = \"waiter\"\n\n" + client + R"toml(
[server]
program = "sh"
args = ["-c", "echo $$ > {profile_dir}/../server.pid; exec \"$0\" \"$@\"", ")toml" + conform_quic + R"toml(",
        "server", "--listen", "{address}:{port}", "--cert", "{cert}", "--key", "{key}", "--htdocs", "{htdocs}",
        "--keylog", "{keylog}"]
)toml");
  InteropRun r;
  r.run = start_external_case(dir, "interop/waits",
                              "params = { time_limit_ms = 60000 }\nclient = { implementation = \"waiter\" }\n"
                              "server = { implementation = \"waiter\" }\n");
  r.folder = dir + "/out/interop/waits";
  r.pids = pids_of({r.folder + "/server.pid", r.folder + "/client.pid"}, *r.run);
  BOOST_TEST_REQUIRE(r.pids.size() == 2u);
  BOOST_TEST_REQUIRE(fs::is_directory(r.folder + "/client-profile"));
  return r;
}

// Ctrl-C during an interop run: the external plugin is asked to stop, so it
// stops and reaps both programs (none is left, not even a zombie for init
// to reap) and removes their throwaway {profile_dir}s, as the docs promise.
// Returns the case's log.
std::string interrupt_interop_run(const std::string& name, const std::string& client) {
  const InteropRun r = start_interop_run(name, client);
  BOOST_TEST_REQUIRE(kill(r.run->pid(), SIGINT) == 0);
  BOOST_TEST(r.run->wait(20) == 130, r.run->out() + r.run->err());
  // Reaped by the run that started them: not even a zombie remains.
  for (const pid_t pid : r.pids)
    BOOST_TEST(!fs::exists("/proc/" + std::to_string(pid)), "process " << pid << " outlived conform");
  BOOST_TEST(!fs::exists(r.folder + "/client-profile"));
  BOOST_TEST(!fs::exists(r.folder + "/server-profile"));
  BOOST_TEST(json::parse(read_file(r.folder + "/verdict.json"))["status"] == "INTERRUPTED");
  return read_file(r.folder + "/log.txt");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(interrupt_test)

BOOST_AUTO_TEST_CASE(sigint_reports_the_finished_cases_and_marks_the_others_interrupted) {
  const std::string dir = scratch_dir("sigint");
  const std::string out = dir + "/out";
  BackgroundProgram run({CONFORM_BINARY, "run", kSuite, "-j", "2", "--out", out, "--json", dir + "/r.json",
                         "--junit", dir + "/j.xml", "--html", dir + "/r.html"},
                        dir + "/conform");
  const auto pids = pids_of({out + "/interrupt/hang-1/pids.txt", out + "/interrupt/hang-2/pids.txt"}, run);
  BOOST_TEST_REQUIRE(pids.size() == 4u);
  BOOST_TEST_REQUIRE(fs::exists(out + "/.conform.lock"));

  const auto sent = Clock::now();
  BOOST_TEST_REQUIRE(kill(run.pid(), SIGINT) == 0);
  // Every process of the hanging runs ends within a second.
  for (const pid_t pid : pids) {
    while (!is_dead(pid) && Clock::now() - sent < std::chrono::seconds(1))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BOOST_TEST(is_dead(pid), "process " << pid << " still runs 1 s after SIGINT");
  }
  BOOST_TEST(run.wait(20) == 130, run.out() + run.err());
  BOOST_TEST(run.err().find("conform: interrupted by SIGINT: the reports hold the 3 finished cases and the 4 "
                            "interrupted") != std::string::npos,
             run.err());
  BOOST_TEST(run.out().find("3 passed, 0 failed, 4 interrupted") != std::string::npos, run.out());

  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(report["interrupted"]["signal"] == "SIGINT");
  BOOST_TEST(report["totals"]["passed"] == 3);
  BOOST_TEST(report["totals"]["interrupted"] == 4);
  BOOST_REQUIRE_EQUAL(report["cases"].size(), 7u);
  for (int i = 0; i < 3; ++i) BOOST_TEST(report["cases"][i]["status"] == "PASS", report["cases"][i].dump());
  for (int i = 3; i < 7; ++i) BOOST_TEST(report["cases"][i]["status"] == "INTERRUPTED", report["cases"][i].dump());
  const std::string killed = report["cases"][3]["runs"][0]["reason"];
  BOOST_TEST(killed.find("stopped after ") == 0u, killed);
  BOOST_TEST(killed.find(" s: the run was interrupted by SIGINT") != std::string::npos, killed);
  BOOST_TEST(report["cases"][5]["runs"][0]["reason"] == "not started: the run was interrupted by SIGINT");

  const std::string junit = read_file(dir + "/j.xml");
  BOOST_TEST(junit.find("tests=\"7\" failures=\"0\" errors=\"0\" skipped=\"4\"") != std::string::npos, junit);
  BOOST_TEST(count(junit, "<skipped message=\"INTERRUPTED: ") == 4u, junit);
  BOOST_TEST(read_file(dir + "/r.html").find("interrupt/hang-4") != std::string::npos);

  // The runs that ran keep their folders, with a verdict; the others leave none.
  BOOST_TEST(!fs::exists(out + "/.conform.lock"));
  BOOST_TEST(json::parse(read_file(out + "/interrupt/echo-1/verdict.json"))["status"] == "PASS");
  BOOST_TEST(json::parse(read_file(out + "/interrupt/hang-1/verdict.json"))["status"] == "INTERRUPTED");
  BOOST_TEST(!fs::exists(out + "/interrupt/hang-3"));
  BOOST_TEST(!fs::exists(out + "/interrupt/hang-4"));
  const auto empty = empty_folders(out);
  BOOST_TEST(empty.empty(), empty.size() << " empty folders, the first " << (empty.empty() ? "" : empty[0]));
}

BOOST_AUTO_TEST_CASE(sigint_ends_an_interop_runs_programs_and_removes_their_folders) {
  const std::string log = interrupt_interop_run("sigint-interop", kWaitingClient);
  BOOST_TEST(contains(log, "external: conform stopped the run before the client ended: client ended with status 143, "
                           "server with status "),
             log);
}

// A browser runs as the first process of a PID namespace of its own, under
// `unshare --fork`, which blocks SIGTERM: the stop reaches the program
// itself, and one that ignores it is killed before unshare, which reaps it.
BOOST_AUTO_TEST_CASE(sigint_ends_a_forking_program_through_its_unshare, *needs_peers({"unshare"})) {
  // Its pid as /proc (the host's) numbers it: the parent of `cut`. As the
  // first process of its namespace, it ignores SIGTERM (no handler).
  const std::string log = interrupt_interop_run("sigint-interop-forks", R"toml([client]
program = "sh"
forks = true
args = ["-c", "cut -d ' ' -f 4 /proc/self/stat > {profile_dir}/../client.pid; exec sleep 60"]
keylog = false
)toml");
  BOOST_TEST(contains(log, "external: conform stopped the run before the client ended: client ended with status "),
             log);
}

// The next run into the same folder finds no lock in its way and clears
// the earlier results of cases it does not run, saying so.
// Ctrl-C while a role's [[prepare]] step runs: the step is stopped at once,
// the log says where the run stopped, and the folders go.
BOOST_AUTO_TEST_CASE(sigint_stops_a_prepare_step) {
  const std::string dir = scratch_dir("sigint-prepare");
  write_file(dir + "/profiles/slow.toml", R"toml([profile]
name = "slow"
[server]
program = "/bin/true"
[[server.prepare]]
program = "sh"
args = ["-c", "echo $$ > {profile_dir}/../prepare.pid; exec sleep 15"]
)toml");
  const auto started = start_external_case(dir, "interop/prepares", "server = { implementation = \"slow\" }\n");
  BackgroundProgram& run = *started;
  const std::string folder = dir + "/out/interop/prepares";
  const auto pids = pids_of({folder + "/prepare.pid"}, run);
  const auto sent = Clock::now();
  BOOST_TEST_REQUIRE(kill(run.pid(), SIGINT) == 0);
  BOOST_TEST(run.wait(20) == 130, run.out() + run.err());
  BOOST_TEST((Clock::now() - sent < std::chrono::seconds(2)), "the stop waited for the prepare step");
  BOOST_TEST(!fs::exists("/proc/" + std::to_string(pids.at(0))), "the prepare step outlived conform");
  BOOST_TEST(!fs::exists(folder + "/server-profile"));
  const std::string log = read_file(folder + "/log.txt");
  BOOST_TEST(contains(log, "external: conform stopped the run in prepare step 1 of the server"), log);
}

// A second Ctrl-C ends conform at once, as SIGKILL does here: its run dies
// with it (PR_SET_PDEATHSIG), and the programs the run started die with the
// run, though nothing is left to stop them gracefully.
BOOST_AUTO_TEST_CASE(an_interop_runs_programs_die_with_a_conform_killed_outright) {
  const InteropRun r = start_interop_run("sigkill-interop", kWaitingClient);
  BOOST_TEST_REQUIRE(kill(r.run->pid(), SIGKILL) == 0);
  BOOST_TEST(r.run->wait(20) == 128 + SIGKILL);
  const auto killed = Clock::now();
  for (const pid_t pid : r.pids) {
    while (!is_dead(pid) && Clock::now() - killed < std::chrono::seconds(2))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BOOST_TEST(is_dead(pid), "process " << pid << " still runs 2 s after conform was killed");
  }
}

BOOST_AUTO_TEST_CASE(a_later_run_of_another_suite_clears_the_earlier_results) {
  const std::string dir = scratch_dir("another-suite");
  const std::string out = dir + "/out";
  write_file(out + "/notes.txt", "mine\n");
  auto first = run_conform({"run", kSuite, "--filter", "interrupt/echo-*", "--out", out});
  BOOST_TEST_REQUIRE(first.exit_code == 0, first.out + first.err);
  BOOST_TEST(fs::exists(out + "/interrupt/echo-2/verdict.json"));
  BOOST_TEST(!fs::exists(out + "/.conform.lock"));
  // A folder of the user's that holds a verdict.json of another shape
  // stays, as does a file of the user's in a case folder and another
  // run's --out inside this one.
  write_file(out + "/mine/verdict.json", "{\"verdict\": \"mine\"}\n");
  write_file(out + "/interrupt/echo-2/NOTES.txt", "notes\n");
  auto nested = run_conform({"run", kSuite, "--filter", "interrupt/echo-1", "--out", out + "/nested"});
  BOOST_TEST_REQUIRE(nested.exit_code == 0, nested.out + nested.err);

  const std::string other = std::string(CONFORM_TEST_DATA_DIR) + "/suites/isolation.toml";
  auto second = run_conform({"run", other, "--filter", "isolation/echo", "--out", out});
  BOOST_TEST(second.exit_code == 0, second.out + second.err);
  BOOST_TEST(second.out.find("cleared 3 run folders of other cases from " + out + ": the files an earlier conform "
                             "run wrote there, as its .conform-results.jsonl lists them") != std::string::npos,
             second.out);
  BOOST_TEST(!fs::exists(out + "/interrupt/echo-1"));
  BOOST_TEST(!fs::exists(out + "/interrupt/echo-2/verdict.json"));
  BOOST_TEST(read_file(out + "/interrupt/echo-2/NOTES.txt") == "notes\n");
  BOOST_TEST(fs::exists(out + "/nested/interrupt/echo-1/verdict.json"));
  BOOST_TEST(fs::exists(out + "/isolation/echo/verdict.json"));
  BOOST_TEST(read_file(out + "/notes.txt") == "mine\n");
  BOOST_TEST(fs::exists(out + "/mine/verdict.json"));

  // Running the same case again replaces it without a word.
  auto third = run_conform({"run", other, "--filter", "isolation/echo", "--out", out});
  BOOST_TEST(third.exit_code == 0, third.out + third.err);
  BOOST_TEST(third.out.find("cleared") == std::string::npos, third.out);
}

BOOST_AUTO_TEST_SUITE_END()
