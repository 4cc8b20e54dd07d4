// CI gating as a user meets it: `conform run --baseline` (a regression fails
// the run, a known failure does not), `--shard K/N` and `conform merge`
// (the union of the shards is exactly the whole run), on the fixture plugin.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>

using namespace conform::test;
using nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One fixture case; `echo` false makes its datagrams_captured check fail.
std::string echo_case(const std::string& id, bool echo, const std::string& extra = "") {
  return "[[case]]\nid = \"" + id + "\"\nrfc = \"9000§4.6\"\nrequirement = \"the server MUST answer (fixture)\"\n"
         "plugin = \"fixture\"\nscenario = \"echo\"\nserver = { echo = " + (echo ? "true" : "false") + " }\n" +
         extra + "  [[case.expect]]\n  check = \"datagrams_captured\"\n  vantage = \"client\"\n  from = \"server\"\n\n";
}

json read_json(const std::string& path) { return json::parse(read_file(path)); }

std::vector<std::pair<std::string, std::string>> verdicts(const json& report) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : report.at("cases")) out.emplace_back(c.at("id"), c.at("status"));
  return out;
}

// JUnit without its timings, which differ from run to run.
std::string without_times(const std::string& xml) {
  return std::regex_replace(xml, std::regex(" time=\"[0-9.]+\""), "");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gating_test)

BOOST_AUTO_TEST_CASE(a_regression_fails_the_run_and_a_known_failure_does_not) {
  const std::string dir = scratch_dir("gating_baseline");
  auto suite = [&](bool known_echo, bool flips_echo, bool with_new) {
    return write_file(dir + "/gate.toml", echo_case("gate/steady", true) + echo_case("gate/known", known_echo) +
                                              echo_case("gate/flips", flips_echo) +
                                              (with_new ? echo_case("gate/new", false) : ""));
  };
  // The baseline: gate/known fails, the others pass.
  auto base = run_conform({"run", suite(false, true, false), "--out", dir + "/o1", "--json", dir + "/base.json"});
  BOOST_TEST(base.exit_code == 1, base.out + base.err);

  // gate/flips now fails: a regression (exit 1); gate/known is known.
  auto regressed = run_conform({"run", suite(false, false, false), "--out", dir + "/o2", "--baseline",
                                dir + "/base.json", "--json", dir + "/now.json"});
  BOOST_TEST(regressed.exit_code == 1, regressed.out + regressed.err);
  BOOST_TEST(contains(regressed.out, "1 passed, 2 failed\nbaseline " + dir + "/base.json: 1 regression, "
                                     "0 new failures, 1 known failure, 0 fixed\n"
                                     "  REGRESSION  gate/flips  PASS → FAIL\n"
                                     "  KNOWN       gate/known  FAIL → FAIL\n"
                                     "gate: FAILED (1 regression, 0 new failures)\n"),
             regressed.out);
  const json now = read_json(dir + "/now.json");
  BOOST_TEST(now.at("baseline").at("passed") == false);
  BOOST_TEST(now.at("baseline").at("file") == dir + "/base.json");
  BOOST_TEST(now.at("baseline").at("regressions") ==
             json::parse(R"([{"id": "gate/flips", "baseline": "PASS", "status": "FAIL"}])"));
  BOOST_TEST(now.at("baseline").at("known") ==
             json::parse(R"([{"id": "gate/known", "baseline": "FAIL", "status": "FAIL"}])"));

  // Only the known failure: the gate passes (exit 0) though a case failed.
  auto known = run_conform({"run", suite(false, true, false), "--out", dir + "/o3", "--baseline", dir + "/base.json"});
  BOOST_TEST(known.exit_code == 0, known.out + known.err);
  BOOST_TEST(contains(known.out, "2 passed, 1 failed\n"), known.out);
  BOOST_TEST(contains(known.out, "  KNOWN       gate/known  FAIL → FAIL\ngate: passed (only known failures)\n"), known.out);

  // The known failure fixed, and a new case failing: the new one fails the gate.
  auto fixed = run_conform({"run", suite(true, true, true), "--out", dir + "/o4", "--baseline", dir + "/base.json",
                            "--json", dir + "/fixed.json"});
  BOOST_TEST(fixed.exit_code == 1, fixed.out + fixed.err);
  BOOST_TEST(contains(fixed.out, "  NEW         gate/new  not in the baseline → FAIL\n"
                                 "  FIXED       gate/known  FAIL → PASS\n"),
             fixed.out);
  BOOST_TEST(read_json(dir + "/fixed.json").at("baseline").at("fixed").size() == 1u);

  // The baseline filtered down to one case: the others are counted as not run.
  auto filtered = run_conform({"run", suite(false, true, false), "--out", dir + "/o5", "--filter", "gate/steady",
                               "--baseline", dir + "/base.json"});
  BOOST_TEST(filtered.exit_code == 0);
  BOOST_TEST(contains(filtered.out, "  2 cases of the baseline not in this run\ngate: passed\n"), filtered.out);
}

BOOST_AUTO_TEST_CASE(a_malformed_baseline_is_exit_2_before_anything_runs) {
  const std::string dir = scratch_dir("gating_bad_baseline");
  const auto suite = write_file(dir + "/s.toml", echo_case("s/a", true));
  const auto bad = write_file(dir + "/bad.json", "{\"cases\": [\n  {\"id\": \"s/a\", \"status\": \"PASS\"},\n]}");
  auto r = run_conform({"run", suite, "--out", dir + "/o", "--baseline", bad});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty(), r.out);
  BOOST_TEST(contains(r.err, bad + ":3:1: malformed JSON: "), r.err);
  write_file(bad, R"({"cases": [{"id": "s/a", "status": "GREEN"}]})");
  r = run_conform({"run", suite, "--out", dir + "/o", "--baseline", bad});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == bad + ": at /cases/0/status: unknown status \"GREEN\"\n");
  r = run_conform({"run", suite, "--out", dir + "/o", "--baseline", dir + "/missing.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/missing.json: cannot read the file: No such file or directory\n");
}

BOOST_AUTO_TEST_CASE(the_union_of_the_shards_is_the_whole_run) {
  const std::string dir = scratch_dir("gating_shards");
  const std::string suite = write_file(
      dir + "/shards.toml",
      echo_case("sweep/echo", true, "matrix = { datagrams = [1, 2, 3, 4] }\n") + echo_case("one/fails", false) +
          echo_case("one/passes", true) +
          echo_case("one/mutant", true, "") + "  [[case.mutant]]\n  server = { echo = false }\n  fails = [\"datagrams_captured\"]\n\n" +
          "[[case]]\nid = \"one/flaky\"\nrfc = \"9000§13.2\"\nrequirement = \"MUST (fixture)\"\nplugin = \"fixture\"\n"
          "scenario = \"flaky\"\nseeds = 2\n  [[case.expect]]\n  check = \"datagrams_captured\"\n  vantage = \"client\"\n"
          "  from = \"server\"\n");
  auto full = run_conform({"run", suite, "--out", dir + "/full", "--json", dir + "/full.json", "--junit",
                           dir + "/full.xml"});
  BOOST_TEST(full.exit_code == 1, full.out + full.err);
  const json whole = read_json(dir + "/full.json");
  BOOST_TEST(whole.at("cases").size() == 8u);

  std::set<std::pair<std::string, std::string>> union_of_shards;
  std::size_t in_shards = 0;
  std::vector<std::string> reports;
  for (int k = 1; k <= 3; ++k) {
    const std::string report = dir + "/shard" + std::to_string(k) + ".json";
    auto r = run_conform({"run", suite, "--shard", std::to_string(k) + "/3", "--out", dir + "/s" + std::to_string(k),
                          "--json", report});
    const json shard = read_json(report);
    bool any_failed = false;
    for (const auto& [id, status] : verdicts(shard)) {
      union_of_shards.insert({id, status});
      any_failed = any_failed || status != "PASS";
    }
    BOOST_TEST(r.exit_code == (any_failed ? 1 : 0), r.out);
    // 8 cases dealt over 3 shards: 3, 3, 2.
    BOOST_TEST(shard.at("cases").size() == (k < 3 ? 3u : 2u));
    BOOST_TEST(shard.at("shard").at("index") == k);
    BOOST_TEST(shard.at("shard").at("cases_total") == 8);
    in_shards += shard.at("cases").size();
    reports.push_back(report);
  }
  const auto whole_verdicts = verdicts(whole);
  BOOST_TEST(in_shards == 8u);
  BOOST_TEST(union_of_shards == std::set(whole_verdicts.begin(), whole_verdicts.end()));

  // Merged in any order of the files: the whole run's cases in its order.
  auto merged = run_conform({"merge", reports[2], reports[0], reports[1], "--json", dir + "/merged.json", "--junit",
                             dir + "/merged.xml"});
  BOOST_TEST(merged.exit_code == full.exit_code, merged.out + merged.err);
  const json m = read_json(dir + "/merged.json");
  BOOST_TEST(verdicts(m) == whole_verdicts);
  BOOST_TEST(m.at("sections") == whole.at("sections"));
  for (const char* key : {"passed", "failed", "skipped"}) BOOST_TEST(m.at("totals").at(key) == whole.at("totals").at(key));
  for (std::size_t i = 0; i < m.at("cases").size(); ++i) {
    const json& a = m.at("cases")[i];
    const json& b = whole.at("cases")[i];
    for (const char* key : {"headline", "params", "knobs", "network", "runs_passed", "replay", "seed", "suite"})
      BOOST_TEST(a.value(key, json()) == b.value(key, json()), key);
    BOOST_TEST(a.at("mutants").size() == b.at("mutants").size());
    for (std::size_t k = 0; k < a.at("mutants").size(); ++k)
      BOOST_TEST(a.at("mutants")[k].at("killed") == b.at("mutants")[k].at("killed"));
  }
  BOOST_TEST(m.at("merged_from").size() == 3u);
  BOOST_TEST(without_times(read_file(dir + "/merged.xml")) == without_times(read_file(dir + "/full.xml")));
  BOOST_TEST(contains(merged.out, "merged 3 shards: " + reports[0] + " (1/3), "), merged.out);
  BOOST_TEST(contains(merged.out, "6 passed, 2 failed\n"), merged.out);
  // Merging gates on a baseline as a run does: the whole run is its own baseline.
  auto gated = run_conform({"merge", reports[0], reports[1], reports[2], "--baseline", dir + "/full.json"});
  BOOST_TEST(gated.exit_code == 0, gated.out + gated.err);
  BOOST_TEST(contains(gated.out, "2 known failures, 0 fixed\n"), gated.out);
}

BOOST_AUTO_TEST_CASE(merge_refuses_what_is_not_one_whole_run) {
  const std::string dir = scratch_dir("gating_merge_refusals");
  const std::string suite = write_file(dir + "/s.toml", echo_case("m/a", true) + echo_case("m/b", true) +
                                                            echo_case("m/c", false));
  auto shard = [&](const std::string& k, const std::string& name, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"run", suite, "--shard", k, "--out", dir + "/" + name, "--json", dir + "/" + name + ".json"};
    args.insert(args.end(), extra.begin(), extra.end());
    run_conform(args);
    return dir + "/" + name + ".json";
  };
  const auto s1 = shard("1/2", "s1"), s2 = shard("2/2", "s2");
  const auto other = shard("2/2", "other", {"--filter", "m/[ab]"});
  const auto whole = dir + "/whole.json";
  run_conform({"run", suite, "--out", dir + "/w", "--json", whole});

  auto r = run_conform({"merge", s1});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == s1 + ": shard 2/2 missing: the merge would not be the whole run\n");
  r = run_conform({"merge", s1, s2, s1});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == s1 + ": shard 1/2 again (also " + s1 + ")\n");
  r = run_conform({"merge", s1, other});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == other + ": a shard of another run than " + s1 +
                          " (other suites, filters, plugins or shard count: 3 cases in 2 shards there, 2 in 2 here)\n");
  r = run_conform({"merge", s1, whole});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == whole + ": not a shard report (no \"shard\" member): write it with "
                              "`conform run --shard K/N --json FILE` (or a check's with `conform check --shard "
                              "K/N --json FILE`)\n");
  // Two shards claiming one case: an edited report.
  json edited = read_json(s2);
  const json taken = read_json(s1)["cases"][0];
  edited["cases"].push_back(taken);
  edited["shard"]["positions"].push_back(read_json(s1)["shard"]["positions"][0]);
  // Its totals count the case too: the report is consistent, only overlapping.
  const char* bucket = taken["status"] == "PASS" ? "passed" : "failed";
  edited["totals"][bucket] = edited["totals"][bucket].get<int>() + 1;
  const auto overlap = write_file(dir + "/overlap.json", edited.dump());
  r = run_conform({"merge", s1, overlap});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, overlap + ": case 'm/"), r.err);
  BOOST_TEST(contains(r.err, "' is also in " + s1 + ": shards must not overlap\n"), r.err);
  const auto broken = write_file(dir + "/broken.json", "{\"conform_version\": \"0.1.0\",\n \"seed\": }");
  r = run_conform({"merge", s1, broken});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, broken + ":2:10: malformed JSON: "), r.err);
  json no_status = read_json(s2);
  no_status["cases"][0].erase("status");
  const auto shapeless = write_file(dir + "/shapeless.json", no_status.dump());
  r = run_conform({"merge", s1, shapeless});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, shapeless + ": at /cases/0: "), r.err);
  r = run_conform({"merge", s1, s2, "--json", s1});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == s1 + ": --json names an input file (" + s1 + "): writing the report would overwrite it\n");
}

BOOST_AUTO_TEST_CASE(shard_values_are_checked_and_an_empty_shard_passes) {
  const std::string dir = scratch_dir("gating_shard_values");
  const std::string suite = write_file(dir + "/one.toml", echo_case("only/one", true));
  for (const char* bad : {"0/2", "3/2", "x", "1/0", "1/2/3"}) {
    auto r = run_conform({"run", suite, "--shard", bad, "--out", dir + "/o"});
    BOOST_TEST(r.exit_code == 2, bad);
    BOOST_TEST(contains(r.err, std::string("--shard takes K/N with 1 <= K <= N <= 10000 (e.g. 2/4), not '") + bad + "'"),
               r.err);
  }
  // One case over two shards: shard 2 holds none and passes with an empty report.
  auto empty = run_conform({"run", suite, "--shard", "2/2", "--out", dir + "/e", "--json", dir + "/e.json"});
  BOOST_TEST(empty.exit_code == 0, empty.out + empty.err);
  BOOST_TEST(contains(empty.out, "0 cases"), empty.out);
  run_conform({"run", suite, "--shard", "1/2", "--out", dir + "/f", "--json", dir + "/f.json"});
  auto merged = run_conform({"merge", dir + "/e.json", dir + "/f.json", "--json", dir + "/m.json"});
  BOOST_TEST(merged.exit_code == 0, merged.out + merged.err);
  BOOST_TEST(verdicts(read_json(dir + "/m.json")) ==
             (std::vector<std::pair<std::string, std::string>>{{"only/one", "PASS"}}));
}

BOOST_AUTO_TEST_SUITE_END()
