// `conform run --html`, `conform report` and `conform dissect --qlog` as a
// user runs them: the page written at the end of a run equals the one made
// later from its JSON report, bad input is one line with exit 2, and a
// missing Chart.js stops a run before it starts.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string kSuite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/simulated.toml";
const std::string kCaptures = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A JSON report of one fixture case in `dir`/r.json.
std::string fixture_report(const std::string& dir) {
  auto r = run_conform({"run", kSuite, "--filter", "sim/impaired-echo", "--out", dir + "/out", "--json",
                        dir + "/r.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
  return dir + "/r.json";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_cli_test)

BOOST_AUTO_TEST_CASE(run_html_equals_report_html) {
  const std::string dir = scratch_dir("report-cli-run");
  auto r = run_conform({"run", kSuite, "--filter", "sim/impaired-echo", "--seed", "5", "--out", dir + "/out",
                        "--json", dir + "/r.json", "--html", dir + "/run.html"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
  const std::string page = read_file(dir + "/run.html");
  BOOST_TEST(contains(page, "<div id=\"status\" data-state=\"loading\">"));
  BOOST_TEST(contains(page, "Chart.js v3.9.1"));
  BOOST_TEST(contains(page, "\"id\":\"sim/impaired-echo\""));
  // The fixture's echo is not QUIC: the run's view says so.
  BOOST_TEST(contains(page, "no QUIC connection in the captures of " + dir + "/out/sim/impaired-echo"));

  r = run_conform({"report", dir + "/r.json", "--html", dir + "/later.html"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.empty());
  BOOST_TEST((read_file(dir + "/later.html") == page));
}

BOOST_AUTO_TEST_CASE(report_input_errors_exit_2) {
  const std::string dir = scratch_dir("report-cli-errors");
  auto r = run_conform({"report", dir + "/missing.json", "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/missing.json: cannot read the file: No such file or directory\n");
  // A folder is said to be one, not "malformed JSON".
  std::filesystem::create_directories(dir + "/folder.json");
  r = run_conform({"report", dir + "/folder.json", "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/folder.json: cannot read the file: is a folder\n", r.err);

  write_file(dir + "/bad.json", "{\n  \"cases\": [\n  }\n");
  r = run_conform({"report", dir + "/bad.json", "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.rfind(dir + "/bad.json:3:3: malformed JSON: ", 0) == 0u, r.err);

  write_file(dir + "/other.json", "{\"a\": 1}");
  r = run_conform({"report", dir + "/other.json", "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/other.json: at /: no \"conform_version\"\n", r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/x.html"));

  // Valid JSON nested 100000 deep: refused at the 257th bracket, not a crash.
  write_file(dir + "/deep.json", "{\"x\": \"[{\", \"deep\":\n" + std::string(100000, '[') + std::string(100000, ']') + "}");
  r = run_conform({"report", dir + "/deep.json", "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/deep.json:2:256: malformed JSON: nested deeper than 256 levels\n", r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/x.html"));
}

// A report of the wrong shape names the member, exit 2, and writes nothing:
// the page's script would otherwise fail on it, or show a bogus verdict.
BOOST_AUTO_TEST_CASE(a_report_of_the_wrong_shape_names_the_member) {
  const std::string dir = scratch_dir("report-cli-shape");
  const nlohmann::json good = nlohmann::json::parse(read_file(fixture_report(dir)));
  struct Bad {
    const char* pointer;
    nlohmann::json value;
    const char* message;
  };
  const char* const kCount = "expected an integer at least 0";
  const char* const kObject = "expected an object";
  for (const Bad& b : {Bad{"/cases/0/runs", "x", "expected an array"},
                       Bad{"/cases/0/status", "BOGUS", "unknown status \"BOGUS\""},
                       Bad{"/cases/0/duration_s", "x", "type must be number, but is string"},
                       Bad{"/cases/0/duration_s", -1.5, "must be a number of seconds, at least 0"},
                       Bad{"/cases/0/runs/0/status", "BOGUS", "unknown status \"BOGUS\""},
                       Bad{"/cases/0/runs/0/duration_s", -1, "must be a number of seconds, at least 0"},
                       // Every member the page and `conform merge` read, each
                       // with the type it must have.
                       Bad{"/seed", -1, kCount},
                       Bad{"/seed_pinned", 1, "type must be boolean, but is number"},
                       Bad{"/cases", json::object(), "expected an array"},
                       Bad{"/totals", "x", kObject},
                       Bad{"/totals/passed", "1", kCount},
                       Bad{"/totals/failed", 0.5, kCount},
                       Bad{"/totals/skipped", true, kCount},
                       Bad{"/totals/duration_s", true, "type must be number, but is boolean"},
                       Bad{"/cases/0/id", 7, "type must be string, but is number"},
                       Bad{"/cases/0/section", nullptr, "type must be string, but is null"},
                       Bad{"/cases/0/runs_passed", -1, kCount},
                       Bad{"/cases/0/params", "x", kObject},
                       Bad{"/cases/0/knobs/client", json::array(), kObject},
                       Bad{"/cases/0/replay", 1, "type must be string, but is number"},
                       Bad{"/cases/0/mutants", "x", "expected an array"},
                       Bad{"/cases/0/runs/0/seed", 1.5, kCount},
                       Bad{"/cases/0/runs/0/checks/1", "x", kObject},
                       Bad{"/cases/0/runs/0/checks/1/verdict", true, "type must be string, but is boolean"},
                       Bad{"/cases/0/runs/0/checks/1/level", 1, "type must be string, but is number"},
                       Bad{"/cases/0/runs/0/checks/1/params", 1, kObject},
                       Bad{"/cases/0/runs/0/checks/1/evidence/0/frame", -6, kCount},
                       Bad{"/cases/0/runs/0/checks/1/evidence/0/time_ns", "40", kCount},
                       Bad{"/cases/0/runs/0/checks/1/evidence/1/text", json::array(), "type must be string, but is array"}}) {
    nlohmann::json doc = good;
    doc[nlohmann::json::json_pointer(b.pointer)] = b.value;
    const std::string path = write_file(dir + "/bad.json", doc.dump(1));
    auto r = run_conform({"report", path, "--html", dir + "/x.html"});
    BOOST_TEST(r.exit_code == 2, b.pointer);
    BOOST_TEST(r.err == path + ": at " + b.pointer + ": " + b.message + "\n", b.pointer);
    BOOST_TEST(!std::filesystem::exists(dir + "/x.html"));
  }
  // A member that is not there at all.
  for (const char* key : {"totals", "seed", "cases"}) {
    nlohmann::json doc = good;
    doc.erase(key);
    const std::string path = write_file(dir + "/missing.json", doc.dump(1));
    auto r = run_conform({"report", path, "--html", dir + "/x.html"});
    BOOST_TEST(r.exit_code == 2, key);
    BOOST_TEST(r.err == path + ": at /: no \"" + key + "\"\n", key);
  }
  // A mutant's members: the fixture case has none, so one is added.
  nlohmann::json doc = good;
  nlohmann::json mutant = {{"label", "server.echo=false"}, {"fails", {"datagrams_captured"}}, {"killed", "yes"},
                           {"survived", json::array()}, {"run", good["cases"][0]["runs"][0]}};
  doc["cases"][0]["mutants"].push_back(mutant);
  const std::string path = write_file(dir + "/mutant.json", doc.dump(1));
  auto r = run_conform({"report", path, "--html", dir + "/x.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == path + ": at /cases/0/mutants/0/killed: type must be boolean, but is string\n");
}

// The page must not overwrite the report it is made from.
BOOST_AUTO_TEST_CASE(report_refuses_to_overwrite_its_input) {
  const std::string dir = scratch_dir("report-cli-same");
  const std::string before = read_file(fixture_report(dir));
  auto r = run_conform({"report", dir + "/r.json", "--html", dir + "/./r.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/./r.json: --html names an input file (" + dir +
                          "/r.json): writing the report would overwrite it\n",
             r.err);
  BOOST_TEST(read_file(dir + "/r.json") == before);
  // A hard link is the same file under another name.
  std::filesystem::create_hard_link(dir + "/r.json", dir + "/link.json");
  r = run_conform({"report", dir + "/r.json", "--html", dir + "/link.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(read_file(dir + "/r.json") == before);
}

// docs/interop.md's matrix comes from docs/interop-last-run.json through
// `conform report --markdown -`: a line saying what was run, then the
// table; a file with a matrix of the wrong shape is named with the member.
BOOST_AUTO_TEST_CASE(report_markdown_is_the_behaviour_matrix_of_an_interop_run) {
  const std::string dir = scratch_dir("report-cli-markdown");
  const json matrix = {
      {"stacks", {"quiche", "firefox"}},
      {"behaviours", {"streams_blocked_sent bidi"}},
      {"cells",
       {{{"stack", "quiche"}, {"behaviour", "streams_blocked_sent bidi"}, {"role", "client"}, {"verdict", "FAIL"},
         {"level", "SHOULD"}, {"passed", 0}, {"judged", 1},
         {"judgements", {{{"id", "interop/held[quiche,conform]"}, {"verdict", "FAIL"}}}}},
        {{"stack", "firefox"}, {"behaviour", "streams_blocked_sent bidi"}, {"role", "client"}, {"verdict", "PASS"},
         {"level", nullptr}, {"passed", 1}, {"judged", 1},
         {"judgements",
          {{{"id", "interop/page[firefox,conform]"}, {"verdict", "PASS"}},
           {{"id", "interop/page[firefox,quic-go]"}, {"verdict", "TIMEOUT"}}}}}}}};
  json report = {{"conform_version", "0"},
                 {"recorded", {{"command", "conform run suites/interop -j 2"}, {"date", "2026-12-05"}, {"wall_s", 171.25}}},
                 {"totals", {{"passed", 1}, {"failed", 1}, {"skipped", 0}, {"duration_s", 3.0}}},
                 {"interop", {{"behaviours", matrix}}}};
  write_file(dir + "/r.json", report.dump());
  auto r = run_conform({"report", dir + "/r.json", "--markdown", "-"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out ==
                 "`conform run suites/interop -j 2` (2026-12-05, 171.2 s wall): 2 cases, 1 passed, 1 failed.\n"
                 "\n"
                 "| stack | streams_blocked_sent bidi |\n"
                 "|---|---|\n"
                 "| quiche | FAIL [SHOULD] 0/1 |\n"
                 "| firefox | PASS 1/1 +1 TIMEOUT |\n",
             r.out);
  // To a file, as well as the HTML page when both are asked.
  r = run_conform({"report", dir + "/r.json", "--markdown", dir + "/m.md"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(read_file(dir + "/m.md") == run_conform({"report", dir + "/r.json", "--markdown", "-"}).out);

  report["interop"]["behaviours"]["cells"][1]["judgements"][1]["verdict"] = "LATE";
  write_file(dir + "/bad.json", report.dump());
  r = run_conform({"report", dir + "/bad.json", "--markdown", "-"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty(), r.out);
  BOOST_TEST(r.err == dir + "/bad.json: at /interop/behaviours/cells/1/judgements/1/verdict: expected one of FAIL, "
                            "ERROR, TIMEOUT, NOT JUDGED, NOT EXERCISED, NOT APPLICABLE, PASS\n",
             r.err);
  // A report of a run with no interop case has no matrix to write.
  r = run_conform({"report", fixture_report(dir), "--markdown", "-"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, "r.json: at /interop: "), r.err);
  r = run_conform({"report", dir + "/r.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, "say what to write: --html FILE, --markdown FILE, or both"), r.err);

  // The matrix alone is no report for the HTML page: with both asked, the
  // older Markdown file is left as it was, not written before the refusal.
  report.erase("recorded");
  report["interop"]["behaviours"] = matrix;
  write_file(dir + "/r.json", report.dump());
  write_file(dir + "/kept.md", "older\n");
  r = run_conform({"report", dir + "/r.json", "--markdown", dir + "/kept.md", "--html", dir + "/p.html"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/r.json: at /: no \"seed\"\n", r.err);
  BOOST_TEST(read_file(dir + "/kept.md") == "older\n");
  // A device never ends: refused before it is read.
  r = run_conform({"report", "/dev/zero", "--markdown", "-"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == "/dev/zero: cannot read the file: not a regular file\n", r.err);
}

BOOST_AUTO_TEST_CASE(missing_chart_js_stops_the_run_before_it_starts) {
  const std::string dir = scratch_dir("report-cli-chartjs");
  auto r = run_conform({"run", kSuite, "--filter", "sim/impaired-echo", "--out", dir + "/out", "--html",
                        dir + "/r.html"},
                       ".", {"CONFORM_CHART_JS=" + dir + "/none.js"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, dir + "/none.js: the HTML report inlines Chart.js"), r.err);
  BOOST_TEST(!std::filesystem::exists(dir + "/out/sim"));
}

BOOST_AUTO_TEST_CASE(dissect_writes_qlog) {
  const std::string dir = scratch_dir("report-cli-qlog");
  const std::string capture = kCaptures + "handshake.pcap", keys = kCaptures + "handshake.keys";
  auto r = run_conform({"dissect", capture, "--keylog", keys, "--qlog", dir + "/h.sqlog", "--vantage", "client"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.empty());
  const std::string qlog = read_file(dir + "/h.sqlog");
  BOOST_TEST_REQUIRE(!qlog.empty());
  BOOST_TEST(qlog.front() == '\x1e');
  const auto header = nlohmann::json::parse(qlog.substr(1, qlog.find('\n') - 1));
  BOOST_TEST(header["trace"]["vantage_point"]["type"] == "client");

  r = run_conform({"dissect", capture, "--keylog", keys, "--qlog", "-", "--vantage", "client"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST((r.out == qlog));

  // Without --vantage it is inferred as `conform check` does, and said; a
  // capture at both endpoints or on the path is qlog's "network".
  auto vantage_point = [&](std::vector<std::string> more) {
    std::vector<std::string> args{"dissect", capture, "--keylog", keys, "--qlog", "-"};
    args.insert(args.end(), more.begin(), more.end());
    r = run_conform(args);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    return nlohmann::json::parse(r.out.substr(1, r.out.find('\n') - 1))["trace"]["vantage_point"]["type"];
  };
  BOOST_TEST(vantage_point({}) == "network");
  BOOST_TEST(contains(r.err, "vantage of " + capture + ": both (inferred: every datagram went between two ports"),
             r.err);
  BOOST_TEST(vantage_point({"--vantage", "server"}) == "server");
  BOOST_TEST(r.err.empty(), r.err);
  for (const char* elsewhere : {"path", "both", "network"}) BOOST_TEST(vantage_point({"--vantage", elsewhere}) == "network");

  r = run_conform({"dissect", capture, "--vantage", "server"});  // nothing for it to set
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, "--vantage requires --qlog"), r.err);
  r = run_conform({"dissect", capture, "--qlog", "-", "--vantage", "middle"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, "--vantage"), r.err);
  r = run_conform({"dissect", capture, "--json", "--qlog", "-"});
  BOOST_TEST(r.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
