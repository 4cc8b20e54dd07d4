// The HTML report's data, from the case folders of support/report_fixture:
// datagrams matched across the two vantage points (the ones the network
// dropped marked lost), the stream cliff's series, handshake probes, TCP
// windows and transfers, and a page that carries all of it inline and
// cannot be broken out of by what a case id or capture holds.
#include "common/input_error.hpp"
#include "report/html.hpp"
#include "report/run_view.hpp"
#include "support/report_fixture.hpp"
#include "support/support.hpp"

#include "capture/pcap_reader.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <set>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string& fixture() {
  static const std::string dir = [] {
    const std::string d = scratch_dir("html-report");
    make_report_fixture(d);
    return d;
  }();
  return dir;
}

json view_of(const std::string& name) {
  conform::report::StringTable strings;
  return conform::report::run_view(fixture() + "/" + name, strings);
}

// The diagram's rows, each [ms, dir, bytes, fate, client frame, server
// frame, arrival ms or null, summary] as the page's script reads them from
// the columns (report.js: diagramRows, packetSummary).
json rows_of(const std::string& name) {
  conform::report::StringTable table;
  const json v = conform::report::run_view(fixture() + "/" + name, table);
  const json strings = table.to_json();
  const json& c = v["rows"];
  json rows = json::array();
  std::int64_t us = 0;
  std::uint64_t client = 0, server = 0;
  for (std::size_t i = 0; i < c["packets"].size(); ++i) {
    us += c["us"][i].get<std::int64_t>();
    if (!c["client_frame"][i].is_null()) client += c["client_frame"][i].get<std::int64_t>();
    if (!c["server_frame"][i].is_null()) server += c["server_frame"][i].get<std::int64_t>();
    std::string summary;
    for (const auto& p : c["packets"][i]) {
      summary += (summary.empty() ? "" : " | ") + strings["text"][p[0].get<std::size_t>()].get<std::string>();
      if (!p[1].is_null()) summary += " " + std::to_string(p[1].get<std::uint64_t>());
      if (!p[3].empty()) summary += ":";
      for (const auto& f : p[3]) {
        const std::string text = strings["text"][f.get<std::size_t>()];
        const std::size_t label = strings["label"][f.get<std::size_t>()];
        summary += " " + (label ? text.substr(0, label) : text);
      }
    }
    rows.push_back({us / 1e3, c["dir"][i], c["bytes"][i], c["fate"][i],
                    c["client_frame"][i].is_null() ? 0 : client, c["server_frame"][i].is_null() ? 0 : server,
                    c["arrival_us"][i].is_null() ? json(nullptr) : json((us + c["arrival_us"][i].get<std::int64_t>()) / 1e3),
                    summary});
  }
  return rows;
}

json last(const json& series) { return series.back(); }

// Sets an environment variable for one scope.
struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) unsetenv(name_);
    else setenv(name_, old_.c_str(), 1);
  }
  const char* name_;
  std::string old_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(html_report_test)

BOOST_AUTO_TEST_CASE(datagrams_the_network_dropped_are_lost) {
  const json v = view_of("cliff");
  BOOST_TEST(v["kind"] == "quic");
  BOOST_TEST(v["captures"]["client"] == "client.pcap");
  BOOST_TEST(v["captures"]["server"] == "server.pcap");
  // What the fixture dropped, counted from the capture itself.
  std::size_t dropped = 0, client_sent = 0;
  for (const auto& d : conform::read_udp_datagrams(fixture() + "/cliff/client.pcap"))
    if (d.from.port != 4433) {
      ++client_sent;
      dropped += d.frame >= kCliffFrame;
    }
  BOOST_TEST(dropped == 16u);
  BOOST_TEST(v["rows_total"] == 50);
  const json rows = rows_of("cliff");
  BOOST_TEST(rows.size() == 50u);
  std::size_t lost = 0, delivered_by_client = 0;
  for (const auto& r : rows) {
    const int fate = r[3];
    if (fate == 1) {
      ++lost;
      BOOST_TEST(r[1] == 0);  // client → server
      BOOST_TEST(r[4].get<std::uint64_t>() >= kCliffFrame);
      BOOST_TEST(r[5] == 0);  // not in server.pcap
      BOOST_TEST(r[6].is_null());
    } else {
      BOOST_TEST(fate == 0);
      BOOST_TEST(r[4] != 0);
      BOOST_TEST(r[5] != 0);
      delivered_by_client += r[1] == 0;
    }
  }
  BOOST_TEST(lost == dropped);
  BOOST_TEST(delivered_by_client == client_sent - dropped);
  // Row 0: the client's first Initial, frame 1 in both captures.
  const json& first = rows[0];
  BOOST_TEST(first[0].get<double>() == 0.0);
  BOOST_TEST(first[2] == 1200);
  BOOST_TEST(first[4] == 1);
  BOOST_TEST(first[5] == 1);
  BOOST_TEST(first[7] == "Initial 0: CRYPTO PADDING");
}

BOOST_AUTO_TEST_CASE(the_cliff_shows_in_the_stream_series) {
  const json s = view_of("cliff")["streams"];
  BOOST_TEST(s["initiator"] == "client");
  BOOST_TEST(s["direction"] == "bidi");
  // The client opened 40 request streams (0, 4, ..., 156); 8 reached the server.
  BOOST_TEST(last(s["opened"])[1] == 40);
  BOOST_TEST(last(s["delivered"])[1] == 8);
  // Streams 16-28 went out in frame 15 (29.225 ms); the last ones in frame 48 (34.376 ms).
  BOOST_TEST(last(s["delivered"])[0].get<double>() == 29.225, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(last(s["opened"])[0].get<double>() == 34.376, boost::test_tools::tolerance(1e-9));
  // The server's limit: its initial_max_streams_bidi, then MAX_STREAMS 8, 12, ..., 40.
  BOOST_TEST(s["limit"][0][1] == 4);
  BOOST_TEST(s["limit"][1][1] == 8);
  BOOST_TEST(last(s["limit"])[1] == 40);
  BOOST_TEST(s["limit"].size() == 10u);

  const json healthy = view_of("healthy")["streams"];
  BOOST_TEST(last(healthy["delivered"]) == last(healthy["opened"]));
}

BOOST_AUTO_TEST_CASE(one_capture_only_draws_what_it_saw) {
  const json v = view_of("loss");
  BOOST_TEST(v["kind"] == "quic");
  BOOST_TEST(v["captures"]["server"].is_null());
  for (const auto& fate : v["rows"]["fate"]) BOOST_TEST(fate == 2);  // one vantage
  BOOST_TEST(v["rows"]["fate"].size() == v["rows_total"].get<std::size_t>());
  BOOST_TEST(v["streams"]["delivered"].is_null());
  // 15 % loss: the endpoints resent CRYPTO data or sent PING-only probes.
  BOOST_TEST(v["handshake"]["probes"].size() > 0u);
  BOOST_TEST(last(v["handshake"]["client"])[1] == 3);
  BOOST_TEST(last(v["handshake"]["server"])[1] == 4);  // HANDSHAKE_DONE sent
}

BOOST_AUTO_TEST_CASE(tcp_windows_and_transfers) {
  const json v = view_of("tcp");
  BOOST_TEST(v["kind"] == "tcp");
  BOOST_TEST(v["capture"] == "loopback.pcap");
  BOOST_TEST(v["flow"] == "flow 1 (127.0.0.1:40654 -> 127.0.0.1:44873)");
  // captures/tcp/README.md: one transfer, frame 4 (0.000865443 s) to frame 124 (3.055859323 s).
  BOOST_TEST_REQUIRE(v["transfers"].size() == 1u);
  BOOST_TEST(v["transfers"][0]["first_frame"] == 4);
  BOOST_TEST(v["transfers"][0]["ms"].get<double>() == 3054.99388, boost::test_tools::tolerance(1e-9));
  // The client's tiny buffer: 4096-byte windows, and zero windows.
  double lowest = 1e18, highest = 0;
  for (const auto& p : v["windows"]["initiator"]) {
    lowest = std::min(lowest, p[1].get<double>());
    highest = std::max(highest, p[1].get<double>());
  }
  BOOST_TEST(lowest == 0.0);
  BOOST_TEST(highest >= 4096.0);
}

BOOST_AUTO_TEST_CASE(a_missing_folder_is_a_note_not_an_error) {
  const json v = view_of("nowhere");
  BOOST_TEST(v["kind"] == "none");
  BOOST_TEST(v["notes"][0].get<std::string>().find("no such folder") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(page_is_self_contained_and_escapes_data) {
  json report = json::parse(read_file(fixture() + "/report.json"));
  report["cases"][0]["id"] = "a</script><script>alert(1)</script>";
  const std::string page = conform::report::render_html(report, {fixture()}, "/* chart */ var Chart = 1;");
  BOOST_TEST(page.find("<script>alert(1)") == std::string::npos);
  BOOST_TEST(page.find("a\\u003c/script>\\u003cscript>alert(1)") != std::string::npos);
  BOOST_TEST(page.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
  BOOST_TEST(page.find(" src=") == std::string::npos);
  BOOST_TEST(page.find("<link") == std::string::npos);
  BOOST_TEST(page.find("/* chart */ var Chart = 1;") != std::string::npos);
  // The data of every run folder named in the report is in the page.
  const auto begin = page.find("<script id=\"conform-data\" type=\"application/json\">");
  const auto end = page.find("</script>", begin);
  const json data = json::parse(page.substr(begin + 50, end - begin - 50));
  BOOST_TEST(data["views"].size() == 4u);
  BOOST_TEST(data["views"]["cliff"]["streams"]["opened"].size() == 40u);
  // Each frame description once, however many datagrams and runs carry it.
  const json& text = data["strings"]["text"];
  BOOST_TEST(text.size() == data["strings"]["label"].size());
  BOOST_TEST(std::set<json>(text.begin(), text.end()).size() == text.size());
}

BOOST_AUTO_TEST_CASE(chart_js_missing_is_a_clear_error) {
  ScopedEnv env("CONFORM_CHART_JS", "/nonexistent/chart.min.js");
  try {
    conform::report::read_chart_js();
    BOOST_FAIL("read_chart_js accepted a missing file");
  } catch (const conform::InputError& e) {
    const std::string line = e.diagnostics().front().str();
    BOOST_TEST(line.find("/nonexistent/chart.min.js: ") == 0u, line);
    BOOST_TEST(line.find("libjs-chart.js") != std::string::npos, line);
  }
}

BOOST_AUTO_TEST_SUITE_END()
