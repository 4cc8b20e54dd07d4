// Reading an endpoint's own qlog for the HTML report (report/endpoint_qlog):
// the first connection's events only, times moved to the captures' start,
// records that are not JSON skipped, long series thinned with their extremes.
#include "report/endpoint_qlog.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace conform::test;
using nlohmann::json;

namespace {

std::string record(double time, const std::string& group, const std::string& name, const json& data) {
  return "\x1e" + json{{"time", time}, {"name", name}, {"group_id", group}, {"data", data}}.dump() + "\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoint_qlog_test)

BOOST_AUTO_TEST_CASE(first_connection_only_and_times_from_the_captures_start) {
  const std::string dir = scratch_dir("endpoint-qlog-unit");
  std::string text = "\x1e{\"qlog_format\":\"JSON-SEQ\"}\n";
  text += record(10.0, "aa", "recovery:metrics_updated", {{"congestion_window", 12000}, {"pto_count", 0}});
  text += record(11.0, "bb", "recovery:metrics_updated", {{"congestion_window", 99}});
  text += "\x1enot json\n";
  text += record(12.5, "aa", "recovery:metrics_updated", {{"pto_count", 1}, {"bytes_in_flight", 2400}});
  text += record(13.0, "aa", "conform:streams_wanted", {{"stream_type", "unidirectional"}, {"count", 3}});
  text += record(14.0, "aa", "quic:packet_sent", {{"header", {{"packet_number", 4}}}});
  write_file(dir + "/server.sqlog", text);

  const auto q = conform::report::read_endpoint_qlog(dir + "/server.sqlog", 10'000'000);
  BOOST_TEST_REQUIRE(q.has_value());
  BOOST_TEST(q->recovery["congestion_window"] == json::parse("[[0.0, 12000.0]]"));
  BOOST_TEST(q->recovery["pto_count"] == json::parse("[[0.0, 0.0], [2.5, 1.0]]"));
  BOOST_TEST(q->recovery["bytes_in_flight"] == json::parse("[[2.5, 2400.0]]"));
  BOOST_TEST(q->wanted["unidirectional"] == json::parse("[[3.0, 3]]"));
  BOOST_TEST(!q->recovery.contains("smoothed_rtt"));
  BOOST_TEST(!conform::report::read_endpoint_qlog(dir + "/client.sqlog", 0).has_value());
}

BOOST_AUTO_TEST_CASE(long_series_keep_their_extremes) {
  const std::string dir = scratch_dir("endpoint-qlog-thin");
  std::string text;
  for (int i = 0; i < 10000; ++i)
    text += record(i, "aa", "recovery:metrics_updated", {{"bytes_in_flight", i == 7777 ? 0 : 5000 + i % 7}});
  write_file(dir + "/client.sqlog", text);
  const auto q = conform::report::read_endpoint_qlog(dir + "/client.sqlog", 0);
  BOOST_TEST_REQUIRE(q.has_value());
  const json& points = q->recovery["bytes_in_flight"];
  BOOST_TEST(points.size() <= conform::report::kMaxRecoveryPoints);
  BOOST_TEST(points.size() > conform::report::kMaxRecoveryPoints / 2);
  BOOST_TEST((std::find(points.begin(), points.end(), json::parse("[7777.0, 0.0]")) != points.end()));
  BOOST_TEST(std::is_sorted(points.begin(), points.end(),
                            [](const json& a, const json& b) { return a[0].get<double>() < b[0].get<double>(); }));
}

BOOST_AUTO_TEST_SUITE_END()
