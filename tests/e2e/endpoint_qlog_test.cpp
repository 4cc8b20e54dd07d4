// The in-house QUIC's own qlog, as `conform run` leaves it in each case
// folder (client.sqlog, server.sqlog): JSON-SEQ records, the main schema's
// header fields, the quic-events draft's event names and fields, the
// recovery state (RTT, cwnd, bytes in flight, PTO count) moving as the
// case makes it move, and every packet and frame the endpoint sent matching
// what `conform dissect --qlog` reads from its capture.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

using namespace conform::test;
using nlohmann::json;

namespace {

const std::string kJumbo = kJumboHandshake;

const char* const kSuite = R"toml(
[suite]
title = "Endpoint qlog"
rfc = "RFC 9000 §4.6"

[[case]]
id = "fanout"
summary = "120 uni streams over a lossy path"
rfc = "9000§4.6"
requirement = "every byte of every stream MUST be delivered (§2.2)"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 120, cadence_ms = 2, payload_bytes = 80 }
network = { rtt_ms = 30, loss_rate = 0.05 }
no_mutant = "a qlog fixture: the test reads the endpoints' qlogs"

  [[case.expect]]
  check = "streams_delivered"
  from = "server"
  dir = "uni"
)toml";

const std::string& run_dir() {
  static const std::string out = [] {
    const std::string dir = scratch_dir("endpoint-qlog");
    auto r = run_with_jumbo_handshake(dir, {{"qlog.toml", kSuite}}, {"fanout"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
    return dir + "/out";
  }();
  return out;
}

// The records of a JSON-SEQ file: each starts with RS and ends with LF.
std::vector<json> records(const std::string& path) {
  const std::string text = read_file(path);
  BOOST_TEST_REQUIRE(!text.empty(), path);
  BOOST_TEST_REQUIRE(text.front() == '\x1e');
  std::vector<json> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\x1e', at + 1), text.size());
    const std::string record = text.substr(at + 1, end - at - 1);
    BOOST_TEST_REQUIRE(record.back() == '\n');
    out.push_back(json::parse(record));
    at = end;
  }
  return out;
}

std::vector<json> events(const std::vector<json>& all, const std::string& name) {
  std::vector<json> out;
  std::copy_if(all.begin() + 1, all.end(), std::back_inserter(out), [&](const json& e) { return e["name"] == name; });
  return out;
}

const std::set<std::string> kNames = {"quic:packet_sent", "quic:packet_received", "recovery:packet_lost",
                                      "recovery:metrics_updated", "conform:streams_wanted"};
const std::set<std::string> kPacketTypes = {"initial", "handshake", "0RTT", "1RTT"};
const std::set<std::string> kMetrics = {"min_rtt",           "smoothed_rtt",    "latest_rtt", "rtt_variance",
                                        "congestion_window", "bytes_in_flight", "ssthresh",   "pto_count"};

// packet type and number -> frame types without PADDING (which the endpoint
// adds as bytes, not frames), for the packets `name` lists.
std::map<std::pair<std::string, std::uint64_t>, std::vector<std::string>> packets(const std::vector<json>& all,
                                                                                  const std::string& name) {
  std::map<std::pair<std::string, std::uint64_t>, std::vector<std::string>> out;
  for (const json& e : events(all, name)) {
    std::vector<std::string> types;
    for (const json& f : e["data"]["frames"])
      if (f["frame_type"] != "padding") types.push_back(f["frame_type"]);
    out[{e["data"]["header"]["packet_type"], e["data"]["header"]["packet_number"]}] = types;
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoint_qlog_test)

BOOST_AUTO_TEST_CASE(every_record_has_the_schemas_fields) {
  for (const std::string& c : {kJumbo, std::string("fanout")})
    for (const char* side : {"client", "server"}) {
      BOOST_TEST_CONTEXT(c << " " << side) {
        const auto all = records(run_dir() + "/" + c + "/" + side + ".sqlog");
        const json& h = all.front();
        BOOST_TEST(h["qlog_format"] == "JSON-SEQ");
        BOOST_TEST(h["qlog_version"] == "0.4");
        BOOST_TEST(h["title"].is_string());
        BOOST_TEST(h["trace"]["vantage_point"]["type"] == side);
        BOOST_TEST(h["trace"]["common_fields"]["time_format"] == "relative");
        BOOST_TEST(h["trace"]["common_fields"]["reference_time"] == 0);
        BOOST_TEST(h["trace"]["common_fields"]["protocol_type"] == json::array({"QUIC"}));
        BOOST_TEST(all.size() > 10u);
        double last = 0;
        for (std::size_t i = 1; i < all.size(); ++i) {
          const json& e = all[i];
          BOOST_TEST_REQUIRE(kNames.count(e.at("name").get<std::string>()) == 1u, e.dump());
          BOOST_TEST(e.at("time").get<double>() >= last, e.dump());
          last = e["time"].get<double>();
          BOOST_TEST(e.at("group_id").get<std::string>().size() >= 16u);
          const json& d = e.at("data");
          const std::string name = e["name"];
          if (name == "quic:packet_sent" || name == "quic:packet_received") {
            BOOST_TEST(kPacketTypes.count(d.at("header").at("packet_type").get<std::string>()) == 1u);
            BOOST_TEST(d["header"].at("packet_number").is_number_unsigned());
            BOOST_TEST(d.at("raw").at("length").get<std::size_t>() > 20u);
            BOOST_TEST(d.at("frames").is_array());
            for (const json& f : d["frames"]) BOOST_TEST(f.at("frame_type").is_string());
          } else if (name == "recovery:packet_lost") {
            BOOST_TEST(kPacketTypes.count(d.at("header").at("packet_type").get<std::string>()) == 1u);
            BOOST_TEST(d["header"].at("packet_number").is_number_unsigned());
          } else if (name == "recovery:metrics_updated") {
            BOOST_TEST(!d.empty());
            for (const auto& [field, value] : d.items()) {
              BOOST_TEST(kMetrics.count(field) == 1u, field);
              BOOST_TEST(value.is_number());
            }
          }
        }
      }
    }
}

BOOST_AUTO_TEST_CASE(recovery_state_follows_the_lost_first_flight) {
  for (const char* side : {"client", "server"}) {
    BOOST_TEST_CONTEXT(side) {
      const auto all = records(run_dir() + "/" + kJumbo + "/" + side + ".sqlog");
      std::map<std::string, std::vector<double>> seen;
      for (const json& e : events(all, "recovery:metrics_updated"))
        for (const auto& [field, value] : e["data"].items()) seen[field].push_back(value.get<double>());
      for (const char* field : {"min_rtt", "smoothed_rtt", "latest_rtt", "rtt_variance", "congestion_window",
                                "bytes_in_flight", "pto_count"})
        BOOST_TEST(seen.count(field) == 1u, field);
      // The 8940-byte first flight never arrives: a PTO fires (the count
      // rises), and is reset once an acknowledgment comes (RFC 9002 §6.2.1).
      const auto& pto = seen["pto_count"];
      BOOST_TEST(pto.front() == 0.0);
      const auto peak = std::max_element(pto.begin(), pto.end());
      BOOST_TEST(*peak >= 1.0);
      BOOST_TEST((std::find(peak, pto.end(), 0.0) != pto.end()));
      // The first congestion window: ten datagrams of the 8940-byte initial
      // MTU, capped by RFC 9002 §7.2 at max(14720, 2 * 8940) = 17880 bytes.
      BOOST_TEST(seen["congestion_window"].front() == 17880.0);
      // With an RTT of 1 ms the samples stay near it, far below the 333 ms default.
      for (double rtt : seen["min_rtt"]) BOOST_TEST((rtt >= 0.9 && rtt < 20.0), rtt);
      // The lost first flight is declared lost.
      const auto lost = events(all, "recovery:packet_lost");
      BOOST_TEST_REQUIRE(!lost.empty());
      BOOST_TEST(lost.front()["data"]["header"]["packet_type"] == "initial");
    }
  }
}

BOOST_AUTO_TEST_CASE(packets_and_frames_match_the_capture) {
  // What the endpoint logged as sent is exactly what its capture shows it
  // sending, frame by frame, as the dissector (the independent oracle) reads it.
  for (const std::string& c : {kJumbo, std::string("fanout")})
    for (const char* side : {"client", "server"}) {
      BOOST_TEST_CONTEXT(c << " " << side) {
        const std::string dir = run_dir() + "/" + c;
        auto r = run_conform({"dissect", dir + "/" + side + ".pcap", "--keylog", dir + "/keys.log", "--qlog", "-",
                              "--vantage", side});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        write_file(dir + "/" + side + ".dissected.sqlog", r.out);
        const auto dissected = records(dir + "/" + side + ".dissected.sqlog");
        const auto own = records(dir + "/" + side + ".sqlog");
        const auto sent = packets(own, "quic:packet_sent");
        BOOST_TEST(sent.size() > 3u);
        BOOST_TEST((sent == packets(dissected, "quic:packet_sent")));
        // Received: every packet the endpoint processed is in its capture
        // (the capture may hold more: packets it could not decrypt yet).
        const auto in_capture = packets(dissected, "quic:packet_received");
        for (const auto& [key, frames] : packets(own, "quic:packet_received")) {
          BOOST_TEST_REQUIRE(in_capture.count(key) == 1u, key.first << " " << key.second);
          BOOST_TEST((in_capture.at(key) == frames), key.first << " " << key.second);
        }
      }
    }
}

BOOST_AUTO_TEST_CASE(dissect_qlog_keeps_every_frame_of_a_real_capture) {
  // The round trip capture -> qlog on a real run: every frame of the
  // dissected timeline (`conform dissect --json`) is in `--qlog`, by type.
  for (const std::string& c : {kJumbo, std::string("fanout")})
    for (const char* side : {"client", "server"}) {
      BOOST_TEST_CONTEXT(c << " " << side) {
        const std::string dir = run_dir() + "/" + c;
        const std::vector<std::string> base = {"dissect", dir + "/" + side + ".pcap", "--keylog", dir + "/keys.log"};
        auto as_json = base, as_qlog = base;
        as_json.push_back("--json");
        as_qlog.insert(as_qlog.end(), {"--qlog", dir + "/" + side + ".network.sqlog"});
        auto r = run_conform(as_json);
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST_REQUIRE(run_conform(as_qlog).exit_code == 0);
        std::map<std::string, std::size_t> in_timeline, in_qlog;
        const json timeline = json::parse(r.out);
        for (const json& conn : timeline["connections"])
          for (const json& d : conn["datagrams"])
            for (const json& p : d["packets"])
              for (const json& f : p.value("frames", json::array())) {
                std::string type = f["type"];
                std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return std::tolower(ch); });
                ++in_timeline[type == "malformed" ? "unknown" : type];
              }
        for (const json& e : records(dir + "/" + side + ".network.sqlog"))
          if (e.contains("data"))
            for (const json& f : e["data"].value("frames", json::array())) ++in_qlog[f["frame_type"]];
        BOOST_TEST(in_timeline.size() > 3u);
        BOOST_TEST((in_qlog == in_timeline));
      }
    }
}

BOOST_AUTO_TEST_CASE(the_relay_logs_the_streams_it_wants) {
  const auto all = records(run_dir() + "/fanout/server.sqlog");
  const auto wanted = events(all, "conform:streams_wanted");
  BOOST_TEST_REQUIRE(!wanted.empty());
  BOOST_TEST(wanted.back()["data"]["count"] == 120);
  BOOST_TEST(wanted.back()["data"]["stream_type"] == "unidirectional");
  // Lost packets on a lossy path, and the window reacting to them.
  BOOST_TEST(!events(all, "recovery:packet_lost").empty());
  bool ssthresh = false;
  for (const json& e : events(all, "recovery:metrics_updated")) ssthresh = ssthresh || e["data"].contains("ssthresh");
  BOOST_TEST(ssthresh);
}

BOOST_AUTO_TEST_SUITE_END()
