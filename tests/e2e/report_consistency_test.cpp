// A JSON report read back by `conform report` and `conform merge` must say
// one thing throughout: a verdict that contradicts its runs, checks,
// mutants or totals (an edited report) is exit 2 naming the file and the
// JSON pointer, and a failure's seed survives the merge into its replay
// command. On the fixture plugin.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <vector>

using namespace conform::test;
using nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

json read_json(const std::string& path) { return json::parse(read_file(path)); }

// One fixture case; `echo` false makes its datagrams_captured check fail.
std::string echo_case(const std::string& id, bool echo, const std::string& extra = "") {
  return "[[case]]\nid = \"" + id + "\"\nrfc = \"9000§4.6\"\nrequirement = \"the server MUST answer (fixture)\"\n"
         "plugin = \"fixture\"\nscenario = \"echo\"\nserver = { echo = " + (echo ? "true" : "false") + " }\n" +
         extra + "  [[case.expect]]\n  check = \"datagrams_captured\"\n  vantage = \"client\"\n  from = \"server\"\n\n";
}

const char* const kMutant = "  [[case.mutant]]\n  server = { echo = false }\n  fails = [\"datagrams_captured\"]\n\n";

// c/fails (FAIL), c/killed (PASS, its mutant killed), c/xpass (XPASS).
std::string suite(const std::string& dir) {
  return write_file(dir + "/s.toml", echo_case("c/fails", false) + echo_case("c/killed", true) + kMutant +
                                         echo_case("c/xpass", true, "xfail = \"known (fixture)\"\n"));
}

struct Edit {
  const char* what;
  std::function<void(json&)> apply;
  const char* pointer;
  const char* message;
};

// Each edit turns the report into one that contradicts itself.
std::vector<Edit> edits() {
  return {
      {"a failed case made PASS", [](json& r) { r["cases"][0]["status"] = "PASS"; }, "/cases/0/status",
       "PASS, but its runs and mutants make it FAIL"},
      {"its run made PASS too", [](json& r) { r["cases"][0]["runs"][0]["status"] = "PASS"; },
       "/cases/0/runs/0/status", "PASS, but its check datagrams_captured says FAIL"},
      {"a passing run made FAIL", [](json& r) { r["cases"][1]["runs"][0]["status"] = "FAIL"; },
       "/cases/1/runs/0/status", "FAIL, but none of its checks failed or went unexercised"},
      {"a run with a case's status", [](json& r) { r["cases"][2]["runs"][0]["status"] = "XPASS"; },
       "/cases/2/runs/0/status", "XPASS is a case's status, never a run's"},
      {"a killed mutant made to survive", [](json& r) { r["cases"][1]["mutants"][0]["killed"] = false; },
       "/cases/1/mutants/0/killed", "false, but its run's checks say the mutant was killed"},
      {"a survivor named", [](json& r) { r["cases"][1]["mutants"][0]["survived"] = {"datagrams_captured"}; },
       "/cases/1/mutants/0/survived", "[datagrams_captured], but its run says []"},
      {"a killed mutant's seed made a survivor", [](json& r) { r["cases"][1]["mutants"][0]["survived_seeds"] = {7}; },
       "/cases/1/mutants/0/survived_seeds", "[7], but the mutant was killed on its run's seed 7"},
      {"a seed it did not run", [](json& r) { r["cases"][1]["mutants"][0]["survived_seeds"] = {99}; },
       "/cases/1/mutants/0/survived_seeds", "99 is not one of its seeds [7]"},
      {"its run's seed left out", [](json& r) { r["cases"][1]["mutants"][0]["seeds"] = {1, 2}; },
       "/cases/1/mutants/0/seeds", "[1, 2] leaves out the seed of its run, 7"},
      {"runs_passed", [](json& r) { r["cases"][0]["runs_passed"] = 1; }, "/cases/0/runs_passed",
       "1, but 0 of its runs passed"},
      {"another seed", [](json& r) { r["cases"][0]["seed"] = 3; }, "/cases/0/seed",
       "3, but the run its verdict comes from has seed 7"},
      {"the XPASS seed", [](json& r) { r["cases"][2]["seed"] = 0; }, "/cases/2/seed",
       "0, but the run its verdict comes from has seed 7"},
      {"no seed", [](json& r) { r["cases"][0].erase("seed"); }, "/cases/0", "no \"seed\""},
      {"totals", [](json& r) { r["totals"]["failed"] = 0; }, "/totals/failed", "0, but 2 of the cases failed"},
      {"totals", [](json& r) { r["totals"]["passed"] = 3; }, "/totals/passed", "3, but 1 of the cases passed"},
  };
}

// `conform COMMAND EDITED FLAG OUTPUT` on each edit of `good`: exit 2 naming
// the edited file and the member, and OUTPUT not written.
void each_edit_is_refused(const std::string& dir, const json& good, const std::string& command,
                          const std::string& flag) {
  const std::string output = dir + "/out-of-edited";
  for (const Edit& e : edits()) {
    json doc = good;
    e.apply(doc);
    const std::string path = write_file(dir + "/edited.json", doc.dump(1));
    auto r = run_conform({command, path, flag, output});
    BOOST_TEST(r.exit_code == 2, e.what);
    BOOST_TEST(r.err == path + ": at " + e.pointer + ": " + e.message + "\n", e.what);
    BOOST_TEST(r.out.empty(), e.what);
    BOOST_TEST(!std::filesystem::exists(output), e.what);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_consistency_test)

BOOST_AUTO_TEST_CASE(report_refuses_a_verdict_its_runs_contradict) {
  const std::string dir = scratch_dir("report-consistency-report");
  auto r = run_conform({"run", suite(dir), "--seed", "7", "--out", dir + "/out", "--json", dir + "/r.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 1, r.out + r.err);
  const json good = read_json(dir + "/r.json");
  // The report as written is consistent, XPASS and its seed included.
  r = run_conform({"report", dir + "/r.json", "--html", dir + "/ok.html"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(good["cases"][2]["status"] == "XPASS");
  BOOST_TEST(good["cases"][2]["seed"] == 7);
  BOOST_TEST(good["cases"][2]["replay"].get<std::string>().find("--seed 7 ") != std::string::npos);

  each_edit_is_refused(dir, good, "report", "--html");
}

BOOST_AUTO_TEST_CASE(merge_refuses_an_edited_shard_naming_it) {
  const std::string dir = scratch_dir("report-consistency-merge");
  const std::string s = suite(dir);
  // With one shard, the shard report's cases are the run's, in its order.
  auto r = run_conform({"run", s, "--seed", "7", "--shard", "1/1", "--out", dir + "/out", "--json", dir + "/s.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 1, r.out + r.err);
  each_edit_is_refused(dir, read_json(dir + "/s.json"), "merge", "--json");
}

// Each failure keeps the seed of the run its verdict comes from through
// the merge: the merged replay commands are the whole run's, none `--seed 0`.
BOOST_AUTO_TEST_CASE(seeds_survive_the_merge) {
  const std::string dir = scratch_dir("report-consistency-seeds");
  // c/flaky: seeds 7 and 8; the fixture's flaky server answers on even seeds only.
  const std::string s = write_file(
      dir + "/s.toml", echo_case("c/fails", false) + echo_case("c/xpass", true, "xfail = \"known (fixture)\"\n") +
                           "[[case]]\nid = \"c/flaky\"\nrfc = \"9000§13.2\"\nrequirement = \"MUST (fixture)\"\n"
                           "plugin = \"fixture\"\nscenario = \"flaky\"\nseeds = 2\n  [[case.expect]]\n"
                           "  check = \"datagrams_captured\"\n  vantage = \"client\"\n  from = \"server\"\n");
  auto whole = run_conform({"run", s, "--seed", "7", "--out", dir + "/w", "--json", dir + "/w.json"});
  BOOST_TEST_REQUIRE(whole.exit_code == 1, whole.out + whole.err);
  std::vector<std::string> shards;
  for (const char* k : {"1/2", "2/2"}) {
    shards.push_back(dir + "/shard" + std::string(1, k[0]) + ".json");
    run_conform({"run", s, "--seed", "7", "--shard", k, "--out", dir + "/o" + k[0], "--json", shards.back()});
  }
  auto merged = run_conform({"merge", shards[1], shards[0], "--json", dir + "/m.json"});
  BOOST_TEST_REQUIRE(merged.exit_code == 1, merged.out + merged.err);
  const json w = read_json(dir + "/w.json"), m = read_json(dir + "/m.json");
  const std::map<std::string, std::uint64_t> seeds = {{"c/fails", 7}, {"c/xpass", 7}, {"c/flaky", 7}};
  BOOST_TEST_REQUIRE(m["cases"].size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const json& c = m["cases"][i];
    const std::string id = c["id"];
    BOOST_TEST(c["status"] != "PASS", id);
    BOOST_TEST(c["seed"] == seeds.at(id), id);
    BOOST_TEST(c["seed"] == w["cases"][i]["seed"], id);
    BOOST_TEST(c["replay"] == w["cases"][i]["replay"], id);
    BOOST_TEST(contains(c["replay"], " --seed " + std::to_string(seeds.at(id)) + " --filter " + id), c["replay"]);
    BOOST_TEST(contains(merged.out, "(seed " + std::to_string(seeds.at(id)) + "; replay: "), merged.out);
  }
  BOOST_TEST(!contains(merged.out, "--seed 0"), merged.out);
}

BOOST_AUTO_TEST_SUITE_END()
