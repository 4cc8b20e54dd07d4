// docs/ci.md as CI runs it: every `./build/conform` line of its blocks
// marked `<!-- ci-test: NAME -->` is run here, with the CI's matrix values
// filled in, so the documented workflow cannot drift from what works.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <regex>
#include <sstream>

#include <sys/wait.h>

using namespace conform::test;
using nlohmann::json;
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

// A day of captures as a capture job finds it under `dir`: the ngtcp2
// captures, a list naming them (`list`, relative to its folder) and one key
// log (`keys`) for all.
void day_of_captures(const std::string& dir, const std::string& list, const std::string& keys) {
  const std::string source = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2";
  std::string names, key_log;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(source)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    if (f.extension() == ".pcap" || f.extension() == ".pcapng") {
      fs::create_directories(dir + "/day");
      fs::copy_file(f, dir + "/day/" + f.filename().string());
      names += "day/" + f.filename().string() + "\n";
    }
    if (f.extension() == ".keys") key_log += read_file(f.string());
  }
  write_file(dir + "/" + list, "# captures of the day\n" + names);
  write_file(dir + "/" + keys, key_log);
}

// The jobs' reports merged (by `merge`, run in `cwd`, exiting with
// `merge_exit`) are the report of `job` run as one job (its --shard left
// out), durations and the list of merged reports aside.
void merged_is_whole(const std::string& cwd, const std::string& job, const std::string& merge,
                     const std::string& merged_json, int merge_exit) {
  const Shell merged = run_shell(merge, cwd);
  BOOST_TEST(merged.exit_code == merge_exit, merge << "\n" << merged.output);
  std::string whole = std::regex_replace(job, std::regex(R"( --shard \S+)"), "");
  whole = std::regex_replace(whole, std::regex(R"( --json \S+)"), " --json whole.json");
  const Shell one = run_shell(whole, cwd);
  BOOST_TEST(one.exit_code == 0, whole << "\n" << one.output);
  auto plain = [](json j) {
    std::function<void(json&)> strip = [&](json& v) {
      if (v.is_object()) {
        v.erase("duration_s");
        v.erase("merged_from");
      }
      if (v.is_structured())
        for (auto& [key, child] : v.items()) strip(child);
    };
    strip(j);
    return j.dump(1);
  };
  const json merged_report = json::parse(read_file(cwd + "/" + merged_json));
  BOOST_TEST(merged_report.at("cases").size() == 66u);
  BOOST_TEST(plain(merged_report) == plain(json::parse(read_file(cwd + "/whole.json"))));
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

BOOST_AUTO_TEST_CASE(the_check_job_matrix_runs_as_documented) {
  const std::string doc = read_file(kDoc);
  const auto commands = commands_of(doc, "check-github");
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[0].find("--shard ${{ matrix.shard }}/4") != std::string::npos);
  const std::string dir = scratch_dir("ci_doc_check_github");
  fs::create_directory_symlink(std::string(CONFORM_SOURCE_DIR) + "/suites", dir + "/suites");
  day_of_captures(dir + "/captures", "day.txt", "day.keys");
  run_shell("mkdir -p shards", dir);
  const auto job_of = [&](int shard) {
    return std::regex_replace(commands[0], std::regex(R"(\$\{\{ matrix\.shard \}\})"), std::to_string(shard));
  };
  for (int shard = 1; shard <= 4; ++shard) {
    const std::string job = job_of(shard);
    const Shell r = run_shell(job, dir);
    BOOST_TEST(r.exit_code == 0, job << "\n" << r.output);
    BOOST_TEST(fs::exists(dir + "/shards/check-" + std::to_string(shard) + ".json"), job);
  }
  // A case failed (ngtcp2 sends no STREAMS_BLOCKED): the merge step fails the workflow.
  merged_is_whole(dir, job_of(1), commands[1], "conform.json", 1);
  BOOST_TEST(fs::exists(dir + "/junit.xml"));
  BOOST_TEST(fs::exists(dir + "/report.html"));
}

// The Indexed Job's pods, each with its JOB_COMPLETION_INDEX, then the
// merge Job's pod, the shared volume /data a scratch folder and the image's
// /opt/conform this checkout.
BOOST_AUTO_TEST_CASE(the_kubernetes_indexed_job_runs_as_documented) {
  const std::string yaml = read_file(std::string(CONFORM_SOURCE_DIR) + "/docs/examples/kubernetes-check-shards.yaml");
  BOOST_TEST(read_file(kDoc).find("(examples/kubernetes-check-shards.yaml)") != std::string::npos);
  std::smatch completions;
  BOOST_REQUIRE(std::regex_search(yaml, completions, std::regex(R"(\n  completions: (\d+)\n)")));
  const int count = std::stoi(completions[1]);
  BOOST_TEST(count == 4);
  BOOST_TEST(yaml.find("\n  completionMode: Indexed\n") != std::string::npos);
  BOOST_TEST(yaml.find("\n  parallelism: " + std::to_string(count) + "\n") != std::string::npos);
  // The pods' commands: the args of /bin/sh -c.
  std::vector<std::string> commands;
  std::istringstream lines(yaml);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, std::regex(R"(^ +- (conform .*)$)"))) commands.push_back(m[1]);
  }
  BOOST_REQUIRE(commands.size() == 2u);
  BOOST_TEST(commands[0].find("--shard $((JOB_COMPLETION_INDEX + 1))/" + std::to_string(count) + " ") !=
             std::string::npos);
  const std::string dir = scratch_dir("ci_doc_kubernetes");
  day_of_captures(dir + "/data/captures", "list.txt", "keys.log");
  fs::create_directories(dir + "/data/results");
  const auto in_test = [&](std::string command) {
    command = std::regex_replace(command, std::regex("/data/"), dir + "/data/");
    command = std::regex_replace(command, std::regex("/opt/conform/"), std::string(CONFORM_SOURCE_DIR) + "/");
    return "./build/conform" + command.substr(std::string("conform").size());
  };
  for (int index = 0; index < count; ++index) {
    const Shell r = run_shell(in_test(commands[0]), dir, "JOB_COMPLETION_INDEX=" + std::to_string(index));
    BOOST_TEST(r.exit_code == 0, commands[0] << "\n" << r.output);
    BOOST_TEST(fs::exists(dir + "/data/results/shard-" + std::to_string(index + 1) + ".json"));
  }
  const std::string job = std::regex_replace(in_test(commands[0]), std::regex(R"(\$\(\(JOB_COMPLETION_INDEX \+ 1\)\))"), "1");
  // The merge pod succeeds with a failed case: the verdict is in the reports.
  merged_is_whole(dir, job, in_test(commands[1]), "data/results/conform.json", 0);
  BOOST_TEST(fs::exists(dir + "/data/results/report.html"));
}

BOOST_AUTO_TEST_SUITE_END()
