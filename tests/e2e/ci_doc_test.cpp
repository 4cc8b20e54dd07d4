// docs/ci.md as CI runs it: every `./build/conform` line of its blocks
// marked `<!-- ci-test: NAME -->` is run here, with the CI's matrix values
// filled in, so the documented workflow cannot drift from what works.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <sstream>

#include <sys/wait.h>

using namespace conform::test;
namespace fs = std::filesystem;

namespace {

const std::string kDoc = std::string(CONFORM_SOURCE_DIR) + "/docs/ci.md";

// The `./build/conform ...` commands of the fenced block after the marker.
std::vector<std::string> commands_of(const std::string& doc, const std::string& name) {
  const auto marker = doc.find("<!-- ci-test: " + name + " -->");
  BOOST_REQUIRE_MESSAGE(marker != std::string::npos, "docs/ci.md has no block marked " + name);
  const auto open = doc.find("```", marker);
  const auto body = doc.find('\n', open) + 1;
  const auto close = doc.find("\n```", body);
  std::istringstream block(doc.substr(body, close - body));
  std::vector<std::string> out;
  const std::regex command(R"(^\s*(?:- run: |- |run: )?(.*\./build/conform .*)$)");
  for (std::string line; std::getline(block, line);) {
    std::smatch m;
    if (std::regex_match(line, m, command)) out.push_back(m[1]);
  }
  return out;
}

struct Shell {
  int exit_code;
  std::string output;
};

// Runs `command` with /bin/sh in `cwd`, `./build/conform` being this
// build's binary, plugins from this build's plugin folder.
Shell run_shell(std::string command, const std::string& cwd, const std::string& env = "") {
  command = std::regex_replace(command, std::regex(R"(\./build/conform)"), CONFORM_BINARY);
  const std::string log = cwd + "/shell.log";
  const std::string line = "cd '" + cwd + "' && env -u CONFORM_PLUGIN_PATH " + env + " sh -c '" +
                           std::regex_replace(command, std::regex("'"), "'\\''") + "' >'" + log + "' 2>&1";
  const int status = std::system(line.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(log)};
}

// A checkout as CI sees it: the suites, and the baseline the doc makes.
std::string checkout(const std::string& name, const std::string& doc) {
  const std::string dir = scratch_dir(name);
  fs::create_directory_symlink(std::string(CONFORM_SOURCE_DIR) + "/suites", dir + "/suites");
  const auto baseline = commands_of(doc, "baseline");
  BOOST_REQUIRE(baseline.size() == 1u);
  const Shell made = run_shell(baseline[0], dir);
  BOOST_TEST((made.exit_code == 0 || made.exit_code == 1), made.output);
  BOOST_REQUIRE(fs::exists(dir + "/ci/conform-baseline.json"));
  return dir;
}

void check_gate_outputs(const std::string& dir, const Shell& gate) {
  BOOST_TEST(gate.exit_code == 0, gate.output);
  BOOST_TEST(gate.output.find("merged 3 shards: ") != std::string::npos, gate.output);
  BOOST_TEST(gate.output.find("gate: passed") != std::string::npos, gate.output);
  const auto report = nlohmann::json::parse(read_file(dir + "/conform.json"));
  const auto baseline = nlohmann::json::parse(read_file(dir + "/ci/conform-baseline.json"));
  BOOST_TEST(report.at("baseline").at("passed") == true);
  BOOST_TEST(report.at("cases").size() == baseline.at("cases").size());
  for (std::size_t i = 0; i < report.at("cases").size(); ++i) {
    BOOST_TEST(report.at("cases")[i].at("id") == baseline.at("cases")[i].at("id"));
    BOOST_TEST(report.at("cases")[i].at("status") == baseline.at("cases")[i].at("status"));
  }
  const std::string junit = read_file(dir + "/junit.xml");
  BOOST_TEST(junit.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conform\">", 0) == 0, junit);
  for (const auto& c : baseline.at("cases"))
    BOOST_TEST(junit.find("name=\"" + c.at("id").get<std::string>() + "\"") != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ci_doc_test)

BOOST_AUTO_TEST_CASE(the_github_actions_workflow_runs_as_documented) {
  const std::string doc = read_file(kDoc);
  const auto commands = commands_of(doc, "github");
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[0].find("--shard ${{ matrix.shard }}/3") != std::string::npos);
  const std::string dir = checkout("ci_doc_github", doc);
  run_shell("mkdir -p shards", dir);
  for (int shard = 1; shard <= 3; ++shard) {
    const std::string job = std::regex_replace(commands[0], std::regex(R"(\$\{\{ matrix\.shard \}\})"),
                                               std::to_string(shard));
    const Shell r = run_shell(job, dir);
    BOOST_TEST(r.exit_code == 0, job << "\n" << r.output);
    BOOST_TEST(fs::exists(dir + "/shards/shard-" + std::to_string(shard) + ".json"), job);
  }
  check_gate_outputs(dir, run_shell(commands[1], dir));
}

BOOST_AUTO_TEST_CASE(the_gitlab_ci_jobs_run_as_documented) {
  const std::string doc = read_file(kDoc);
  const auto commands = commands_of(doc, "gitlab");
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[0].find("--shard $CI_NODE_INDEX/$CI_NODE_TOTAL") != std::string::npos);
  const std::string dir = checkout("ci_doc_gitlab", doc);
  run_shell("mkdir -p shards", dir);
  for (int node = 1; node <= 3; ++node) {
    const Shell r = run_shell(commands[0], dir, "CI_NODE_INDEX=" + std::to_string(node) + " CI_NODE_TOTAL=3");
    BOOST_TEST(r.exit_code == 0, r.output);
  }
  check_gate_outputs(dir, run_shell(commands[1], dir));
}

BOOST_AUTO_TEST_SUITE_END()
