// The QUIC plugin's knob table: each TOML value lands in the quic::Config
// field it names, with the exact value; defaults are the Config's; values
// the validator lets through but the core cannot use are refused by name.
// Also the scenarios' parameter checks and the broadcast schedule.
#include "scenarios/knobs.hpp"
#include "scenarios/run.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_broadcast.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace conform;
using namespace conform::quic;

namespace {

Value I(int64_t v) { return Value{v}; }
Value S(const char* v) { return Value{std::string(v)}; }

const ValueSpec* spec_of(const std::string& name) {
  for (const ValueSpec& s : knob_specs())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_knobs_test)

BOOST_AUTO_TEST_CASE(every_value_lands_in_its_field) {
  const ValueMap values = {
      {"max_idle_timeout_ms", I(5000)},
      {"max_udp_payload_size", I(1350)},
      {"initial_max_data", I(12345)},
      {"initial_max_stream_data_bidi_local", I(111)},
      {"initial_max_stream_data_bidi_remote", I(222)},
      {"initial_max_stream_data_uni", I(333)},
      {"initial_max_streams_bidi", I(7)},
      {"initial_max_streams_uni", I(9)},
      {"ack_delay_exponent", I(5)},
      {"max_ack_delay_ms", I(40)},
      {"disable_active_migration", Value{false}},
      {"active_connection_id_limit", I(4)},
      {"emit_max_streams", Value{false}},
      {"max_streams_policy", S("every_stream")},
      {"emit_streams_blocked", Value{false}},
      {"emit_data_blocked", Value{false}},
      {"open_stream_when_blocked", S("fail")},
      {"respect_peer_max_streams", Value{false}},
      {"respect_peer_flow_control", Value{false}},
      {"tls_groups", S("cecpq2")},
      {"retry", Value{true}},
      {"key_update_interval_packets", I(1000)},
      {"initial_mtu", I(1400)},
      {"congestion_controller", S("bbr")},
      {"pmtud", Value{true}},
      {"alpn", Value{std::vector<std::string>{"h3", "hq-interop"}}},
  };
  Config c;
  BOOST_TEST(apply_knobs(values, c) == "");
  BOOST_TEST(c.max_idle_timeout_ms == 5000u);
  BOOST_TEST(c.max_udp_payload_size == 1350u);
  BOOST_TEST(c.initial_max_data == 12345u);
  BOOST_TEST(c.initial_max_stream_data_bidi_local == 111u);
  BOOST_TEST(c.initial_max_stream_data_bidi_remote == 222u);
  BOOST_TEST(c.initial_max_stream_data_uni == 333u);
  BOOST_TEST(c.initial_max_streams_bidi == 7u);
  BOOST_TEST(c.initial_max_streams_uni == 9u);
  BOOST_TEST(c.ack_delay_exponent == 5u);
  BOOST_TEST(c.max_ack_delay_ms == 40u);
  BOOST_TEST(!c.disable_active_migration);
  BOOST_TEST(c.active_connection_id_limit == 4u);
  BOOST_TEST(!c.emit_max_streams);
  BOOST_TEST((c.max_streams_policy == MaxStreamsPolicy::every_stream));
  BOOST_TEST(!c.emit_streams_blocked);
  BOOST_TEST(!c.emit_data_blocked);
  BOOST_TEST((c.open_stream_when_blocked == OpenWhenBlocked::fail));
  BOOST_TEST(!c.respect_peer_max_streams);
  BOOST_TEST(!c.respect_peer_flow_control);
  BOOST_TEST((c.tls_groups == TlsGroups::cecpq2));
  BOOST_TEST(c.retry);
  BOOST_TEST(c.key_update_interval_packets == 1000u);
  BOOST_TEST(c.initial_mtu == 1400u);
  BOOST_TEST((c.congestion_controller == CongestionControl::bbr));
  BOOST_TEST(c.pmtud);
  BOOST_TEST((c.alpn == std::vector<std::string>{"h3", "hq-interop"}));
  // Each value above is a declared knob of its declared type.
  for (const auto& [name, value] : values) {
    BOOST_TEST_REQUIRE(spec_of(name) != nullptr, name);
    BOOST_TEST((conform::type_of(value) == spec_of(name)->type), name);
  }
}

BOOST_AUTO_TEST_CASE(defaults_are_the_configs_own) {
  const Config d;
  BOOST_TEST(std::get<int64_t>(*spec_of("initial_max_streams_uni")->default_value) == 100);
  BOOST_TEST(std::get<int64_t>(*spec_of("initial_max_data")->default_value) ==
             static_cast<int64_t>(d.initial_max_data));
  BOOST_TEST(std::get<int64_t>(*spec_of("initial_mtu")->default_value) == 1200);
  BOOST_TEST(std::get<bool>(*spec_of("emit_max_streams")->default_value) == true);
  BOOST_TEST(std::get<bool>(*spec_of("retry")->default_value) == false);
  BOOST_TEST(std::get<std::string>(*spec_of("max_streams_policy")->default_value) == "half_window");
  BOOST_TEST(std::get<std::string>(*spec_of("open_stream_when_blocked")->default_value) == "wait");
  BOOST_TEST(std::get<std::string>(*spec_of("tls_groups")->default_value) == "x25519");
  BOOST_TEST((spec_of("tls_groups")->one_of == std::vector<std::string>{"x25519", "p256", "cecpq2"}));
  BOOST_TEST(std::get<std::string>(*spec_of("congestion_controller")->default_value) == "newreno");
  BOOST_TEST((spec_of("congestion_controller")->one_of == std::vector<std::string>{"newreno", "bbr"}));
  BOOST_TEST(std::get<bool>(*spec_of("pmtud")->default_value) == false);
  // Applying every default leaves a default Config.
  ValueMap defaults;
  for (const ValueSpec& s : knob_specs()) defaults.emplace(s.name, *s.default_value);
  Config c;
  c.initial_max_data = 1;
  c.emit_max_streams = false;
  BOOST_TEST(apply_knobs(defaults, c) == "");
  BOOST_TEST(c.initial_max_data == d.initial_max_data);
  BOOST_TEST(c.emit_max_streams);
  for (const ValueSpec& s : knob_specs()) BOOST_TEST(!s.doc.empty(), s.name);
}

BOOST_AUTO_TEST_CASE(values_the_core_cannot_use_are_refused_by_name) {
  Config c;
  BOOST_TEST(apply_knobs({{"max_udp_payload_size", I(1199)}}, c) ==
             "max_udp_payload_size = 1199: must be from 1200 to 65527");
  BOOST_TEST(apply_knobs({{"initial_max_data", I(-1)}}, c) ==
             "initial_max_data = -1: must be from 0 to 4611686018427387903");
  BOOST_TEST(apply_knobs({{"ack_delay_exponent", I(21)}}, c) ==
             "ack_delay_exponent = 21: must be from 0 to 20");
  BOOST_TEST(apply_knobs({{"initial_max_streams_uni", I((int64_t{1} << 60) + 1)}}, c) ==
             "initial_max_streams_uni = 1152921504606846977: must be from 0 to 1152921504606846976");
  BOOST_TEST(apply_knobs({{"active_connection_id_limit", I(1)}}, c) ==
             "active_connection_id_limit = 1: must be from 2 to 4611686018427387903");
  BOOST_TEST(apply_knobs({{"emit_max_streams", I(1)}}, c) == "emit_max_streams: expected boolean");
  BOOST_TEST(apply_knobs({{"alpn", Value{std::vector<std::string>{}}}}, c) == "alpn: must name at least one");
  BOOST_TEST(c.max_udp_payload_size == Config{}.max_udp_payload_size);
}

BOOST_AUTO_TEST_CASE(each_role_gets_its_own_knobs) {
  CaseSettings s;
  s.knobs["client"] = {{"initial_max_streams_uni", I(3)}, {"emit_max_streams", Value{false}}};
  s.knobs["server"] = {{"retry", Value{true}}, {"initial_max_streams_uni", I(1)}};
  Config client, server;
  BOOST_TEST(role_config(s, "client", client) == "");
  BOOST_TEST(role_config(s, "server", server) == "");
  BOOST_TEST(!client.is_server);
  BOOST_TEST(client.initial_max_streams_uni == 3u);
  BOOST_TEST(!client.emit_max_streams);
  BOOST_TEST(!client.retry);
  BOOST_TEST(server.is_server);
  BOOST_TEST(server.retry);
  BOOST_TEST(server.initial_max_streams_uni == 1u);
  BOOST_TEST(server.emit_max_streams);
  s.knobs["server"] = {{"initial_mtu", I(100)}};
  BOOST_TEST(role_config(s, "server", server) == "server.initial_mtu = 100: must be from 1200 to 65527");
}

BOOST_AUTO_TEST_CASE(scenarios_declare_the_names_the_suites_use) {
  std::set<std::string> names;
  for (const ScenarioEntry& e : scenario_table()) names.insert(e.spec.name);
  BOOST_TEST((names == std::set<std::string>{"handshake", "uni-fanout", "uni-publish",
                                             "request-response", "bulk"}));
  BOOST_TEST(make_scenario("uni-fanout", {}).problem == "");
  BOOST_TEST(make_scenario("uni-fanout", {{"subscribers", I(3)}}).scenario->clients() == 3u);
  BOOST_TEST(make_scenario("uni-fanout", {{"frames", I(0)}}).problem == "frames = 0: must be from 1 to 100000");
  BOOST_TEST(make_scenario("uni-fanout", {{"pause_at_frame", I(-2)}}).problem ==
             "pause_at_frame = -2: must be from -1 to 100000");
  BOOST_TEST(make_scenario("request-response", {{"concurrency", I(0)}}).problem ==
             "concurrency = 0: must be from 1 to 100000");
  // Sizes have upper bounds: a typo must not allocate gigabytes.
  BOOST_TEST(make_scenario("uni-fanout", {{"payload_bytes", I(1'000'000'000)}}).problem ==
             "payload_bytes = 1000000000: must be from 0 to 1048576");
  BOOST_TEST(make_scenario("uni-publish", {{"payload_bytes", I(1 << 20)}}).problem == "");
  BOOST_TEST(make_scenario("bulk", {{"bytes", I((1 << 26) + 1)}}).problem ==
             "bytes = 67108865: must be from 0 to 67108864");
  BOOST_TEST(make_scenario("handshake", {{"clients", I(1001)}}).problem == "clients = 1001: must be from 1 to 1000");
  BOOST_TEST(make_scenario("bulk", {{"bytes", S("many")}}).problem ==
             "scenario bulk: parameter bytes must be integer");
  BOOST_TEST(make_scenario("fanout", {}).problem == "the quic plugin has no scenario 'fanout'");
}

BOOST_AUTO_TEST_CASE(broadcast_schedule_and_groups) {
  BroadcastPlan p;
  p.frames = 200;
  p.frames_per_group = 1;
  p.cadence = quic::Duration::millis(20);
  BOOST_TEST(p.groups() == 200);
  BOOST_TEST(p.offset_of(0).ns == 0);
  BOOST_TEST(p.offset_of(199).as_millis() == 3980);
  p.frames_per_group = 5;
  BOOST_TEST(p.groups() == 40);
  p.frames_per_group = 7;
  BOOST_TEST(p.groups() == 29);  // ceil(200 / 7)
  p.frames_per_group = 0;
  BOOST_TEST(p.groups() == 1);
  // 50 frames, a 5 s pause, 50 frames (the investigation's pause case).
  p.frames = 100;
  p.pause_at_frame = 50;
  p.pause = quic::Duration::seconds(5);
  BOOST_TEST(p.offset_of(49).as_millis() == 980);
  BOOST_TEST(p.offset_of(50).as_millis() == 6000);
  BOOST_TEST(p.offset_of(99).as_millis() == 6980);
}

BOOST_AUTO_TEST_SUITE_END()
