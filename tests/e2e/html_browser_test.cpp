// The HTML report of a real `conform run`, in a real browser: the test
// writes a small suite folder (the uni-fanout cliff of suites/rfc9000 with
// its emit_max_streams mutant, a case that fails, a 6000-stream fanout and,
// as root, TCP transfers over two legs), runs it with the lossy jumbo
// handshake of suites/rfc9000 and --html, and loads the page in headless
// Chromium (Debian's `chromium`, installed by scripts/setup.sh).
// The page writes "ok" into #status once it has drawn everything and
// "error: ..." on a script error, a rejected promise or a blocked fetch;
// --dump-dom gives the DOM after the scripts ran, and Chromium's log
// (--enable-logging=stderr) shows every console message. The screenshot
// stays in the build folder, CI's artifact:
// build/tests/tmp/e2e_tests/e2e.html_browser_test/html-browser-run/report.png.
#include "support/report_fixture.hpp"
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace conform::test;
using nlohmann::json;

namespace {

struct Browser {
  int exit_code = -1;
  std::string out;
  std::string log;  // Chromium's stderr: console messages show as ":CONSOLE" lines
};

// Headless Chromium on `url` with `action` (--dump-dom, --screenshot=...).
// Its own profile folder; a time limit so a hung browser fails the test.
Browser chromium(const std::string& dir, const std::string& url, const std::string& action,
                 const std::string& window = "1280,2000") {
  const std::string command = "timeout 120 chromium --headless --disable-gpu --no-sandbox --no-first-run "
                              "--disable-dev-shm-usage --hide-scrollbars --window-size=" + window +
                              " --enable-logging=stderr --v=0 --virtual-time-budget=10000 --user-data-dir='" +
                              dir + "/profile' " + action + " '" + url + "' 2>'" + dir + "/chromium.err'";
  Browser b;
  FILE* pipe = popen(command.c_str(), "r");
  BOOST_TEST_REQUIRE(pipe != nullptr);
  char buffer[65536];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) b.out.append(buffer, n);
  const int status = pclose(pipe);
  b.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  b.log = read_file(dir + "/chromium.err");
  return b;
}

std::string unescape_attribute(std::string s) {
  const std::pair<const char*, const char*> entities[] = {{"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities)
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += std::strlen(to))
      s.replace(at, std::strlen(from), to);
  return s;
}

// The opening tag of the element whose id is `id` in a DOM dump; empty if none.
std::string tag_of(const std::string& dom, const std::string& id) {
  const auto at = dom.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  const auto open = dom.rfind('<', at);
  return dom.substr(open, dom.find('>', at) - open);
}

std::string attribute_of(const std::string& dom, const std::string& id, const std::string& attribute) {
  // By hand, not std::regex: a plot's series run to hundreds of KB.
  const std::string tag = tag_of(dom, id);
  const std::string key = " " + attribute + "=\"";
  const auto from = tag.find(key);
  if (from == std::string::npos) return "";
  const auto value = from + key.size();
  return unescape_attribute(tag.substr(value, tag.find('"', value) - value));
}

// The DOM of the element `id` up to the next element with an id of the same
// prefix kind (e.g. one run's block up to the next run's).
std::string block_of(const std::string& dom, const std::string& id, const std::string& next_id) {
  const auto from = dom.find("id=\"" + id + "\"");
  if (from == std::string::npos) return "";
  const auto to = next_id.empty() ? std::string::npos : dom.find("id=\"" + next_id + "\"", from);
  return dom.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

const char* const kStreams = R"toml(
[suite]
title = "Stream concurrency limits"
rfc = "RFC 9000 §4.6"

[[case]]
id = "max-streams-uni/fanout"
summary = "A receiver raises MAX_STREAMS_UNI so its peer can keep opening streams"
rfc = "9000§4.6"
requirement = "implementations are expected to raise the limit with MAX_STREAMS as peer-initiated streams close (not a MUST: say so)"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 200, cadence_ms = 5, payload_bytes = 80 }
client = { initial_max_streams_uni = 100 }
network = { rtt_ms = 40 }

  [[case.expect]]
  check = "streams_delivered"
  from = "server"
  dir = "uni"

  [[case.expect]]
  check = "max_streams_extended"
  by = "client"
  dir = "uni"

  [[case.mutant]]
  client = { emit_max_streams = false }
  fails = ["streams_delivered", "max_streams_extended"]

[[case]]
id = "max-streams-uni/never-raised"
summary = "A receiver that never raises MAX_STREAMS_UNI: the broadcast stops at its initial limit (fails)"
rfc = "9000§4.6"
requirement = "every byte of every stream MUST be delivered (§2.2)"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 150, cadence_ms = 5, payload_bytes = 80, drain_ms = 500 }
client = { initial_max_streams_uni = 100, emit_max_streams = false }
network = { rtt_ms = 40 }
no_mutant = "it fails already: the page shows a failure"

  [[case.expect]]
  check = "streams_delivered"
  from = "server"
  dir = "uni"

[[case]]
id = "max-streams-uni/fanout-6000"
summary = "6000 streams, one every 2 ms: thousands of datagrams, and the page stays usable"
rfc = "9000§4.6"
requirement = "every byte of every stream MUST be delivered (§2.2)"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 6000, cadence_ms = 2, payload_bytes = 80 }
client = { initial_max_streams_uni = 100 }
network = { rtt_ms = 40, budget_ms = 200000 }
no_mutant = "a size fixture: the page draws its thousands of datagrams"

  [[case.expect]]
  check = "streams_delivered"
  from = "server"
  dir = "uni"
)toml";

const char* const kTcp = R"toml(
[suite]
title = "Loopback TCP transfers"
rfc = "RFC 9293 §3.8.6"

[[case]]
id = "tcp/transfers"
summary = "Three small transfers per leg"
rfc = "9293§3.8.6"
requirement = "a receiver MUST avoid shrinking its window to small values (§3.8.6.2.2)"
plugin = "tcp_relay"
scenario = "transfers"
params = { request_bytes = 65536, response_bytes = 262144, transfers = 3 }
matrix = { leg = ["direct", "relay"] }
timeout = 30

  [[case.expect]]
  check = "transfer_time"
  max_ms = 5000.0
  min_transfers = 3
)toml";

struct Run {
  std::string dir, page;
  json report;
  Browser dom;
  // index of each case id in the report (the page's case-N)
  std::map<std::string, std::size_t> index;
};

const Run& real_run() {
  static const Run run = [] {
    Run r;
    r.dir = scratch_dir("html-browser-run");
    std::vector<std::pair<std::string, std::string>> suites{{"streams.toml", kStreams}};
    if (geteuid() == 0) suites.emplace_back("tcp.toml", kTcp);  // the relay captures on lo
    r.page = r.dir + "/report.html";
    auto c = run_with_jumbo_handshake(r.dir, suites, {"max-streams-uni/*", "tcp/*"},
                                      {"--json", r.dir + "/report.json", "--html", r.page});
    // never-raised fails; everything else passes.
    BOOST_TEST_REQUIRE(c.exit_code == 1, c.out + c.err);
    r.report = json::parse(read_file(r.dir + "/report.json"));
    for (std::size_t i = 0; i < r.report["cases"].size(); ++i) r.index[r.report["cases"][i]["id"]] = i;
    r.dom = chromium(r.dir, "file://" + r.page, "--dump-dom");
    return r;
  }();
  return run;
}

std::string uid(const Run& r, const std::string& id) { return "case-" + std::to_string(r.index.at(id)); }

// The page id of the case after `id`, empty for the last: where its block ends.
std::string next_case(const Run& r, const std::string& id) {
  const std::size_t next = r.index.at(id) + 1;
  return next < r.report["cases"].size() ? "case-" + std::to_string(next) : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_browser_test, *needs({"chromium"}))

BOOST_AUTO_TEST_CASE(renders_with_no_console_message) {
  const Run& r = real_run();
  BOOST_TEST_REQUIRE(r.dom.exit_code == 0, r.dom.log);
  for (const auto& [id, status] : std::map<std::string, std::string>{{"max-streams-uni/fanout", "PASS"},
                                                                     {"max-streams-uni/never-raised", "FAIL"},
                                                                     {"max-streams-uni/fanout-6000", "PASS"},
                                                                     {kJumboHandshake, "PASS"}})
    BOOST_TEST(r.report["cases"][r.index.at(id)]["status"] == status, id);
  BOOST_TEST(attribute_of(r.dom.out, "status", "data-state") == "ok", block_of(r.dom.out, "status", "app"));
  // Every console message (log, warning, error, uncaught exception) is a
  // ":CONSOLE" line in Chromium's log; the page writes none.
  BOOST_TEST(r.dom.log.find(":CONSOLE") == std::string::npos, r.dom.log);
}

BOOST_AUTO_TEST_CASE(the_killed_mutant_shows_the_cliff) {
  const Run& r = real_run();
  const std::string fanout = uid(r, "max-streams-uni/fanout");
  // The mutant shows its own verdict, not its run's: KILLED, green, its
  // run's FAIL said after.
  const std::string mutant = block_of(r.dom.out, fanout + "-mutant-0", fanout + "-mutant-0-streams");
  BOOST_TEST(mutant.find("<span class=\"badge s-pass\">KILLED</span> mutant client.emit_max_streams=false: killed, "
                         "its run FAIL (must fail: streams_delivered, max_streams_extended)") != std::string::npos,
             mutant.substr(0, 600));
  const std::string series = attribute_of(r.dom.out, fanout + "-mutant-0-streams", "data-series");
  BOOST_TEST_REQUIRE(!series.empty());
  const json s = json::parse(series);
  // The relay wants a stream per frame (server.sqlog); the client's limit
  // of 100 never moves, so 100 streams open and arrive, then nothing.
  BOOST_TEST(s["wanted"].back()[1] == 200);
  BOOST_TEST(s["opened"].back()[1] == 100);
  BOOST_TEST(s["delivered"].back()[1] == 100);
  BOOST_TEST(s["limit"].size() == 1u);
  BOOST_TEST(s["limit"][0][1] == 100);
  // The cliff: once delivery stops, the wanted line keeps climbing.
  const double flat_from = s["delivered"].back()[0];
  std::size_t wanted_after = 0;
  for (const auto& p : s["wanted"]) wanted_after += p[0].get<double>() > flat_from;
  BOOST_TEST(wanted_after > 50u, "wanted steps after " << flat_from << " ms: " << wanted_after);
  BOOST_TEST(s["wanted"].back()[0].get<double>() > flat_from + 200);

  // The passing run: everything wanted is opened and delivered, the limit a
  // step line raised by MAX_STREAMS beyond 200.
  const json healthy = json::parse(attribute_of(r.dom.out, fanout + "-run-0-streams", "data-series"));
  BOOST_TEST(healthy["delivered"].back()[1] == 200);
  BOOST_TEST(healthy["opened"].back()[1] == 200);
  BOOST_TEST(healthy["wanted"].back()[1] == 200);
  BOOST_TEST(healthy["limit"].size() > 2u);
  BOOST_TEST(healthy["limit"].back()[1].get<int>() >= 200);
}

BOOST_AUTO_TEST_CASE(sequence_diagrams_show_datagrams_frames_and_losses) {
  const Run& r = real_run();
  const std::string fanout = uid(r, "max-streams-uni/fanout");
  const std::string healthy = block_of(r.dom.out, fanout + "-run-0-seq", fanout + "-mutant-0");
  BOOST_TEST_REQUIRE(!healthy.empty());
  BOOST_TEST(std::stoi(attribute_of(r.dom.out, fanout + "-run-0-seq", "data-rows")) > 200);
  BOOST_TEST(count(healthy, "class=\"lane\"") == 2u);
  BOOST_TEST(healthy.find("client (client.pcap)") != std::string::npos);
  BOOST_TEST(healthy.find("server (server.pcap)") != std::string::npos);
  // The first rows are the handshake: the client's Initial, CRYPTO and PADDING.
  BOOST_TEST(healthy.find("B Initial 0: CRYPTO PADDING") != std::string::npos, healthy.substr(0, 3000));

  // The jumbo first flights never arrive: drawn lost, with their ✕.
  const std::string jumbo = uid(r, kJumboHandshake);
  BOOST_TEST(std::stoi(attribute_of(r.dom.out, jumbo + "-run-0-seq", "data-lost")) >= 2);
  const std::string diagram = block_of(r.dom.out, jumbo + "-run-0-seq", next_case(r, kJumboHandshake));
  BOOST_TEST(diagram.find("class=\"row fate-lost") != std::string::npos);
  BOOST_TEST(diagram.find("class=\"arrow lost\"") != std::string::npos);
  BOOST_TEST(diagram.find("✕") != std::string::npos);
  // Its handshake plot counts the PTO probes that recovered; beside it the
  // endpoints' own qlog shows each PTO count rising and the windows.
  BOOST_TEST(std::stoi(attribute_of(r.dom.out, jumbo + "-run-0-handshake", "data-probes")) > 0);
  const json recovery = json::parse(attribute_of(r.dom.out, jumbo + "-run-0-recovery", "data-series"));
  for (const char* side : {"client", "server"}) {
    double highest = 0;
    for (const auto& p : recovery[side]["pto_count"]) highest = std::max(highest, p[1].get<double>());
    BOOST_TEST(highest >= 1.0, side);
    BOOST_TEST(recovery[side]["congestion_window"].size() > 0u, side);
    BOOST_TEST(recovery[side]["bytes_in_flight"].size() > 1u, side);
  }
}

BOOST_AUTO_TEST_CASE(a_large_case_draws_only_the_rows_in_view) {
  const Run& r = real_run();
  const std::string large = uid(r, "max-streams-uni/fanout-6000");
  const int rows = std::stoi(attribute_of(r.dom.out, large + "-run-0-seq", "data-rows"));
  BOOST_TEST(rows > 6000);
  const std::string block = block_of(r.dom.out, large + "-run-0-seq", next_case(r, "max-streams-uni/fanout-6000"));
  const std::size_t drawn = count(block, "<g class=\"row ");
  BOOST_TEST(drawn > 10u);
  BOOST_TEST(drawn < 100u);
  const json s = json::parse(attribute_of(r.dom.out, large + "-run-0-streams", "data-series"));
  BOOST_TEST(s["delivered"].back()[1] == 6000);
}

// The page holds the diagram's rows by column and each frame description
// once (run_view.hpp), so the 6000-stream case costs little: the page of
// this run was 2.1 MB with a row per datagram spelled out, 1.45 MB now.
BOOST_AUTO_TEST_CASE(the_page_holds_each_frame_description_once) {
  const Run& r = real_run();
  const std::string page = read_file(r.page);
  const std::string open = "<script id=\"conform-data\" type=\"application/json\">";
  const auto begin = page.find(open) + open.size();
  const json data = json::parse(page.substr(begin, page.find("</script>", begin) - begin));
  const json& text = data["strings"]["text"];
  const json& label = data["strings"]["label"];
  BOOST_TEST_REQUIRE(text.size() == label.size());
  BOOST_TEST(std::set<json>(text.begin(), text.end()).size() == text.size());
  const std::string dir = r.report["cases"][r.index.at("max-streams-uni/fanout-6000")]["runs"][0]["artifact_dir"];
  const json& view = data["views"][dir];
  const std::size_t total = view["rows_total"];
  BOOST_TEST(total > 6000u);
  for (const auto& [column, values] : view["rows"].items()) BOOST_TEST(values.size() == total, column);
  // Every frame of every packet names an entry; a STREAM frame's summary is its name.
  std::size_t streams = 0;
  for (const auto& packets : view["rows"]["packets"])
    for (const auto& p : packets)
      for (const auto& f : p[3]) {
        const std::string frame = text.at(f.get<std::size_t>());
        if (frame.rfind("STREAM id=", 0) != 0) continue;
        ++streams;
        BOOST_TEST(label[f.get<std::size_t>()] == 6);
      }
  BOOST_TEST(streams >= 6000u);  // a row per datagram, matched across the captures
  BOOST_TEST(page.size() < 1800000u);
}

BOOST_AUTO_TEST_CASE(evidence_frames_link_into_the_diagram) {
  const Run& r = real_run();
  const std::string failing = uid(r, "max-streams-uni/never-raised");
  const std::string block = block_of(r.dom.out, failing, next_case(r, "max-streams-uni/never-raised"));
  const std::regex link("class=\"frame-link\" data-capture=\"(client|server)\\.pcap\" data-frame=\"([0-9]+)\"");
  BOOST_TEST(std::regex_search(block, link), block.substr(0, 4000));
  // A failing case starts open, its check marked FAIL.
  BOOST_TEST(tag_of(r.dom.out, failing).find(" open") != std::string::npos);
  BOOST_TEST(block.find("FAIL [MUST] </b><code>streams_delivered</code>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(overview_groups_by_suite_and_section_and_filters_failures) {
  const Run& r = real_run();
  const auto overview = [](const std::string& dom) {
    const auto from = dom.find("<div class=\"overview\">");
    return dom.substr(from, dom.find("<h2>Cases</h2>") - from);
  };
  const std::string table = overview(r.dom.out);
  BOOST_TEST_REQUIRE(!table.empty());
  for (const char* suite : {"streams.toml</h3>", "handshake_recovery.toml</h3>"})
    BOOST_TEST(table.find(suite) != std::string::npos, suite);
  BOOST_TEST(table.find("RFC 9000§4.6: 2 of 3 passed") != std::string::npos, table);
  BOOST_TEST(table.find("RFC 9002§6.2.4: 1 of 1 passed") != std::string::npos);
  // The fanout's row: its mutant killed; every row has a duration.
  const auto fanout_row = table.find("data-id=\"max-streams-uni/fanout\">");
  BOOST_TEST_REQUIRE(fanout_row != std::string::npos);
  const std::string row_text = table.substr(fanout_row, table.find("</tr>", fanout_row) - fanout_row);
  BOOST_TEST(row_text.find("<td class=\"num\">1/1</td>") != std::string::npos, row_text);
  BOOST_TEST(std::regex_search(row_text, std::regex("<td class=\"num\">[0-9.]+ s</td>")), row_text);

  // report.html#failures opens with the filter on: passing rows hidden.
  const Browser filtered = chromium(r.dir, "file://" + r.page + "#failures", "--dump-dom");
  BOOST_TEST_REQUIRE(filtered.exit_code == 0, filtered.log);
  const std::regex row("<tr class=\"case-row\" data-status=\"([A-Z]+)\" data-id=\"([^\"]+)\"( hidden=\"\")?>");
  std::size_t shown = 0, hidden = 0;
  const std::string filtered_table = overview(filtered.out);
  for (std::sregex_iterator it(filtered_table.begin(), filtered_table.end(), row), end; it != end; ++it) {
    const bool is_hidden = (*it)[3].matched;
    BOOST_TEST(is_hidden == ((*it)[1] == "PASS"), (*it)[2]);
    (is_hidden ? hidden : shown)++;
  }
  BOOST_TEST(shown == 1u);
  BOOST_TEST(hidden >= 3u);
}

BOOST_AUTO_TEST_CASE(tcp_cases_plot_windows_and_transfers_by_leg, *needs_root()) {
  const Run& r = real_run();
  for (const char* leg : {"direct", "relay"}) {
    const std::string id = std::string("tcp/transfers[leg=") + leg + "]";
    BOOST_TEST_REQUIRE(r.index.count(id) == 1u, id);
    BOOST_TEST(attribute_of(r.dom.out, uid(r, id) + "-run-0-transfers", "data-transfers") == "3", id);
    BOOST_TEST(!tag_of(r.dom.out, uid(r, id) + "-run-0-windows").empty(), id);
  }
}

// report.html#case-N for every case: the page opens that case and all its
// runs, draws them and reports no problem. (A screenshot of any such link
// is blank in headless Chromium once the fragment scrolls the page, even
// for a plain HTML page of 2000 paragraphs and `#p1500`: the screenshot
// shows an unpainted viewport, not the page. That was the blank
// `#case-35` of suites/rfc9000; the DOM after the scripts ran is what a
// reader sees, so that is what this test reads.)
BOOST_AUTO_TEST_CASE(every_case_anchor_opens_its_case_drawn) {
  const Run& r = real_run();
  for (std::size_t i = 0; i < r.report["cases"].size(); ++i) {
    const std::string uid = "case-" + std::to_string(i);
    const Browser dom = chromium(r.dir, "file://" + r.page + "#" + uid, "--dump-dom");
    BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.log);
    BOOST_TEST(attribute_of(dom.out, "status", "data-state") == "ok", uid);
    BOOST_TEST(dom.log.find(":CONSOLE") == std::string::npos, uid << dom.log);
    BOOST_TEST(tag_of(dom.out, uid).find(" open=\"\"") != std::string::npos, uid);
    const std::string next = i + 1 < r.report["cases"].size() ? "case-" + std::to_string(i + 1) : "";
    const std::string block = block_of(dom.out, uid, next);
    const std::size_t runs = count(block, "<details class=\"run\"");
    const json& c = r.report["cases"][i];
    BOOST_TEST(runs == c["runs"].size() + c.value("mutants", json::array()).size(), uid);
    BOOST_TEST(count(block, "<details class=\"run\"") == count(block, "<ul class=\"checks\">"), uid << ": a run not drawn");
    std::size_t closed = 0;
    for (std::size_t at = block.find("<details class=\"run\""); at != std::string::npos;
         at = block.find("<details class=\"run\"", at + 1))
      closed += block.substr(at, block.find('>', at) - at).find(" open=\"\"") == std::string::npos;
    BOOST_TEST(closed == 0u, uid << ": " << closed << " runs closed");
  }
}

BOOST_AUTO_TEST_CASE(screenshots_are_kept) {
  // The top of the page (overview, the failing case open), and the whole
  // page with the fanout case and its runs opened through report.html#case-N
  // (its mutant's cliff). A window taller than the page: headless Chromium
  // leaves a scrolled screenshot blank above the scroll position.
  const Run& r = real_run();
  for (const auto& [file, anchor, window] :
       {std::tuple<std::string, std::string, std::string>{"report.png", "", "1400,2400"},
        {"cliff.png", "#" + uid(r, "max-streams-uni/fanout"), "1400,5000"}}) {
    const std::string png = r.dir + "/" + file;
    const Browser shot = chromium(r.dir, "file://" + r.page + anchor, "--screenshot='" + png + "'", window);
    BOOST_TEST_REQUIRE(shot.exit_code == 0, shot.log);
    const std::string image = read_file(png);
    BOOST_TEST(image.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    BOOST_TEST(image.size() > 50000u);
    std::cout << "html_browser_test: screenshot of a real run's report: " << png << std::endl;
  }
}

// Two pairs of suites/interop/request_response.toml (conform's client
// against conform's and ngtcp2's servers): the page's matrix has the JSON
// report's pairs as rows and cases as columns, and each cell shows its
// case's verdict and links to that case's block.
BOOST_AUTO_TEST_CASE(the_interop_matrix_links_each_cell_to_its_case, *needs({"gtlsserver", "openssl"})) {
  const std::string dir = scratch_dir("html-browser-interop");
  const std::string page = dir + "/report.html";
  auto c = run_conform({"run", std::string(CONFORM_SOURCE_DIR) + "/suites/interop/request_response.toml", "--filter",
                        "*client.implementation=conform,server.implementation=conform*", "--filter",
                        "*client.implementation=conform,server.implementation=ngtcp2*", "--out", dir + "/out",
                        "--json", dir + "/report.json", "--html", page, "-j", "2"},
                       ".", {build_plugins_env()});
  BOOST_TEST_REQUIRE((c.exit_code == 0 || c.exit_code == 1), c.out + c.err);
  const json report = json::parse(read_file(dir + "/report.json"));
  const json& interop = report.at("interop");
  BOOST_TEST(std::set<std::string>(interop.at("pairs").begin(), interop.at("pairs").end()) ==
             (std::set<std::string>{"conform → conform", "conform → ngtcp2"}));
  const std::size_t columns = interop.at("cases").size();
  BOOST_TEST(columns == 4u);
  BOOST_TEST_REQUIRE(interop.at("cells").size() == 2 * columns);

  const Browser dom = chromium(dir, "file://" + page, "--dump-dom");
  BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.log);
  BOOST_TEST(attribute_of(dom.out, "status", "data-state") == "ok", dom.out.substr(0, 2000));
  BOOST_TEST(dom.log.find(":CONSOLE") == std::string::npos, dom.log);
  const auto from = dom.out.find("<table class=\"interop\">");
  BOOST_TEST_REQUIRE(from != std::string::npos);
  const std::string table = dom.out.substr(from, dom.out.find("</table>", from) - from);
  BOOST_TEST(count(table, "<tr>") == 3u, table);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < report["cases"].size(); ++i) index[report["cases"][i]["id"]] = i;
  for (const auto& cell : interop.at("cells")) {
    const std::string id = cell.at("id");
    const auto at = table.find("data-id=\"" + id + "\"");
    BOOST_TEST_REQUIRE(at != std::string::npos, id);
    const std::string td = table.substr(at, table.find("</td>", at) - at);
    BOOST_TEST(td.find("href=\"#case-" + std::to_string(index.at(id)) + "\"") != std::string::npos, td);
    BOOST_TEST(td.find(">" + cell.at("status").get<std::string>() + "</span>") != std::string::npos, td);
  }

  // Stacks × behaviours: conform's client and server and ngtcp2's server,
  // each cell linked to a case that judged it.
  const json& behaviours = interop.at("behaviours");
  BOOST_TEST(std::set<std::string>(behaviours.at("stacks").begin(), behaviours.at("stacks").end()) ==
             (std::set<std::string>{"conform", "ngtcp2"}));
  const auto at = dom.out.find("<table class=\"interop behaviours\">");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  const std::string by_stack = dom.out.substr(at, dom.out.find("</table>", at) - at);
  BOOST_TEST(count(by_stack, "<tr>") == 3u, by_stack);
  BOOST_TEST_REQUIRE(!behaviours.at("cells").empty());
  for (const auto& cell : behaviours.at("cells")) {
    const std::string key = "data-stack=\"" + cell.at("stack").get<std::string>() + "\" data-behaviour=\"" +
                            cell.at("behaviour").get<std::string>() + "\"";
    const auto from_td = by_stack.find(key);
    BOOST_TEST_REQUIRE(from_td != std::string::npos, key);
    const std::string td = by_stack.substr(from_td, by_stack.find("</td>", from_td) - from_td);
    BOOST_TEST(td.find(">" + cell.at("verdict").get<std::string>() + "</span>") != std::string::npos, td);
    bool linked = false;
    for (const auto& j : cell.at("judgements"))
      linked = linked || td.find("href=\"#case-" + std::to_string(index.at(j.at("id"))) + "\"") != std::string::npos;
    BOOST_TEST(linked, td);
  }
}

BOOST_AUTO_TEST_CASE(a_script_error_shows_in_the_status) {
  // The same check must see a page that breaks: here Chart.js throws.
  const std::string dir = scratch_dir("html-browser-error");
  const std::string report = make_report_fixture(dir);
  const std::string page = dir + "/report.html";
  write_file(dir + "/broken-chart.js", "throw new Error('chart exploded');");
  auto r = run_conform({"report", report, "--html", page}, ".", {"CONFORM_CHART_JS=" + dir + "/broken-chart.js"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const Browser dom = chromium(dir, "file://" + page, "--dump-dom");
  BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.log);
  BOOST_TEST(attribute_of(dom.out, "status", "data-state") == "error");
  BOOST_TEST(dom.out.find("chart exploded") != std::string::npos);
  BOOST_TEST(dom.out.find("Chart.js did not load") != std::string::npos);
  // ... and Chromium logs the uncaught exception as a console message.
  BOOST_TEST(dom.log.find(":CONSOLE") != std::string::npos, dom.log);
}

// `conform check --html`: the page of an offline check shows what was
// judged, from which capture, and nothing of a run that did not happen: no
// seed, no plugin or scenario; a case NOT EXERCISED does not count as
// passed in its section; every state has its badge.
BOOST_AUTO_TEST_CASE(an_offline_check_page_names_no_seed_nor_plugin) {
  const std::string dir = scratch_dir("html-browser-offline");
  const std::string captures = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  const std::string page = dir + "/report.html";
  auto c = run_conform({"check", captures + "handshake.pcap", "--keylog", captures + "handshake.keys",
                        std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000", "--out", dir + "/out", "-q", "--html",
                        page},
                       ".", {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  BOOST_TEST_REQUIRE(c.exit_code == 0, c.out + c.err);
  const Browser dom = chromium(dir, "file://" + page, "--dump-dom");
  BOOST_TEST_REQUIRE(dom.exit_code == 0, dom.log);
  BOOST_TEST(attribute_of(dom.out, "status", "data-state") == "ok", block_of(dom.out, "status", "app"));
  BOOST_TEST(dom.out.find("20 passed, 0 failed, 54 not exercised, 9 not applicable · cases took ") !=
                 std::string::npos,
             dom.out.substr(0, 4000));
  BOOST_TEST(dom.out.find(" · captures, no seed · conform ") != std::string::npos);
  BOOST_TEST(dom.out.find("seed 1") == std::string::npos);
  BOOST_TEST(dom.out.find("plugin quic") == std::string::npos);
  BOOST_TEST(dom.out.find("judged on a capture made elsewhere: no plugin ran") != std::string::npos);
  BOOST_TEST(dom.out.find("class=\"badge s-not-applicable\">NOT APPLICABLE<") != std::string::npos);
  // Where the capture was taken, and why, in its table and on each run.
  BOOST_TEST(dom.out.find("<h2>Captures</h2>") != std::string::npos);
  BOOST_TEST(dom.out.find("handshake.pcap#1</td><td>both</td><td>inferred: every datagram went between two ports of "
                          "127.0.0.1") != std::string::npos,
             dom.out.substr(0, 6000));
  BOOST_TEST(dom.out.find(" · taken at both<span class=\"dir\">") != std::string::npos);
  // 9002§6.2.2.1 holds one case, NOT EXERCISED on this capture.
  BOOST_TEST(dom.out.find("RFC 9002§6.2.2.1: 0 of 1 passed") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
