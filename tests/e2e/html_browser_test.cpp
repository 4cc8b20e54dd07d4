// The HTML report in a real browser: `conform report` on a hand-written
// JSON report over the case folders of support/report_fixture, loaded in
// headless Chromium (Debian's `chromium`, installed by scripts/setup.sh).
// The page writes "ok" into #status once it has drawn everything and
// "error: ..." when a script error, a rejected promise or a blocked fetch
// happened; --dump-dom gives the DOM after the scripts ran. The screenshot
// stays in the build folder (tests/tmp/e2e_tests/html-browser/report.png),
// CI's artifact.
#include "support/report_fixture.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>

using namespace conform::test;
using nlohmann::json;

namespace {

struct Browser {
  int exit_code = -1;
  std::string out;
};

// Headless Chromium on `page` with `action` (--dump-dom, --screenshot=...).
// Its own profile folder; a time limit so a hung browser fails the test.
Browser chromium(const std::string& dir, const std::string& page, const std::string& action) {
  const std::string command = "timeout 60 chromium --headless --disable-gpu --no-sandbox --no-first-run "
                              "--disable-dev-shm-usage --hide-scrollbars --window-size=1280,2000 "
                              "--virtual-time-budget=5000 --user-data-dir='" + dir + "/profile' " + action +
                              " 'file://" + page + "' 2>'" + dir + "/chromium.err'";
  Browser b;
  FILE* pipe = popen(command.c_str(), "r");
  BOOST_TEST_REQUIRE(pipe != nullptr);
  char buffer[65536];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) b.out.append(buffer, n);
  const int status = pclose(pipe);
  b.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return b;
}

std::string unescape_attribute(std::string s) {
  const std::pair<const char*, const char*> entities[] = {{"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities)
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += std::strlen(to))
      s.replace(at, std::strlen(from), to);
  return s;
}

// The value of `attribute` on the element whose id is `id` in a DOM dump.
std::string attribute_of(const std::string& dom, const std::string& id, const std::string& attribute) {
  const auto at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  const auto open = dom.rfind('<', at);
  const auto close = dom.find('>', at);
  const std::string tag = dom.substr(open, close - open);
  const std::regex re(" " + attribute + "=\"([^\"]*)\"");
  std::smatch m;
  return std::regex_search(tag, m, re) ? unescape_attribute(m[1]) : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_browser_test)

BOOST_AUTO_TEST_CASE(renders_without_errors_and_shows_the_cliff) {
  const std::string dir = scratch_dir("html-browser");
  const std::string report = make_report_fixture(dir);
  const std::string page = dir + "/report.html";
  // Relative artifact folders resolve against the report's folder.
  auto r = run_conform({"report", report, "--html", page});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);

  const Browser dom = chromium(dir, page, "--dump-dom");
  BOOST_TEST_REQUIRE(dom.exit_code == 0, read_file(dir + "/chromium.err"));
  const std::regex status_re("<div id=\"status\" data-state=\"([a-z]+)\">([^<]*)</div>");
  std::smatch status;
  BOOST_TEST_REQUIRE(std::regex_search(dom.out, status, status_re), dom.out.substr(0, 2000));
  BOOST_TEST(status[1] == "ok", status[2]);
  BOOST_TEST(status[2] == "ok");

  // The killed mutant (case 0, mutant 0): opened keeps growing, delivered stays flat.
  const std::string series = attribute_of(dom.out, "case-0-mutant-0-streams", "data-series");
  BOOST_TEST_REQUIRE(!series.empty());
  const json s = json::parse(series);
  const json& opened = s["opened"];
  const json& delivered = s["delivered"];
  const double flat_from = delivered.back()[0];
  BOOST_TEST(delivered.back()[1] == 8);
  BOOST_TEST(opened.back()[1] == 40);
  std::size_t opened_after = 0;
  for (const auto& p : opened) opened_after += p[0].get<double>() > flat_from;
  BOOST_TEST(opened_after == 32u);
  // The passing run of the same case: every stream opened is delivered.
  const json healthy = json::parse(attribute_of(dom.out, "case-0-run-0-streams", "data-series"));
  BOOST_TEST(healthy["delivered"].back() == healthy["opened"].back());
  // The sequence diagram draws the 16 dropped datagrams as lost.
  BOOST_TEST(attribute_of(dom.out, "case-0-mutant-0-seq", "data-lost") == "16");
  BOOST_TEST(dom.out.find("class=\"row fate-lost") != std::string::npos);
  // Evidence frames link into the diagram.
  BOOST_TEST(dom.out.find("class=\"frame-link\" data-capture=\"client.pcap\" data-frame=\"19\"") != std::string::npos);
  // The TCP case's plots and the lossy handshake's probes.
  BOOST_TEST(attribute_of(dom.out, "case-3-run-0-transfers", "data-transfers") == "1");
  BOOST_TEST(std::stoi(attribute_of(dom.out, "case-2-run-0-handshake", "data-probes")) > 0);

  const std::string png = dir + "/report.png";
  const Browser shot = chromium(dir, page, "--screenshot='" + png + "'");
  BOOST_TEST_REQUIRE(shot.exit_code == 0, read_file(dir + "/chromium.err"));
  const std::string image = read_file(png);
  BOOST_TEST(image.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  BOOST_TEST(image.size() > 20000u);
}

BOOST_AUTO_TEST_CASE(a_script_error_shows_in_the_status) {
  // The same check must see a page that breaks: here Chart.js throws.
  const std::string dir = scratch_dir("html-browser-error");
  const std::string report = make_report_fixture(dir);
  const std::string page = dir + "/report.html";
  write_file(dir + "/broken-chart.js", "throw new Error('chart exploded');");
  auto r = run_conform({"report", report, "--html", page}, ".", {"CONFORM_CHART_JS=" + dir + "/broken-chart.js"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const Browser dom = chromium(dir, page, "--dump-dom");
  BOOST_TEST_REQUIRE(dom.exit_code == 0, read_file(dir + "/chromium.err"));
  BOOST_TEST(attribute_of(dom.out, "status", "data-state") == "error");
  BOOST_TEST(dom.out.find("chart exploded") != std::string::npos);
  BOOST_TEST(dom.out.find("Chart.js did not load") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
