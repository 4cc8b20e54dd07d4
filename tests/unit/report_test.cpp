// Reports: JSON and JUnit files, console lines, RunRecord JSON round trips,
// shell quoting and replay commands, all from hand-made results.
#include "report/console.hpp"
#include "report/file_reporter.hpp"
#include "run/record_json.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

using namespace conform;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

RunRecord record(std::uint64_t seed, Status status, std::string reason = "",
                 std::vector<CheckOutcome> checks = {}) {
  RunRecord r;
  r.seed = seed;
  r.status = status;
  r.reason = std::move(reason);
  r.checks = std::move(checks);
  r.duration_s = 0.5;
  r.artifact_dir = "/tmp/conform-out/run-" + std::to_string(seed);
  return r;
}

// Five cases of one suite file in three sections: PASS (with a killed
// mutant), FAIL (with evidence, one of two seeds passed), ERROR, UNSUPPORTED
// and XFAIL.
struct World {
  SuiteFile suite;
  std::vector<CaseDecl> decls;
  std::vector<Case> cases;
  std::vector<CaseResult> results;
  RunPlan plan;

  static constexpr const char* kFailHeadline =
      "stream_limit: got \"101\" & <100> [client.pcap frame 42 at 1.250000 s: it's here]";
  static constexpr const char* kCrash = "the run crashed: signal 11 (SIGSEGV: Segmentation fault)";

  World() {
    suite.path = "suites/demo.toml";
    suite.title = "Demo";
    const char* ids[] = {"demo/pass", "demo/fail", "demo/error", "demo/skip", "demo/xfail"};
    const char* rfcs[] = {"9000§4.6", "9000§4.6", "9000§5", "9000§5", "9000§6"};
    decls.resize(5);
    for (std::size_t i = 0; i < 5; ++i) {
      decls[i].id = ids[i];
      decls[i].rfc = rfcs[i];
      decls[i].summary = std::string("summary of ") + ids[i];
      decls[i].requirement = "endpoints MUST do " + std::to_string(i);
      decls[i].plugin = "fixture";
      decls[i].scenario = "echo";
    }
    decls[4].xfail = "known bug";
    cases.resize(5);
    for (std::size_t i = 0; i < 5; ++i) {
      cases[i].suite = &suite;
      cases[i].decl = &decls[i];
      cases[i].settings.id = decls[i].id;
      cases[i].settings.scenario = "echo";
      cases[i].settings.params = {{"datagrams", std::int64_t{3}}};
      cases[i].settings.network = {{"rtt_ms", 10.0}};
      cases[i].settings.knobs = {{"client", {{"echo", true}}}, {"server", {{"label", std::string("x")}}}};
    }

    results.resize(5);
    for (std::size_t i = 0; i < 5; ++i) results[i].c = &cases[i];

    CaseResult& pass = results[0];
    pass.status = Status::pass;
    pass.duration_s = 0.25;
    pass.runs = {record(1, Status::pass, "",
                        {{"datagrams_captured",
                          {{"vantage", std::string("client")}},
                          {Verdict::pass, "client.pcap holds 6 datagrams from any (required >= 1)", {}}}})};
    pass.runs_passed = 1;
    MutantOutcome killed;
    killed.label = "client.echo=false";
    killed.fails = {"datagrams_captured"};
    killed.run = record(1, Status::fail);
    killed.run.mutant = killed.label;
    killed.killed = true;
    pass.mutants = {killed};

    CaseResult& fail = results[1];
    fail.status = Status::fail;
    fail.duration_s = 1.5;
    fail.headline = kFailHeadline;
    fail.headline_seed = 2;
    fail.runs = {record(1, Status::pass),
                 record(2, Status::fail, "",
                        {{"stream_limit",
                          {},
                          {Verdict::fail,
                           "got \"101\" & <100>",
                           {{"client.pcap", 42, 1'250'000'000, "it's here"}}}}})};
    fail.runs_passed = 1;

    CaseResult& error = results[2];
    error.status = Status::error;
    error.headline = kCrash;
    error.headline_seed = 1;
    error.runs = {record(1, Status::error, kCrash)};

    CaseResult& skip = results[3];
    skip.status = Status::unsupported;
    skip.headline = "needs a relay";

    CaseResult& xfail = results[4];
    xfail.status = Status::xfail;
    xfail.duration_s = 0.75;
    xfail.headline = "known bug (c: bad)";
    xfail.runs = {record(1, Status::fail)};

    plan.cases = &cases;
    plan.seed = 7;
    plan.seed_pinned = true;
    plan.out_dir = "/tmp/conform-out";
    plan.replay_args = {"--plugin-dir", "/opt/conform plugins"};
  }

  RunTotals totals() const { return {2, 2, 1, 0, 2.5}; }

  void feed(Reporter& r) const {
    r.begin(plan);
    for (std::size_t i = 0; i < results.size(); ++i) {
      r.progress(i + 1, results.size(), results[i].c->id());
      r.case_done(results[i]);
    }
    r.end(totals());
  }
};

const std::string kReplayArgs = " --plugin-dir '/opt/conform plugins'";

// Everything `fill` writes to a FILE*, through open_memstream.
template <typename F>
std::string captured(F&& fill) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  BOOST_REQUIRE(f != nullptr);
  fill(f);
  std::fclose(f);
  std::string out(buf, size);
  std::free(buf);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void check_same(const RunRecord& a, const RunRecord& b) {
  BOOST_TEST(a.seed == b.seed);
  BOOST_TEST(a.mutant == b.mutant);
  BOOST_TEST((a.status == b.status));
  BOOST_TEST(a.reason == b.reason);
  BOOST_TEST(a.duration_s == b.duration_s);
  BOOST_TEST(a.artifact_dir == b.artifact_dir);
  BOOST_REQUIRE_EQUAL(a.checks.size(), b.checks.size());
  for (std::size_t i = 0; i < a.checks.size(); ++i) {
    const auto &x = a.checks[i], &y = b.checks[i];
    BOOST_TEST(x.check == y.check);
    BOOST_TEST((x.params == y.params));
    BOOST_TEST((x.result.verdict == y.result.verdict));
    BOOST_TEST((x.level == y.level));
    BOOST_TEST(x.result.summary == y.result.summary);
    BOOST_REQUIRE_EQUAL(x.result.evidence.size(), y.result.evidence.size());
    for (std::size_t k = 0; k < x.result.evidence.size(); ++k) {
      const auto &e = x.result.evidence[k], &f = y.result.evidence[k];
      BOOST_TEST(e.capture == f.capture);
      BOOST_TEST(e.frame == f.frame);
      BOOST_TEST(e.time_ns == f.time_ns);
      BOOST_TEST(e.text == f.text);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_test)

// ---- JSON report ----

BOOST_AUTO_TEST_CASE(json_report_holds_every_case_and_the_totals) {
  World w;
  const std::string dir = conform::test::scratch_dir("report_json");
  const std::string path = dir + "/report.json";
  JsonReporter reporter(path);
  w.feed(reporter);
  const std::string text = conform::test::read_file(path);
  BOOST_TEST(text.back() == '\n');
  const json doc = json::parse(text);

  BOOST_TEST(doc["conform_version"].is_string());
  BOOST_TEST(std::regex_match(doc["conform_version"].get<std::string>(),
                              std::regex(R"(\d+\.\d+\.\d+.*)")));
  BOOST_TEST(doc["seed"] == 7);
  BOOST_TEST(doc["seed_pinned"] == true);
  BOOST_TEST(doc["out_dir"] == "/tmp/conform-out");
  BOOST_TEST(doc["totals"]["passed"] == 2);
  BOOST_TEST(doc["totals"]["failed"] == 2);
  BOOST_TEST(doc["totals"]["skipped"] == 1);
  BOOST_TEST(doc["totals"]["duration_s"].get<double>() == 2.5);

  const json& cases = doc["cases"];
  BOOST_REQUIRE_EQUAL(cases.size(), 5u);
  const char* statuses[] = {"PASS", "FAIL", "ERROR", "UNSUPPORTED", "XFAIL"};
  for (std::size_t i = 0; i < 5; ++i) {
    BOOST_TEST_CONTEXT("case " << i) {
      BOOST_TEST(cases[i]["id"] == w.cases[i].id());
      BOOST_TEST(cases[i]["status"] == statuses[i]);
      BOOST_TEST(cases[i]["headline"] == w.results[i].headline);
      BOOST_TEST(cases[i]["suite"] == "suites/demo.toml");
      BOOST_TEST(cases[i]["section"] == w.decls[i].rfc);
      BOOST_TEST(cases[i]["plugin"] == "fixture");
      BOOST_TEST(cases[i]["scenario"] == "echo");
      BOOST_TEST(cases[i]["runs"].size() == w.results[i].runs.size());
      // Only failures carry a replay command and their seed.
      const bool failure = i == 1 || i == 2;
      BOOST_TEST(cases[i].contains("replay") == failure);
      BOOST_TEST(cases[i].contains("seed") == failure);
    }
  }

  const json& pass = cases[0];
  BOOST_TEST(pass["summary"] == "summary of demo/pass");
  BOOST_TEST(pass["requirement"] == "endpoints MUST do 0");
  BOOST_TEST(pass["duration_s"].get<double>() == 0.25);
  BOOST_TEST(pass["runs_passed"] == 1);
  BOOST_TEST(pass["params"] == json({{"datagrams", 3}}));
  BOOST_TEST(pass["network"] == json({{"rtt_ms", 10.0}}));
  BOOST_TEST(pass["knobs"] == json({{"client", {{"echo", true}}}, {"server", {{"label", "x"}}}}));
  BOOST_TEST(pass["runs"][0]["status"] == "PASS");
  BOOST_TEST(pass["runs"][0]["checks"][0]["check"] == "datagrams_captured");
  BOOST_TEST(pass["runs"][0]["checks"][0]["params"] == json({{"vantage", "client"}}));
  BOOST_TEST(pass["runs"][0]["checks"][0]["verdict"] == "PASS");
  BOOST_REQUIRE_EQUAL(pass["mutants"].size(), 1u);
  const json& mutant = pass["mutants"][0];
  BOOST_TEST(mutant["label"] == "client.echo=false");
  BOOST_TEST(mutant["fails"] == json({"datagrams_captured"}));
  BOOST_TEST(mutant["killed"] == true);
  BOOST_TEST(mutant["survived"] == json::array());
  BOOST_TEST(mutant["run"]["mutant"] == "client.echo=false");
  BOOST_TEST(mutant["run"]["status"] == "FAIL");

  const json& fail = cases[1];
  BOOST_TEST(fail["seed"] == 2);
  BOOST_TEST(fail["replay"] == replay_command(w.plan, w.results[1]));
  BOOST_TEST(fail["replay"] ==
             "conform run suites/demo.toml" + kReplayArgs + " --seed 2 --filter demo/fail");
  BOOST_TEST(fail["runs_passed"] == 1);
  const json& evidence = fail["runs"][1]["checks"][0]["evidence"][0];
  BOOST_TEST(evidence["capture"] == "client.pcap");
  BOOST_TEST(evidence["frame"] == 42);
  BOOST_TEST(evidence["time_ns"] == 1'250'000'000);
  BOOST_TEST(evidence["text"] == "it's here");
  BOOST_TEST(fail["runs"][1]["checks"][0]["summary"] == "got \"101\" & <100>");

  const json& error = cases[2];
  BOOST_TEST(error["seed"] == 1);
  BOOST_TEST(error["replay"] ==
             "conform run suites/demo.toml" + kReplayArgs + " --seed 1 --filter demo/error");
  BOOST_TEST(error["runs"][0]["reason"] == World::kCrash);

  const json& sections = doc["sections"];
  BOOST_TEST(sections.size() == 3u);
  BOOST_TEST(sections["9000§4.6"]["cases"] == json({"demo/pass", "demo/fail"}));
  BOOST_TEST(sections["9000§4.6"]["passed"] == 1);
  BOOST_TEST(sections["9000§4.6"]["failed"] == 1);
  BOOST_TEST(sections["9000§4.6"]["skipped"] == 0);
  BOOST_TEST(sections["9000§5"]["cases"] == json({"demo/error", "demo/skip"}));
  BOOST_TEST(sections["9000§5"]["passed"] == 0);
  BOOST_TEST(sections["9000§5"]["failed"] == 1);
  BOOST_TEST(sections["9000§5"]["skipped"] == 1);
  BOOST_TEST(sections["9000§6"]["passed"] == 1);  // XFAIL counts as passed
  BOOST_TEST(sections["9000§6"]["failed"] == 0);

  // Written through a temporary file that is gone afterwards.
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  BOOST_TEST(files == (std::vector<std::string>{"report.json"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(json_report_of_no_cases) {
  const std::vector<Case> none;
  RunPlan plan;
  plan.cases = &none;
  const std::string path = conform::test::scratch_dir("report_json_empty") + "/r.json";
  JsonReporter reporter(path);
  reporter.begin(plan);
  reporter.end({});
  const json doc = json::parse(conform::test::read_file(path));
  BOOST_TEST(doc["cases"] == json::array());
  BOOST_TEST(doc["sections"] == json::object());
  BOOST_TEST(doc["seed"] == 1);
  BOOST_TEST(doc["seed_pinned"] == false);
  BOOST_TEST(doc["totals"]["passed"] == 0);
}

BOOST_AUTO_TEST_CASE(report_in_missing_folder_throws_naming_the_file) {
  World w;
  const std::string path = conform::test::scratch_dir("report_missing") + "/no/such/dir/r.json";
  JsonReporter reporter(path);
  reporter.begin(w.plan);
  try {
    reporter.end(w.totals());
    BOOST_FAIL("the report was written into a missing folder");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).rfind(path + ": cannot write the report: ", 0) == 0u, e.what());
  }
}

BOOST_AUTO_TEST_CASE(report_replaces_an_existing_file) {
  const std::string dir = conform::test::scratch_dir("report_replace");
  const std::string path = conform::test::write_file(dir + "/r.txt", "old contents that are long\n");
  write_file_atomically(path, "new\n");
  BOOST_TEST(conform::test::read_file(path) == "new\n");
  BOOST_TEST(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

// A report named by a symbolic link (/dev/stdout is one) is written
// through it: the link stays a link, its target gets the text.
BOOST_AUTO_TEST_CASE(report_writes_through_a_symbolic_link) {
  const std::string dir = conform::test::scratch_dir("report_link");
  const std::string target = conform::test::write_file(dir + "/target.txt", "old\n");
  fs::create_symlink(target, dir + "/link.txt");
  write_file_atomically(dir + "/link.txt", "new\n");
  BOOST_TEST(fs::is_symlink(dir + "/link.txt"));
  BOOST_TEST(conform::test::read_file(target) == "new\n");
}

// ---- JUnit report ----

BOOST_AUTO_TEST_CASE(junit_report_golden) {
  SuiteFile a, z;
  a.path = "suites/a&b.toml";
  z.path = "suites/z.toml";
  std::vector<CaseDecl> decls(7);
  std::vector<Case> cases(7);
  const char* ids[] = {"esc/<1>&\"2\"", "z/skip", "esc/pass", "z/err",
                       "z/xpass",       "z/timeout", "z/xfail"};
  const SuiteFile* suites[] = {&a, &z, &a, &z, &z, &z, &z};
  for (std::size_t i = 0; i < 7; ++i) {
    decls[i].id = ids[i];
    decls[i].rfc = "9000§1";
    cases[i].suite = suites[i];
    cases[i].decl = &decls[i];
    cases[i].settings.id = ids[i];
  }
  std::vector<CaseResult> results(7);
  for (std::size_t i = 0; i < 7; ++i) results[i].c = &cases[i];

  results[0].status = Status::fail;
  results[0].duration_s = 0.5;
  results[0].headline = "got <x> & \"y\" 'z'";
  results[0].runs = {record(3, Status::fail, "",
                            {{"c", {}, {Verdict::fail, "s<1>", {{"client.pcap", 4, 10, "e&e"}}}},
                             {"d", {}, {Verdict::pass, "fine", {}}}})};
  decls[0].requirement = "a receiver MUST <raise> \"it\"";
  MutantOutcome m;
  m.label = "m";
  m.killed = true;
  MutantOutcome lives;
  lives.label = "client.emit_max_streams=false";
  lives.fails = lives.survived = {"c"};
  lives.run.status = Status::pass;
  lives.run.checks = {{"c", {}, {Verdict::pass, "held", {}}, RequirementLevel::should}};
  lives.run.artifact_dir = "out/esc/@mutant-2";
  results[0].mutants = {m, lives};

  results[1].status = Status::unsupported;
  results[1].headline = "needs 'relay'";

  results[2].status = Status::pass;
  results[2].duration_s = 0.25;

  const std::string boom = std::string("boom") + '\x01';  // a control character
  results[3].status = Status::error;
  results[3].duration_s = 0.0004;
  results[3].headline = boom;
  results[3].runs = {record(1, Status::error, boom)};

  results[4].status = Status::xpass;
  results[4].duration_s = 1;
  results[4].headline = "passed, but the case says it fails: known";
  results[4].runs = {record(1, Status::pass)};

  results[5].status = Status::timeout;
  results[5].duration_s = 2;
  results[5].headline = "no end after 2 s (timeout)";
  results[5].runs = {record(1, Status::timeout, "no end after 2 s (timeout)")};

  results[6].status = Status::xfail;
  results[6].duration_s = 0.125;
  results[6].headline = "known (c: bad)";

  RunPlan plan;
  plan.cases = &cases;
  const std::string path = conform::test::scratch_dir("report_junit") + "/junit.xml";
  JunitReporter reporter(path);
  reporter.begin(plan);
  for (const auto& r : results) reporter.case_done(r);
  reporter.end({3, 3, 1, 0, 4.3754});

  const std::string expected =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"conform\">\n"
      "  <testsuite name=\"suites/a&amp;b.toml\" tests=\"2\" failures=\"1\" errors=\"0\" "
      "skipped=\"0\" time=\"0.750\">\n"
      "    <testcase classname=\"a&amp;b\" name=\"esc/&lt;1&gt;&amp;&quot;2&quot;\" time=\"0.500\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "        <property name=\"requirement\" value=\"a receiver MUST &lt;raise&gt; &quot;it&quot;\"/>\n"
      "        <property name=\"mutant m\" value=\"killed\"/>\n"
      "        <property name=\"mutant client.emit_max_streams=false\" value=\"survived\"/>\n"
      "      </properties>\n"
      "      <failure type=\"FAIL\" message=\"got &lt;x&gt; &amp; &quot;y&quot; &apos;z&apos;\">"
      "seed 3: FAIL \n"
      "  FAIL [expectation] c: s&lt;1&gt;\n"
      "    client.pcap frame 4: e&amp;e\n"
      "  PASS [expectation] d: fine\n"
      "mutant m: killed\n"
      "mutant client.emit_max_streams=false: SURVIVED: PASS [SHOULD] c: held (out/esc/@mutant-2)\n"
      "</failure>\n"
      "    </testcase>\n"
      "    <testcase classname=\"a&amp;b\" name=\"esc/pass\" time=\"0.250\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "    </testcase>\n"
      "  </testsuite>\n"
      "  <testsuite name=\"suites/z.toml\" tests=\"5\" failures=\"1\" errors=\"2\" skipped=\"1\" "
      "time=\"3.125\">\n"
      "    <testcase classname=\"z\" name=\"z/skip\" time=\"0.000\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "      <skipped message=\"needs &apos;relay&apos;\"/>\n"
      "    </testcase>\n"
      "    <testcase classname=\"z\" name=\"z/err\" time=\"0.000\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "      <error type=\"ERROR\" message=\"boom?\">seed 1: ERROR boom?\n"
      "</error>\n"
      "    </testcase>\n"
      "    <testcase classname=\"z\" name=\"z/xpass\" time=\"1.000\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "      <failure type=\"XPASS\" message=\"passed, but the case says it fails: known\">"
      "seed 1: PASS \n"
      "</failure>\n"
      "    </testcase>\n"
      "    <testcase classname=\"z\" name=\"z/timeout\" time=\"2.000\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "      <error type=\"TIMEOUT\" message=\"no end after 2 s (timeout)\">"
      "seed 1: TIMEOUT no end after 2 s (timeout)\n"
      "</error>\n"
      "    </testcase>\n"
      "    <testcase classname=\"z\" name=\"z/xfail\" time=\"0.125\">\n"
      "      <properties>\n"
      "        <property name=\"rfc\" value=\"9000§1\"/>\n"
      "      </properties>\n"
      "    </testcase>\n"
      "  </testsuite>\n"
      "</testsuites>\n";
  BOOST_TEST(conform::test::read_file(path) == expected);
}

BOOST_AUTO_TEST_CASE(junit_report_of_the_world_counts_per_suite) {
  World w;
  const std::string path = conform::test::scratch_dir("report_junit_world") + "/j.xml";
  JunitReporter reporter(path);
  w.feed(reporter);
  const std::string xml = conform::test::read_file(path);
  BOOST_TEST(xml.find("<testsuite name=\"suites/demo.toml\" tests=\"5\" failures=\"1\" errors=\"1\" "
                      "skipped=\"1\" time=\"2.500\">") != std::string::npos,
             xml);
  BOOST_TEST(xml.find("<testcase classname=\"demo\" name=\"demo/xfail\" time=\"0.750\">") !=
                 std::string::npos,
             xml);
  BOOST_TEST(xml.find("client.pcap frame 42: it&apos;s here") != std::string::npos, xml);
}

// ---- console ----

BOOST_AUTO_TEST_CASE(console_prints_one_line_per_case_and_the_totals) {
  World w;
  const std::string out = captured([&](std::FILE* f) {
    ConsoleReporter console(f, nullptr, Verbosity::normal);
    w.feed(console);
  });
  const auto lines = lines_of(out);
  BOOST_REQUIRE_EQUAL(lines.size(), 1u + 5u + 1u + 1u);
  BOOST_TEST(lines[0].rfind("conform ", 0) == 0u, lines[0]);
  BOOST_TEST(lines[0].find(" · 5 cases · seed 7 (pinned) · artifacts in /tmp/conform-out") !=
                 std::string::npos,
             lines[0]);
  const std::string replay = "conform run suites/demo.toml" + kReplayArgs;
  BOOST_TEST(lines[1] == "PASS        demo/pass  0.25 s  1 mutant killed");
  BOOST_TEST(lines[2] == std::string("FAIL        demo/fail  1.50 s  1/2 seeds passed  ") +
                             World::kFailHeadline + "  (seed 2; replay: " + replay +
                             " --seed 2 --filter demo/fail)");
  BOOST_TEST(lines[3] == std::string("ERROR       demo/error  0.00 s  ") + World::kCrash +
                             "  (seed 1; replay: " + replay + " --seed 1 --filter demo/error)");
  BOOST_TEST(lines[4] == "UNSUPPORTED demo/skip  0.00 s  needs a relay");
  BOOST_TEST(lines[5] == "XFAIL       demo/xfail  0.75 s  known bug (c: bad)");
  BOOST_TEST(lines[6] == "sections covered: 9000§4.6 (1/2), 9000§5 (0/2), 9000§6 (1/1)");
  BOOST_TEST(lines[7] == "2 passed, 2 failed, 1 skipped");
  BOOST_TEST(out.back() == '\n');
  // No progress line without a terminal.
  BOOST_TEST(out.find('\r') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(console_closing_line_omits_skipped_when_none) {
  World w;
  const std::string out = captured([&](std::FILE* f) {
    ConsoleReporter console(f, nullptr, Verbosity::normal);
    console.begin(w.plan);
    console.case_done(w.results[0]);
    console.end({1, 0, 0, 0, 0.25});
  });
  const auto lines = lines_of(out);
  BOOST_REQUIRE_EQUAL(lines.size(), 4u);
  BOOST_TEST(lines[2] == "sections covered: 9000§4.6 (1/1)");
  BOOST_TEST(lines[3] == "1 passed, 0 failed");
  BOOST_TEST(out.substr(out.size() - 19) == "1 passed, 0 failed\n");
}

BOOST_AUTO_TEST_CASE(console_quiet_prints_only_failures_and_totals) {
  World w;
  const std::string out = captured([&](std::FILE* f) {
    ConsoleReporter console(f, nullptr, Verbosity::quiet);
    w.feed(console);
  });
  const auto lines = lines_of(out);
  BOOST_REQUIRE_EQUAL(lines.size(), 3u);
  BOOST_TEST(lines[0].rfind("FAIL        demo/fail  1.50 s", 0) == 0u, lines[0]);
  BOOST_TEST(lines[1].rfind("ERROR       demo/error  0.00 s", 0) == 0u, lines[1]);
  BOOST_TEST(lines[2] == "2 passed, 2 failed, 1 skipped");
}

BOOST_AUTO_TEST_CASE(console_verbose_adds_runs_checks_evidence_and_mutants) {
  World w;
  const std::string out = captured([&](std::FILE* f) {
    ConsoleReporter console(f, nullptr, Verbosity::verbose);
    w.feed(console);
  });
  const auto has = [&](const std::string& line) {
    return out.find("\n" + line + "\n") != std::string::npos;
  };
  BOOST_TEST(has("    seed 1: PASS   (/tmp/conform-out/run-1)"), out);
  BOOST_TEST(has("      PASS [expectation] datagrams_captured: client.pcap holds 6 datagrams from any (required >= 1)"), out);
  BOOST_TEST(has("    mutant client.echo=false: killed (datagrams_captured failed)"), out);
  BOOST_TEST(has("      FAIL [expectation] stream_limit: got \"101\" & <100>"), out);
  BOOST_TEST(has("        client.pcap frame 42 at 1.250000 s: it's here"), out);
  BOOST_TEST(has(std::string("    seed 1: ERROR ") + World::kCrash + "  (/tmp/conform-out/run-1)"), out);
  BOOST_TEST(lines_of(out).back() == "2 passed, 2 failed, 1 skipped");
}

BOOST_AUTO_TEST_CASE(console_progress_goes_to_the_terminal_and_is_cleared) {
  World w;
  std::string results;
  const std::string tty = captured([&](std::FILE* t) {
    results = captured([&](std::FILE* f) {
      ConsoleReporter console(f, t, Verbosity::normal);
      console.begin(w.plan);
      console.progress(1, 5, "demo/pass");
      console.case_done(w.results[0]);
      console.progress(2, 5, std::string(80, 'x'));
      console.end({1, 0, 0, 0});
    });
  });
  BOOST_TEST(tty == "\r\033[K[1/5] demo/pass\r\033[K\r\033[K[2/5] " + std::string(60, 'x') +
                        "\r\033[K");
  BOOST_TEST(results.find('\r') == std::string::npos);
  BOOST_TEST(lines_of(results).back() == "1 passed, 0 failed");
}

// ---- RunRecord JSON ----

BOOST_AUTO_TEST_CASE(record_json_round_trips) {
  RunRecord r;
  r.seed = 18'446'744'073'709'551'000ull;  // above INT64_MAX
  r.mutant = "client.echo=false";
  r.status = Status::fail;
  r.reason = "reason with § and \"quotes\"";
  r.duration_s = 1.25;
  r.artifact_dir = "/out/case/mutant-1";
  r.checks.push_back({"datagrams_captured",
                      {{"flag", true},
                       {"count", std::int64_t{-42}},
                       {"big", std::int64_t{9'000'000'000'000}},
                       {"ratio", 0.1},
                       {"whole", 3.0},
                       {"name", std::string("client")},
                       {"list", std::vector<std::string>{"a", "b"}},
                       {"empty_list", std::vector<std::string>{}}},
                      {Verdict::fail,
                       "client.pcap holds 0 datagrams",
                       {{"client.pcap", 7, 123'456'789'012, "first"},
                        {"", 0, -1, "about the whole case"},
                        {"server.pcap", 18'000'000'000'000'000'000ull, 0, ""}}}});
  r.checks.push_back({"other", {}, {Verdict::pass, "", {}}});

  const json j = to_json(r);
  BOOST_TEST(j["status"] == "FAIL");
  BOOST_TEST(j["checks"][0]["evidence"][1]["time_ns"].is_null());
  BOOST_TEST(j["checks"][0]["params"]["whole"].is_number_float());
  check_same(record_from_json(j), r);
  // And through text, as a child run sends it to its parent.
  check_same(record_from_json(json::parse(j.dump())), r);
}

BOOST_AUTO_TEST_CASE(record_json_of_each_status) {
  for (Status s : {Status::pass, Status::fail, Status::xfail, Status::xpass, Status::unsupported,
                   Status::error, Status::timeout}) {
    RunRecord r;
    r.status = s;
    RunRecord back = record_from_json(json::parse(to_json(r).dump()));
    BOOST_TEST((back.status == s), to_string(s));
  }
  BOOST_TEST(!parse_status("nonsense"));
}

BOOST_AUTO_TEST_CASE(record_json_of_another_shape_throws) {
  BOOST_CHECK_THROW(record_from_json(json::object()), json::exception);
  json j = to_json(RunRecord{});
  j["seed"] = "one";
  BOOST_CHECK_THROW(record_from_json(j), json::exception);
  // A word of a later version is refused, not read as FAIL or ERROR.
  RunRecord judged;
  judged.checks.push_back(CheckOutcome{});
  for (const auto& [pointer, word] : std::vector<std::pair<std::string, std::string>>{
           {"/status", "MAYBE"}, {"/checks/0/verdict", "MAYBE"}, {"/checks/0/level", "MAY"}}) {
    json bad = to_json(judged);
    BOOST_TEST_REQUIRE(record_from_json(bad).checks.size() == 1u);
    bad[json::json_pointer(pointer)] = word;
    BOOST_CHECK_THROW(record_from_json(bad), std::invalid_argument);
  }
}

BOOST_AUTO_TEST_CASE(value_json_keeps_types) {
  BOOST_TEST(to_json(Value{true}) == json(true));
  BOOST_TEST(to_json(Value{std::int64_t{5}}) == json(5));
  BOOST_TEST(to_json(Value{2.5}) == json(2.5));
  BOOST_TEST(to_json(Value{std::string("s")}) == json("s"));
  BOOST_TEST(to_json(Value{std::vector<std::string>{"x"}}) == json({"x"}));
  BOOST_TEST(to_json(Evidence{"c.pcap", 3, -1, "t"}) ==
             json({{"capture", "c.pcap"}, {"frame", 3}, {"text", "t"}, {"time_ns", nullptr}}));
}

// ---- shell quoting and replay ----

BOOST_AUTO_TEST_CASE(shell_quote_leaves_plain_words_alone) {
  BOOST_TEST(shell_quote("suites/rfc9000/handshake.toml") == "suites/rfc9000/handshake.toml");
  BOOST_TEST(shell_quote("a-b_c.d/e=f:g,h@i%j+k") == "a-b_c.d/e=f:g,h@i%j+k");
  BOOST_TEST(shell_quote("--plugin-dir") == "--plugin-dir");
}

BOOST_AUTO_TEST_CASE(shell_quote_quotes_everything_else) {
  BOOST_TEST(shell_quote("") == "''");
  BOOST_TEST(shell_quote("a b") == "'a b'");
  BOOST_TEST(shell_quote("fanout[frames=200]") == "'fanout[frames=200]'");
  BOOST_TEST(shell_quote("max-streams-*") == "'max-streams-*'");
  BOOST_TEST(shell_quote("$HOME") == "'$HOME'");
  BOOST_TEST(shell_quote("9000§4.6") == "'9000§4.6'");
  BOOST_TEST(shell_quote("it's") == "'it'\\''s'");
  BOOST_TEST(shell_quote("'") == "''\\'''");
}

BOOST_AUTO_TEST_CASE(shell_quote_survives_a_real_shell) {
  const std::string tricky = "it's a \"test\" $HOME `x` \\ [frames=200] *";
  const std::string dir = conform::test::scratch_dir("report_shell");
  const std::string out = dir + "/out.txt";
  const std::string cmd = "printf '%s' " + shell_quote(tricky) + " > " + shell_quote(out);
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  BOOST_TEST(conform::test::read_file(out) == tricky);
}

BOOST_AUTO_TEST_CASE(replay_command_names_suite_args_seed_and_case) {
  SuiteFile suite;
  suite.path = "suites/rfc 9000/streams.toml";
  CaseDecl decl;
  Case c;
  c.suite = &suite;
  c.decl = &decl;
  c.settings.id = "max-streams-uni/fanout[frames=200]";
  CaseResult r;
  r.c = &c;
  r.headline_seed = 3;
  RunPlan plan;
  BOOST_TEST(replay_command(plan, r) ==
             "conform run 'suites/rfc 9000/streams.toml' --seed 3 --filter "
             "'max-streams-uni/fanout[frames=200]'");
  plan.replay_args = {"--plugin-dir", "/x y", "--timeout", "5"};
  BOOST_TEST(replay_command(plan, r) ==
             "conform run 'suites/rfc 9000/streams.toml' --plugin-dir '/x y' --timeout 5 --seed 3 "
             "--filter 'max-streams-uni/fanout[frames=200]'");
}

BOOST_AUTO_TEST_SUITE_END()
