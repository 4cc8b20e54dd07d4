// What the in-house QUIC plugin's scenarios declare a run asks for
// (ScenarioSpec::demand), from the run's parameters.
#include "scenarios/scenario.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace conform;

namespace {

// The demand scenario `name` declares for `params`, its defaults filled in.
RunDemand demand(const std::string& name, ValueMap params) {
  for (const auto& e : quic::scenario_table()) {
    if (e.spec.name != name) continue;
    for (const ValueSpec& p : e.spec.params)
      if (!params.count(p.name) && p.default_value) params.emplace(p.name, *p.default_value);
    BOOST_TEST_REQUIRE(e.spec.demand != nullptr);
    return e.spec.demand(params);
  }
  BOOST_FAIL("no scenario " + name);
  return {};
}

std::string text(const std::optional<DemandValue>& v) {
  return v ? std::to_string(v->value) + " (" + v->source + ")" : "none";
}

using I = std::int64_t;

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_scenario_demand_test)

BOOST_AUTO_TEST_CASE(uni_fanout_opens_a_server_stream_per_group) {
  RunDemand d = demand("uni-fanout", {{"frames", I(7)}, {"frames_per_group", I(5)}, {"payload_bytes", I(10)}});
  BOOST_TEST(text(d.server.uni_streams) == "2 (frames=7 frames_per_group=5)");
  BOOST_TEST(text(d.server.bytes) == "70 (frames=7 × payload_bytes=10)");
  BOOST_TEST(text(d.client.uni_streams) == "none");
  BOOST_TEST(text(d.server.bidi_streams) == "none");
  d = demand("uni-fanout", {{"frames", I(100)}, {"frames_per_group", I(0)}});
  BOOST_TEST(text(d.server.uni_streams) == "1 (frames=100 frames_per_group=0)");
  BOOST_TEST(text(demand("uni-fanout", {}).server.uni_streams) == "200 (frames=200 frames_per_group=1)");
}

BOOST_AUTO_TEST_CASE(uni_publish_and_request_response_open_client_streams) {
  RunDemand d = demand("uni-publish", {{"streams", I(3)}});
  BOOST_TEST(text(d.client.uni_streams) == "3 (streams=3)");
  BOOST_TEST(text(d.client.bytes) == "240 (streams=3 × payload_bytes=80)");
  BOOST_TEST(text(d.server.bytes) == "none");
  d = demand("request-response", {{"requests", I(4)}, {"request_bytes", I(5)}, {"response_bytes", I(6)}});
  BOOST_TEST(text(d.client.bidi_streams) == "4 (requests=4)");
  BOOST_TEST(text(d.client.bytes) == "20 (requests=4 × request_bytes=5)");
  BOOST_TEST(text(d.server.bytes) == "24 (requests=4 × response_bytes=6)");
  BOOST_TEST(text(d.client.uni_streams) == "none");
}

BOOST_AUTO_TEST_CASE(bulk_sends_bytes_in_its_direction) {
  RunDemand d = demand("bulk", {{"bytes", I(1000)}});
  BOOST_TEST(text(d.server.bytes) == "1000 (bytes=1000 direction=download)");
  BOOST_TEST(text(d.client.bytes) == "none");
  d = demand("bulk", {{"bytes", I(1000)}, {"direction", std::string("upload")}});
  BOOST_TEST(text(d.client.bytes) == "1000 (bytes=1000 direction=upload)");
  BOOST_TEST(text(d.server.bytes) == "none");
  d = demand("bulk", {{"bytes", I(9)}, {"direction", std::string("both")}});
  BOOST_TEST(text(d.client.bytes) == "9 (bytes=9 direction=both)");
  BOOST_TEST(text(d.server.bytes) == "9 (bytes=9 direction=both)");
  BOOST_TEST(text(d.server.uni_streams) == "none");
}

BOOST_AUTO_TEST_CASE(handshake_declares_nothing) {
  for (const auto& e : quic::scenario_table())
    if (e.spec.name == "handshake") BOOST_TEST(e.spec.demand == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
