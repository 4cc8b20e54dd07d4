// HTTP/3 over two in-memory connections (RFC 9114): SETTINGS on the control
// streams, GET requests answered with HEADERS and DATA, requests queued at
// the peer's stream limit and sent when MAX_STREAMS arrives, and HTTP/3
// connection errors for a peer that breaks the control-stream rules.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "dissect/dissector.hpp"
#include "dissect/stream_view.hpp"
#include "h3/h3_connection.hpp"
#include "unit/quic_pair.hpp"

#include <map>

using namespace conform::quic;
using namespace conform::quic::h3;
using conform::quic::test::Pair;

namespace {

Config h3_config(Config c) {
  c.alpn = {"h3"};
  return c;
}

struct H3Pair {
  explicit H3Pair(Config client = h3_config(Pair::client_config()),
                  Config server = h3_config(Pair::server_config()))
      : pair(client, server),
        client(*pair.client, false),
        server(*pair.server, true, [this](const std::vector<Field>& req) {
          Response r;
          for (const Field& f : req)
            if (f.name == ":path") r.body.assign(f.value.begin(), f.value.end());
          r.status = 200;
          return r;
        }) {}

  void run() { pair.drive_with(client, server); }

  Pair pair;
  H3Connection client, server;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(h3_connection_test)

BOOST_AUTO_TEST_CASE(get_requests_are_answered) {
  H3Pair p;
  p.client.get("localhost", "/a");
  p.client.get("localhost", "/bb");
  p.run();
  auto done = p.client.take_finished();
  BOOST_REQUIRE_EQUAL(done.size(), 2u);
  // Streams are served round-robin: completion order is not request order.
  std::sort(done.begin(), done.end(), [](const Exchange& a, const Exchange& b) { return a.path < b.path; });
  BOOST_TEST(done[0].path == "/a");
  BOOST_TEST(done[0].response.status == 200);
  BOOST_TEST(std::string(done[0].response.body.begin(), done[0].response.body.end()) == "/a");
  BOOST_TEST(std::string(done[1].response.body.begin(), done[1].response.body.end()) == "/bb");
  BOOST_TEST(p.server.requests_served() == 2u);
  BOOST_TEST(p.client.outstanding() == 0u);
  BOOST_TEST(p.pair.client->handshake_confirmed());
  BOOST_TEST(!p.pair.client->close_reason().has_value());
}

BOOST_AUTO_TEST_CASE(requests_beyond_the_stream_limit_wait_for_max_streams) {
  Config server = h3_config(Pair::server_config());
  server.initial_max_streams_bidi = 2;
  H3Pair p(h3_config(Pair::client_config()), server);
  for (int i = 0; i < 9; ++i) p.client.get("localhost", "/" + std::to_string(i));
  p.run();
  BOOST_TEST(p.client.take_finished().size() == 9u);
  BOOST_TEST(p.server.requests_served() == 9u);
}

BOOST_AUTO_TEST_CASE(without_max_streams_requests_stay_queued) {
  Config server = h3_config(Pair::server_config());
  server.initial_max_streams_bidi = 2;
  server.emit_max_streams = false;  // the investigation's bug
  H3Pair p(h3_config(Pair::client_config()), server);
  for (int i = 0; i < 5; ++i) p.client.get("localhost", "/" + std::to_string(i));
  p.run();
  BOOST_TEST(p.client.take_finished().size() == 2u);
  BOOST_TEST(p.client.outstanding() == 3u);
}

BOOST_AUTO_TEST_CASE(a_control_stream_without_settings_closes_with_missing_settings) {
  H3Pair p;
  p.run();
  // A second "control" stream from the client starting with a GOAWAY frame
  // instead of SETTINGS: H3_STREAM_CREATION_ERROR (a second control stream).
  auto id = p.pair.client->open_stream(Dir::uni);
  BOOST_REQUIRE(id.ok());
  BOOST_TEST(p.pair.client->write(id.value(), Bytes{0x00, 0x07, 0x01, 0x00}).ok());
  p.run();
  BOOST_REQUIRE(p.pair.server->close_reason().has_value());
  BOOST_TEST(p.pair.server->close_reason()->error.code == error::stream_creation_error);
}

BOOST_AUTO_TEST_CASE(unknown_unidirectional_streams_are_ignored) {
  H3Pair p;
  p.run();
  auto id = p.pair.client->open_stream(Dir::uni);
  BOOST_REQUIRE(id.ok());
  BOOST_TEST(p.pair.client->write(id.value(), Bytes{0x21, 1, 2, 3}).ok());  // reserved type 0x21
  auto enc = p.pair.client->open_stream(Dir::uni);
  BOOST_TEST(p.pair.client->write(enc.value(), Bytes{stream_type::qpack_encoder, 0x20}).ok());
  p.client.get("localhost", "/x");
  p.run();
  BOOST_TEST(p.client.take_finished().size() == 1u);
  BOOST_TEST(!p.pair.server->close_reason().has_value());
}

// What the in-house HTTP/3 opens is judged by the rule that judges other
// stacks: the dissector reads the two endpoints' datagrams with their key
// log, sees the ALPN h3, and names each side's control stream (its first
// byte 0x00, RFC 9114 §6.2.1), which streams_delivered leaves out as a
// stream that never ends; the request stream is no such stream.
BOOST_AUTO_TEST_CASE(the_dissector_names_the_streams_the_in_house_http3_opens) {
  H3Pair p;
  p.client.get("localhost", "/a");
  p.run();
  std::vector<conform::CapturedDatagram> captured;
  const conform::NetEndpoint client{0x7f000001, 50000}, server{0x7f000002, 4433};
  for (const auto& [from_client, bytes] : p.pair.wire) {
    conform::CapturedDatagram d;
    d.frame = captured.size() + 1;
    d.time_ns = std::int64_t(captured.size()) * 1000;
    d.from = from_client ? client : server;
    d.to = from_client ? server : client;
    d.payload = bytes;
    captured.push_back(std::move(d));
  }
  std::string keylog;
  for (const auto& line : p.pair.keylog) keylog += line + "\n";
  const auto timeline = conform::dissect::dissect(captured, conform::dissect::parse_key_log(keylog, "keys"));
  BOOST_REQUIRE_EQUAL(timeline.connections.size(), 1u);
  BOOST_TEST(timeline.connections[0].alpn == "h3");
  std::map<std::uint64_t, conform::dissect::H3StreamType> types;
  for (const auto& v : conform::dissect::stream_views(timeline.connections[0])) types[v.id] = v.h3;
  BOOST_TEST((types.at(0) == conform::dissect::H3StreamType::none));     // the GET
  BOOST_TEST((types.at(2) == conform::dissect::H3StreamType::control));  // the client's first uni stream
  BOOST_TEST((types.at(3) == conform::dissect::H3StreamType::control));  // the server's
  BOOST_TEST(conform::dissect::never_ends(types.at(3)));
}

BOOST_AUTO_TEST_SUITE_END()
