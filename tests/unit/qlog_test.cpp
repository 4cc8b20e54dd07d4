// qlog out of the reference captures: the JSON-SEQ framing, the header's
// required fields (draft-ietf-quic-qlog-main-schema-07), event names and
// fields (quic-events draft), values checked against `conform dissect`'s
// reading of the same frames, and a round trip that keeps every frame.
#include "capture/pcap_reader.hpp"
#include "dissect/dissector.hpp"
#include "report/qlog.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace {

using nlohmann::json;
namespace dissect = conform::dissect;

const std::string kCaptures = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";

dissect::Timeline timeline_of(const std::string& name) {
  const auto keys = dissect::read_key_log(kCaptures + name + ".keys");
  const auto capture = conform::read_capture(kCaptures + name + ".pcap");
  return dissect::dissect(capture.datagrams, keys);
}

// The records of a JSON-SEQ text: each must start with RS and end with LF.
std::vector<json> records(const std::string& text) {
  std::vector<json> out;
  BOOST_TEST_REQUIRE(!text.empty());
  BOOST_TEST_REQUIRE(text.front() == '\x1e');
  std::size_t at = 0;
  while (at < text.size()) {
    BOOST_TEST_REQUIRE(text[at] == '\x1e');
    const std::size_t end = text.find('\x1e', at + 1);
    const std::string record = text.substr(at + 1, (end == std::string::npos ? text.size() : end) - at - 1);
    BOOST_TEST_REQUIRE(record.back() == '\n');
    out.push_back(json::parse(record));
    at = end == std::string::npos ? text.size() : end;
  }
  return out;
}

std::vector<json> qlog_of(const dissect::Timeline& t, conform::QlogVantage vantage = conform::QlogVantage::network) {
  std::ostringstream out;
  conform::write_qlog(out, t, {vantage, "test"});
  return records(out.str());
}

// "MAX_STREAMS" -> "max_streams", the draft's frame_type for RFC 9000's frame name.
std::string draft_name(std::string_view rfc_name) {
  if (rfc_name == "MALFORMED") return "unknown";
  std::string s(rfc_name);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

const std::set<std::string> kEventNames = {"quic:parameters_set", "quic:packet_sent", "quic:packet_received",
                                           "quic:packet_dropped", "quic:datagram_dropped"};
const std::set<std::string> kPacketTypes = {"initial", "handshake", "0RTT", "1RTT", "retry",
                                            "version_negotiation", "stateless_reset", "unknown"};

}  // namespace

BOOST_AUTO_TEST_SUITE(qlog_test)

BOOST_AUTO_TEST_CASE(header_has_the_required_fields) {
  const auto t = timeline_of("stream-limit");
  const auto r = qlog_of(t);
  const json& h = r.front();
  BOOST_TEST(h["qlog_format"] == "JSON-SEQ");
  BOOST_TEST(h["qlog_version"] == "0.4");
  BOOST_TEST(h["title"] == "test");
  BOOST_TEST(h["trace"]["vantage_point"]["type"] == "network");
  BOOST_TEST(h["trace"]["vantage_point"]["flow"] == "client");
  const json& common = h["trace"]["common_fields"];
  BOOST_TEST(common["time_format"] == "relative");
  BOOST_TEST(common["protocol_type"] == json::array({"QUIC"}));
  BOOST_TEST(common["group_id"] == "545efb3d22bf46e0c305e98fe67827de955b");
  // The first datagram's capture time, in ms since the Unix epoch.
  BOOST_TEST(common["reference_time"].get<double>() == t.connections[0].datagrams[0].time_ns / 1e6);
}

BOOST_AUTO_TEST_CASE(every_event_is_named_and_shaped_as_the_draft_says) {
  for (const char* name : {"handshake", "retry", "stream-limit", "loss", "key-update", "migration", "gso"}) {
    BOOST_TEST_CONTEXT(name) {
      const auto r = qlog_of(timeline_of(name));
      BOOST_TEST(r.size() > 2u);
      double last = -1;
      for (std::size_t i = 1; i < r.size(); ++i) {
        const json& e = r[i];
        BOOST_TEST_REQUIRE(kEventNames.count(e.at("name").get<std::string>()) == 1u, e.dump());
        BOOST_TEST(e.at("time").get<double>() >= 0.0);
        BOOST_TEST(e.at("data").is_object());
        if (e["name"] == "quic:parameters_set") continue;
        // One connection per capture: events come in capture order.
        BOOST_TEST(e["time"].get<double>() >= last);
        last = e["time"].get<double>();
        const json& d = e["data"];
        BOOST_TEST(kPacketTypes.count(d.at("header").at("packet_type").get<std::string>()) == 1u);
        BOOST_TEST(d.at("raw").at("length").get<std::size_t>() > 0u);
        if (e["name"] == "quic:packet_dropped") {
          BOOST_TEST(d.contains("trigger"));
          continue;
        }
        const std::string type = d["header"]["packet_type"];
        if (type != "retry" && type != "version_negotiation" && type != "stateless_reset")
          BOOST_TEST(d["header"].contains("packet_number"), e.dump());
        for (const auto& f : d.value("frames", json::array())) BOOST_TEST(f.at("frame_type").is_string());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(round_trip_keeps_every_frame_and_packet) {
  for (const char* name : {"handshake", "retry", "stream-limit", "loss", "key-update", "large", "migration", "gso"}) {
    BOOST_TEST_CONTEXT(name) {
      const auto t = timeline_of(name);
      std::map<std::string, std::size_t> in_timeline, in_qlog;
      std::size_t packets = 0, undecryptable = 0, stream_bytes = 0;
      for (const auto& c : t.connections)
        for (const auto& d : c.datagrams)
          for (const auto& p : d.packets) {
            (p.undecryptable && *p.undecryptable != dissect::Undecryptable::stateless_reset ? undecryptable : packets)++;
            for (const auto& f : p.frames) {
              ++in_timeline[draft_name(dissect::frame_name(f))];
              if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) stream_bytes += s->length;
            }
          }
      std::size_t sent_or_received = 0, dropped = 0, qlog_stream_bytes = 0;
      for (const auto& e : qlog_of(t)) {
        if (!e.contains("name") || e["name"] == "quic:parameters_set") continue;
        (e["name"] == "quic:packet_dropped" ? dropped : sent_or_received)++;
        for (const auto& f : e["data"].value("frames", json::array())) {
          ++in_qlog[f["frame_type"].get<std::string>()];
          if (f["frame_type"] == "stream") qlog_stream_bytes += f["length"].get<std::size_t>();
        }
      }
      BOOST_TEST(in_qlog == in_timeline);
      BOOST_TEST(sent_or_received == packets);
      BOOST_TEST(dropped == undecryptable);
      BOOST_TEST(qlog_stream_bytes == stream_bytes);
      BOOST_TEST(!in_qlog.empty());
    }
  }
}

BOOST_AUTO_TEST_CASE(values_follow_the_capture) {
  const auto r = qlog_of(timeline_of("stream-limit"));
  std::vector<json> packets;
  for (const auto& e : r)
    if (e.contains("name") && e["name"] != "quic:parameters_set") packets.push_back(e);
  // Frame #1: the client's first Initial, pn 0: CRYPTO off=0 len=371, PADDING×761.
  const json& first = packets.front();
  BOOST_TEST(first["name"] == "quic:packet_sent");
  BOOST_TEST(first["time"].get<double>() == 0.0);
  BOOST_TEST(first["data"]["header"]["packet_type"] == "initial");
  BOOST_TEST(first["data"]["header"]["packet_number"] == 0);
  BOOST_TEST(first["data"]["header"]["version"] == "00000001");
  BOOST_TEST(first["data"]["raw"]["length"] == 1200);
  BOOST_TEST(first["data"]["frames"][0] == (json{{"frame_type", "crypto"}, {"offset", 0}, {"length", 371}}));
  BOOST_TEST(first["data"]["frames"][1]["frame_type"] == "padding");
  BOOST_TEST(first["data"]["frames"][1]["raw"]["length"] == 761);

  // Frame #14 (5.299 ms after... the server's): ACK 3-4 delay=2, MAX_STREAMS bidi=8, as received by the client.
  const auto max_streams = std::find_if(packets.begin(), packets.end(), [](const json& e) {
    for (const auto& f : e["data"].value("frames", json::array()))
      if (f["frame_type"] == "max_streams") return true;
    return false;
  });
  BOOST_TEST_REQUIRE((max_streams != packets.end()));
  const json& m = *max_streams;
  BOOST_TEST(m["name"] == "quic:packet_received");
  BOOST_TEST(m["data"]["header"]["packet_type"] == "1RTT");
  BOOST_TEST(m["data"]["header"]["packet_number"] == 6);
  BOOST_TEST(m["time"].get<double>() == 29.046, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m["data"]["frames"][0]["acked_ranges"] == json::parse("[[3, 4]]"));
  // ACK Delay 2 × 2^3 µs (the server sends no ack_delay_exponent: 3).
  BOOST_TEST(m["data"]["frames"][0]["ack_delay"].get<double>() == 0.016, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m["data"]["frames"][1] ==
             (json{{"frame_type", "max_streams"}, {"stream_type", "bidirectional"}, {"maximum", 8}}));
}

BOOST_AUTO_TEST_CASE(the_vantage_decides_sent_and_received) {
  const auto t = timeline_of("handshake");
  const auto as_server = qlog_of(t, conform::QlogVantage::server);
  BOOST_TEST(as_server.front()["trace"]["vantage_point"] == (json{{"type", "server"}}));
  const auto first_packet = std::find_if(as_server.begin() + 1, as_server.end(),
                                         [](const json& e) { return e["name"] != "quic:parameters_set"; });
  // The client's first Initial, seen by the server.
  BOOST_TEST((*first_packet)["name"] == "quic:packet_received");
  const auto params = std::find_if(as_server.begin() + 1, as_server.end(),
                                   [](const json& e) { return e["name"] == "quic:parameters_set"; });
  BOOST_TEST_REQUIRE((params != as_server.end()));
  // The client's parameters come first; to a server they are the peer's.
  BOOST_TEST((*params)["data"]["owner"] == "remote");
  BOOST_TEST((*params)["data"]["max_idle_timeout"] == 30000);
}

BOOST_AUTO_TEST_CASE(undecryptable_packets_are_dropped_events) {
  // Without a key log only Initial packets decrypt: the rest are dropped for want of keys.
  const auto capture = conform::read_capture(kCaptures + "handshake.pcap");
  const auto t = dissect::dissect(capture.datagrams, dissect::KeyLog{});
  std::size_t dropped = 0;
  for (const auto& e : qlog_of(t))
    if (e.contains("name") && e["name"] == "quic:packet_dropped") {
      ++dropped;
      BOOST_TEST(e["data"]["trigger"] == "key_unavailable");
    }
  BOOST_TEST(dropped > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
