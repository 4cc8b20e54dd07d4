// conform-quic's HTTP/3 server as a scripted peer (--reserved-uni): it opens
// its reserved-type unidirectional streams (RFC 9114 §6.2.3) as the client's
// MAX_STREAMS_UNI allows, says STREAMS_BLOCKED at each limit, and answers a
// request only once the last is open.
#include <boost/test/unit_test.hpp>

#include "h3/h3_connection.hpp"
#include "tool/h3_apps.hpp"
#include "unit/quic_pair.hpp"

using namespace conform::quic;
using conform::quic::test::Pair;

namespace {

Config h3_config(Config c) {
  c.alpn = {"h3"};
  return c;
}

// An HTTP/3 client whose uni limit is 10 against a server that opens 30
// reserved streams; the client raises the limit as they end unless
// `raises` is false.
struct ReservedPair {
  explicit ReservedPair(bool raises) : pair(client_config(raises), h3_config(Pair::server_config())) {}

  static Config client_config(bool raises) {
    Config c = h3_config(Pair::client_config());
    c.initial_max_streams_uni = 10;
    c.emit_max_streams = raises;
    return c;
  }

  void run() { pair.drive_with(client, server); }

  Pair pair;
  h3::H3Connection client{*pair.client, false};
  tool::ServerApp server{*pair.server, "/nonexistent-htdocs", 30};
};

}  // namespace

BOOST_AUTO_TEST_SUITE(h3_server_app_test)

BOOST_AUTO_TEST_CASE(reserved_streams_go_out_as_the_client_raises_its_limit) {
  ReservedPair p(true);
  p.client.get("localhost", "/a");
  p.run();
  const auto done = p.client.take_finished();
  BOOST_REQUIRE_EQUAL(done.size(), 1u);
  BOOST_TEST(done[0].response.status == 404);  // answered, from an empty document root
  // The control stream and 30 reserved ones: 31 server uni streams, first
  // held at the client's 10.
  const auto blocked = p.pair.sent_values(true, frame_type::streams_blocked_uni);
  BOOST_REQUIRE(!blocked.empty());
  BOOST_TEST(blocked.front() == 10u);
  const auto raised = p.pair.sent_values(false, frame_type::max_streams_uni);
  BOOST_REQUIRE(!raised.empty());
  BOOST_TEST(raised.back() >= 31u);
  BOOST_TEST(!p.pair.client->close_reason().has_value());
}

BOOST_AUTO_TEST_CASE(a_client_that_never_raises_its_limit_is_never_answered) {
  ReservedPair p(false);
  p.client.get("localhost", "/a");
  p.run();
  BOOST_TEST(p.client.take_finished().empty());
  BOOST_TEST(p.client.outstanding() == 1u);
  BOOST_TEST(p.pair.sent_values(false, frame_type::max_streams_uni).empty());
  const auto blocked = p.pair.sent_values(true, frame_type::streams_blocked_uni);
  BOOST_REQUIRE(!blocked.empty());
  BOOST_TEST(blocked.back() == 10u);
}

BOOST_AUTO_TEST_SUITE_END()
