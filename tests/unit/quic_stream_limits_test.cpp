// Stream limits, RFC 9000 §4.6: the receiver raises MAX_STREAMS by its
// policy (exact values for a given sequence of opens), the opener waits
// when blocked and says so with STREAMS_BLOCKED, and a peer that opens past
// the limit gets STREAM_LIMIT_ERROR. The fanout mirrors the investigation in
// shared/background/quic-stream-cliff-investigation.md.
#include <boost/test/unit_test.hpp>

#include "unit/quic_pair.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

struct Fanout {
  size_t delivered = 0;
  size_t opened = 0;
  bool blocked = false;
};

// The server opens `frames` uni streams of 80 bytes one at a time; the
// client reads each as it arrives. An open refused as blocked is retried
// after the next exchange; if the exchange brings no credit the fanout ends.
Fanout uni_fanout(Pair& p, size_t frames) {
  Fanout f;
  std::map<StreamId, Bytes> partial;
  const Bytes payload(80, 0xab);
  for (size_t i = 0; i < frames; ++i) {
    auto id = p.server->open_stream(Dir::uni);
    if (!id.ok()) {
      BOOST_TEST((id.error() == StreamError::blocked));
      f.blocked = true;
      p.drive();
      f.delivered += read_all(*p.client, p.client_events, partial).size();
      p.drive();
      id = p.server->open_stream(Dir::uni);
      if (!id.ok()) break;
    }
    ++f.opened;
    BOOST_TEST(p.server->write(id.value(), payload).ok());
    BOOST_TEST(p.server->finish(id.value()).ok());
    p.drive();
    f.delivered += read_all(*p.client, p.client_events, partial).size();
  }
  p.drive();
  f.delivered += read_all(*p.client, p.client_events, partial).size();
  return f;
}

Config fanout_client(Config client) {
  client.initial_max_streams_uni = 100;
  return client;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_stream_limits_test)

BOOST_AUTO_TEST_CASE(client_raises_max_streams_and_all_200_arrive) {
  Pair p(fanout_client(Pair::client_config()));
  p.drive();
  const Fanout f = uni_fanout(p, 200);
  BOOST_TEST(f.delivered == 200u);
  BOOST_TEST(!f.blocked);
  // half_window: closed + 100 once 50 streams of credit accumulated.
  const std::vector<uint64_t> expected = {150, 200, 250, 300};
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni) == expected,
             boost::test_tools::per_element());
  BOOST_TEST(p.sent_values(true, frame_type::streams_blocked_uni).empty());
  BOOST_TEST(p.server->streams_we_may_open(Dir::uni) == 300u);
}

BOOST_AUTO_TEST_CASE(without_max_streams_only_100_arrive_and_the_server_says_blocked) {
  Config c = Pair::client_config();
  c.emit_max_streams = false;  // the investigation's bug
  Pair p(fanout_client(c));
  p.drive();
  const Fanout f = uni_fanout(p, 200);
  BOOST_TEST(f.delivered == 100u);
  BOOST_TEST(f.opened == 100u);
  BOOST_TEST(f.blocked);
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni).empty());
  const std::vector<uint64_t> blocked = {100};
  BOOST_TEST(p.sent_values(true, frame_type::streams_blocked_uni) == blocked,
             boost::test_tools::per_element());
  BOOST_TEST(!p.server->is_closed());  // blocked is not an error
}

BOOST_AUTO_TEST_CASE(emit_streams_blocked_false_stays_silent) {
  Config c = Pair::client_config();
  c.emit_max_streams = false;
  Config s = Pair::server_config();
  s.emit_streams_blocked = false;
  c.initial_max_streams_uni = 100;
  Pair p(c, s);
  p.drive();
  const Fanout f = uni_fanout(p, 120);
  BOOST_TEST(f.delivered == 100u);
  BOOST_TEST(p.sent_values(true, frame_type::streams_blocked_uni).empty());
}

BOOST_AUTO_TEST_CASE(open_when_blocked_fail_returns_limit_reached) {
  Config c = Pair::client_config();
  c.initial_max_streams_bidi = 1;
  Config s = Pair::server_config();
  s.open_stream_when_blocked = OpenWhenBlocked::fail;
  Pair p(c, s);
  p.drive();
  BOOST_TEST(p.server->open_stream(Dir::bidi).ok());
  auto second = p.server->open_stream(Dir::bidi);
  BOOST_TEST((!second.ok() && second.error() == StreamError::limit_reached));
}

BOOST_AUTO_TEST_CASE(max_streams_wakes_a_blocked_opener) {
  Config c = Pair::client_config();
  c.initial_max_streams_uni = 2;
  c.max_streams_policy = MaxStreamsPolicy::every_stream;
  Pair p(c);
  p.drive();
  std::map<StreamId, Bytes> partial;
  for (int i = 0; i < 2; ++i) {
    auto id = p.server->open_stream(Dir::uni).value();
    BOOST_TEST(p.server->finish(id).ok());
  }
  auto third = p.server->open_stream(Dir::uni);
  BOOST_TEST((third.error() == StreamError::blocked));
  p.drive();
  BOOST_TEST(read_all(*p.client, p.client_events, partial).size() == 2u);
  p.drive();
  bool woken = false;
  for (const Event& e : p.server_events)
    if (auto* a = std::get_if<StreamsAvailable>(&e)) woken = a->dir == Dir::uni;
  BOOST_TEST(woken);
  BOOST_TEST(p.server->open_stream(Dir::uni).ok());
  // Both streams closed in the same read, so one update: closed (2) + 2.
  const std::vector<uint64_t> values = {4};
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni) == values,
             boost::test_tools::per_element());
}

// credit_delay_ms, the script that holds a peer at its limit: the raise that
// falls due when the client has read both streams leaves 100 ms later, not
// at once, and the next one waits 100 ms of its own.
BOOST_AUTO_TEST_CASE(credit_delay_holds_each_raise_for_its_delay) {
  Config c = Pair::client_config();
  c.initial_max_streams_uni = 2;
  c.max_streams_policy = MaxStreamsPolicy::every_stream;
  c.credit_delay_ms = 100;
  Pair p(c);
  p.drive();
  std::map<StreamId, Bytes> partial;
  auto two_streams = [&] {
    for (int i = 0; i < 2; ++i) BOOST_TEST(p.server->finish(p.server->open_stream(Dir::uni).value()).ok());
    BOOST_TEST((p.server->open_stream(Dir::uni).error() == StreamError::blocked));
    p.drive();
    BOOST_TEST(read_all(*p.client, p.client_events, partial).size() == 2u);
    p.drive();
  };
  two_streams();
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni).empty());
  p.advance(Duration::millis(95));
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni).empty());
  p.advance(Duration::millis(10));
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni) == (std::vector<uint64_t>{4}),
             boost::test_tools::per_element());
  BOOST_TEST(p.sent_values(true, frame_type::streams_blocked_uni) == (std::vector<uint64_t>{2}),
             boost::test_tools::per_element());

  two_streams();
  p.advance(Duration::millis(95));
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni).size() == 1u);
  p.advance(Duration::millis(10));
  BOOST_TEST(p.sent_values(false, frame_type::max_streams_uni) == (std::vector<uint64_t>{4, 6}),
             boost::test_tools::per_element());
}

// zero_initial_stream_limits, the script that starts its peer held at 0:
// the transport parameters allow no stream, so the client's first open of
// either direction is refused and it says STREAMS_BLOCKED 0; the first
// MAX_STREAMS opens the knobs' windows (2 bidi, 3 uni) once credit_delay_ms
// (100) has passed since the server's handshake completed (at 1.5 round
// trips of 10 ms: 15 ms), not before; then the client opens.
BOOST_AUTO_TEST_CASE(zero_initial_stream_limits_hold_the_peer_at_0_until_the_delay) {
  Config s = Pair::server_config();
  s.initial_max_streams_bidi = 2;
  s.initial_max_streams_uni = 3;
  s.zero_initial_stream_limits = ZeroLimits::both;
  s.credit_delay_ms = 100;
  Pair p(Pair::client_config(), s);
  const Instant start = p.now;
  p.drive();
  for (Dir d : {Dir::bidi, Dir::uni}) BOOST_TEST((p.client->open_stream(d).error() == StreamError::blocked));
  p.drive();
  BOOST_TEST(p.sent_values(false, frame_type::streams_blocked_bidi) == (std::vector<uint64_t>{0}),
             boost::test_tools::per_element());
  BOOST_TEST(p.sent_values(false, frame_type::streams_blocked_uni) == (std::vector<uint64_t>{0}),
             boost::test_tools::per_element());
  while (p.sent_values(true, frame_type::max_streams_bidi).empty() && p.now - start < Duration::millis(500))
    p.advance(Duration::millis(1));
  const int64_t raised_ms = (p.now - start).as_millis();
  BOOST_TEST(raised_ms >= 115);
  BOOST_TEST(raised_ms <= 120);
  BOOST_TEST(p.sent_values(true, frame_type::max_streams_bidi) == (std::vector<uint64_t>{2}),
             boost::test_tools::per_element());
  BOOST_TEST(p.sent_values(true, frame_type::max_streams_uni) == (std::vector<uint64_t>{3}),
             boost::test_tools::per_element());
  p.drive();
  BOOST_TEST(p.client->open_stream(Dir::bidi).ok());
  BOOST_TEST(p.client->open_stream(Dir::uni).ok());
}

// With `bidi` alone (what an HTTP/3 peer can take: RFC 9114 §6.2 wants 3
// unidirectional streams allowed from the start), the client's uni streams
// open at once and only its bidi ones wait.
BOOST_AUTO_TEST_CASE(zero_initial_stream_limits_of_bidi_leave_uni_alone) {
  Config s = Pair::server_config();
  s.initial_max_streams_bidi = 2;
  s.initial_max_streams_uni = 3;
  s.zero_initial_stream_limits = ZeroLimits::bidi;
  s.credit_delay_ms = 100;
  Pair p(Pair::client_config(), s);
  p.drive();
  BOOST_TEST((p.client->open_stream(Dir::bidi).error() == StreamError::blocked));
  for (int i = 0; i < 3; ++i) BOOST_TEST(p.client->open_stream(Dir::uni).ok());
  p.advance(Duration::millis(200));
  BOOST_TEST(p.sent_values(true, frame_type::max_streams_bidi) == (std::vector<uint64_t>{2}),
             boost::test_tools::per_element());
  BOOST_TEST(p.client->open_stream(Dir::bidi).ok());
}

// reject_peer_streams, the script that refuses every stream the peer
// opens (openssl#32557's server): each of the client's two requests gets
// STOP_SENDING and RESET_STREAM with code 0x10b, the server's application
// never hears of them, and once both ended (the client answered with
// RESET_STREAM and read the reset) their credit comes back: 2 closed + 2.
// With credit_rejected_streams = false, the fault, it never does.
BOOST_AUTO_TEST_CASE(rejected_streams_end_and_return_their_credit) {
  for (const bool credited : {true, false}) {
    Config s = Pair::server_config();
    s.initial_max_streams_bidi = 2;
    s.max_streams_policy = MaxStreamsPolicy::every_stream;
    s.reject_peer_streams = true;
    s.credit_rejected_streams = credited;
    Pair p(Pair::client_config(), s);
    p.drive();
    for (int i = 0; i < 2; ++i) {
      const StreamId id = p.client->open_stream(Dir::bidi).value();
      BOOST_TEST(p.client->write(id, Bytes(100, 'q')).ok());
      BOOST_TEST(p.client->finish(id).ok());
    }
    p.drive();
    std::vector<StreamId> reset;
    for (const Event& e : p.client_events)
      if (const auto* r = std::get_if<StreamReset>(&e)) {
        BOOST_TEST(r->error_code == kStreamRejected);
        reset.push_back(r->id);
        uint8_t buf[16];
        BOOST_TEST(!p.client->read(r->id, buf).ok());  // reads the reset: the client forgets it
      }
    BOOST_TEST(reset == (std::vector<StreamId>{0, 4}), boost::test_tools::per_element());
    p.drive();
    for (const Event& e : p.server_events) BOOST_TEST(!std::holds_alternative<StreamOpened>(e));
    BOOST_TEST(p.sent_values(true, frame_type::stop_sending).size() == 2u);
    BOOST_TEST(p.sent_values(true, frame_type::reset_stream).size() == 2u);
    BOOST_TEST(p.sent_values(true, frame_type::max_streams_bidi) ==
                   (credited ? std::vector<uint64_t>{4} : std::vector<uint64_t>{}),
               boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(opening_beyond_the_limit_is_stream_limit_error) {
  Config c = Pair::client_config();
  c.initial_max_streams_uni = 2;
  Config s = Pair::server_config();
  s.respect_peer_max_streams = false;  // a misbehaving peer
  Pair p(c, s);
  p.drive();
  for (int i = 0; i < 3; ++i) {
    auto id = p.server->open_stream(Dir::uni).value();
    BOOST_TEST(p.server->write(id, Bytes(10, 1)).ok());
  }
  p.drive();
  BOOST_REQUIRE(p.client->close_reason());
  BOOST_TEST(p.client->close_reason()->error.code ==
             static_cast<uint64_t>(TransportErrorCode::stream_limit_error));
  BOOST_REQUIRE(p.server->close_reason());
  BOOST_TEST(p.server->close_reason()->by_peer);
  BOOST_TEST(p.server->close_reason()->error.code == 0x04u);
  BOOST_TEST(p.server->close_reason()->error.frame_type == frame_type::stream);
}

BOOST_AUTO_TEST_CASE(policies_give_exact_values) {
  // Unit level: window 100, the peer opens and closes streams one by one.
  auto run = [](MaxStreamsPolicy policy, bool close) {
    RemoteStreamLimit lim(100, policy);
    std::vector<uint64_t> sent;
    for (uint64_t i = 0; i < 200; ++i) {
      if (!lim.on_opened(i)) break;  // at the limit: the peer would be blocked
      if (close) lim.on_closed();
      if (auto due = lim.update_due()) {
        sent.push_back(*due);
        lim.on_update_sent(*due);
      }
    }
    return sent;
  };
  BOOST_TEST(run(MaxStreamsPolicy::half_window, true) == (std::vector<uint64_t>{150, 200, 250, 300}),
             boost::test_tools::per_element());
  BOOST_TEST(run(MaxStreamsPolicy::half_window, false).empty());  // nothing closed, no credit
  BOOST_TEST(run(MaxStreamsPolicy::half_window_opened, false) ==
                 (std::vector<uint64_t>{150, 200, 250, 300}),
             boost::test_tools::per_element());
  BOOST_TEST(run(MaxStreamsPolicy::every_stream, true).size() == 200u);
  RemoteStreamLimit lim(100);
  BOOST_TEST(!lim.on_opened(100));  // index 100 is the 101st stream
}

BOOST_AUTO_TEST_SUITE_END()
