// Flow control, RFC 9000 §4.1-§4.2: the receiver's windows slide as the
// application reads (MAX_DATA / MAX_STREAM_DATA at half a window), the
// sender stops at the limit and says DATA_BLOCKED / STREAM_DATA_BLOCKED.
#include <boost/test/unit_test.hpp>

#include "unit/quic_pair.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

// Sends `size` bytes on one server uni stream; the client reads after every
// exchange. Returns what arrived.
Bytes transfer(Pair& p, size_t size) {
  p.drive();
  auto id = p.server->open_stream(Dir::uni).value();
  BOOST_TEST(p.server->write(id, Bytes(size, 0x5a)).ok());
  BOOST_TEST(p.server->finish(id).ok());
  std::map<StreamId, Bytes> partial;
  for (int i = 0; i < 100; ++i) {
    p.drive();
    auto done = read_all(*p.client, p.client_events, partial);
    if (!done.empty()) return done[0].second;
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_flow_control_test)

BOOST_AUTO_TEST_CASE(connection_window_slides_with_reads) {
  Config c = Pair::client_config();
  c.initial_max_data = 1000;
  Pair p(c);
  BOOST_TEST(transfer(p, 4000).size() == 4000u);
  p.drive();  // the last update goes out after the last read
  // The server stopped at 1000 and said so; the client granted a window
  // (1000) past what it had read each time half of it was consumed.
  const auto blocked = p.sent_values(true, frame_type::data_blocked);
  BOOST_REQUIRE(!blocked.empty());
  BOOST_TEST(blocked.front() == 1000u);
  const std::vector<uint64_t> max_data = {2000, 3000, 4000, 5000};
  BOOST_TEST(p.sent_values(false, frame_type::max_data) == max_data, boost::test_tools::per_element());
  BOOST_TEST(p.client->local_max_data() == 5000u);
}

BOOST_AUTO_TEST_CASE(stream_window_blocks_and_reports) {
  Config c = Pair::client_config();
  c.initial_max_stream_data_uni = 500;
  Pair p(c);
  BOOST_TEST(transfer(p, 1800).size() == 1800u);
  const auto blocked = p.sent_values(true, frame_type::stream_data_blocked);
  BOOST_REQUIRE(!blocked.empty());
  BOOST_TEST(blocked.front() == 500u);
  BOOST_TEST(!p.sent_values(false, frame_type::max_stream_data).empty());
}

// zero_initial_data_limit, the script that starts its peer held at 0
// bytes: the client's transport parameters give the server no connection
// credit, so its 800 bytes wait and it says DATA_BLOCKED 0; the first
// MAX_DATA opens the window (1000) once credit_delay_ms has passed, and
// then the bytes arrive. Without the script they arrive at once.
BOOST_AUTO_TEST_CASE(zero_initial_data_limit_holds_the_peer_at_0) {
  for (const bool zero : {true, false}) {
    Config c = Pair::client_config();
    c.initial_max_data = 1000;
    c.zero_initial_data_limit = zero;
    c.credit_delay_ms = 100;
    Pair p(c);
    BOOST_TEST(transfer(p, 800).size() == (zero ? 0u : 800u), zero);
    if (!zero) {
      BOOST_TEST(p.sent_values(true, frame_type::data_blocked).empty());
      continue;
    }
    BOOST_TEST(p.sent_values(true, frame_type::data_blocked) == (std::vector<uint64_t>{0}),
               boost::test_tools::per_element());
    BOOST_TEST(p.sent_values(false, frame_type::max_data).empty());
    p.advance(conform::quic::Duration::millis(200));
    p.drive();
    std::map<StreamId, Bytes> partial;
    const auto done = read_all(*p.client, p.client_events, partial);
    BOOST_TEST_REQUIRE(done.size() == 1u);
    BOOST_TEST(done[0].second.size() == 800u);
    BOOST_TEST(p.sent_values(false, frame_type::max_data).front() == 1000u);
  }
}

BOOST_AUTO_TEST_CASE(emit_data_blocked_false_stays_silent) {
  Config c = Pair::client_config();
  c.initial_max_data = 1000;
  Config s = Pair::server_config();
  s.emit_data_blocked = false;
  Pair p(c, s);
  BOOST_TEST(transfer(p, 3000).size() == 3000u);
  BOOST_TEST(p.sent_values(true, frame_type::data_blocked).empty());
  BOOST_TEST(p.sent_values(true, frame_type::stream_data_blocked).empty());
}

BOOST_AUTO_TEST_CASE(windows_account_exactly) {
  RecvWindow w(1000);
  BOOST_TEST(w.on_received(1000));
  BOOST_TEST(!w.on_received(1001));  // past the limit: FLOW_CONTROL_ERROR
  RecvWindow r(1000);
  BOOST_TEST(r.on_received(600));
  r.on_consumed(499);
  BOOST_TEST(!r.update_due());  // 1499 - 1000 < 500
  r.on_consumed(1);
  BOOST_REQUIRE(r.update_due());
  BOOST_TEST(*r.update_due() == 1500u);
  r.on_update_sent(1500);
  BOOST_TEST(r.max() == 1500u);
  SendCredit s(100);
  s.consume(100);
  BOOST_TEST(s.blocked_report_due(true));
  s.on_blocked_reported();
  BOOST_TEST(!s.blocked_report_due(true));  // once per limit
  BOOST_TEST(!s.raise(50));                 // smaller MAX_DATA is ignored
  BOOST_TEST(s.raise(200));
  BOOST_TEST(s.available() == 100u);
}

BOOST_AUTO_TEST_SUITE_END()
