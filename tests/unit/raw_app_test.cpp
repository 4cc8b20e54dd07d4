// conform-quic's raw-QUIC stream workload (tool/raw_app.hpp), the in-house
// QUIC's side of the pairs with quiche and quinn: each side opens its
// streams once the handshake is confirmed, a bidirectional stream comes
// back with as many bytes as it carried, and the client closes with
// application error 0 only once its answers and the server's streams are in.
#include <boost/test/unit_test.hpp>

#include "tool/raw_app.hpp"
#include "unit/quic_pair.hpp"

using namespace conform::quic;
using conform::quic::test::Pair;

namespace {

Config raw_config(Config c) {
  c.alpn = {"quic"};
  return c;
}

struct RawPair {
  RawPair(tool::RawWork client_work, tool::RawWork server_work)
      : pair(raw_config(Pair::client_config()), raw_config(Pair::server_config())),
        client(*pair.client, client_work, true),
        server(*pair.server, server_work, false) {}

  void run() { pair.drive_with(client, server, 500); }

  Pair pair;
  tool::RawApp client;
  tool::RawApp server;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(raw_app_test)

BOOST_AUTO_TEST_CASE(both_sides_work_is_done_before_the_client_closes_with_0) {
  RawPair p({.open_uni = 2, .open_bidi = 3, .bytes = 5000, .expect_uni = 4, .expect_bidi = 0},
            {.open_uni = 4, .open_bidi = 0, .bytes = 700, .expect_uni = 0, .expect_bidi = 0});
  p.run();
  BOOST_TEST(p.client.done());
  const auto& why = p.pair.server->close_reason();
  BOOST_REQUIRE(why.has_value());
  BOOST_TEST(why->by_peer);
  BOOST_TEST(why->application);
  BOOST_TEST(why->error.code == 0u);
  // What went each way: the client's 2 * 5000 + 3 * 5000 bytes and the
  // server's 3 * 5000 answers plus 4 * 700.
  BOOST_TEST(p.server.bytes_received() == 25000u);
  BOOST_TEST(p.client.bytes_received() == 15000u + 2800u);
}

BOOST_AUTO_TEST_CASE(a_client_short_of_the_servers_streams_does_not_close) {
  RawPair p({.open_uni = 0, .open_bidi = 1, .bytes = 100, .expect_uni = 3, .expect_bidi = 0},
            {.open_uni = 2, .open_bidi = 0, .bytes = 100, .expect_uni = 0, .expect_bidi = 0});
  p.run();
  BOOST_TEST(!p.client.done());
  BOOST_TEST(!p.pair.client->close_reason().has_value());
}

// A helper's finds: a client with only unidirectional streams closed before
// they went out; the answers to the server's bidirectional streams were
// queued, then lost to the close; a stream's late readable event counted it
// twice, so a client short of the streams it expects closed as done.
BOOST_AUTO_TEST_CASE(the_client_closes_only_once_what_it_sent_was_acknowledged) {
  RawPair p({.open_uni = 2, .open_bidi = 0, .bytes = 5000, .expect_uni = 0, .expect_bidi = 0}, {});
  p.run();
  BOOST_TEST(p.client.done());
  BOOST_TEST(p.server.bytes_received() == 10000u);
}

BOOST_AUTO_TEST_CASE(the_servers_bidirectional_streams_are_answered_before_the_close) {
  RawPair p({.open_uni = 0, .open_bidi = 0, .bytes = 100, .expect_uni = 0, .expect_bidi = 2},
            {.open_uni = 0, .open_bidi = 2, .bytes = 30000, .expect_uni = 0, .expect_bidi = 0});
  p.run();
  BOOST_TEST(p.client.done());
  BOOST_TEST(p.client.bytes_received() == 60000u);
  BOOST_TEST(p.server.bytes_received() == 60000u);
}

BOOST_AUTO_TEST_CASE(one_stream_of_the_server_does_not_count_as_two) {
  RawPair p({.open_uni = 0, .open_bidi = 0, .bytes = 100, .expect_uni = 0, .expect_bidi = 2},
            {.open_uni = 0, .open_bidi = 1, .bytes = 30000, .expect_uni = 0, .expect_bidi = 0});
  p.run();
  BOOST_TEST(!p.client.done());
}

BOOST_AUTO_TEST_SUITE_END()
