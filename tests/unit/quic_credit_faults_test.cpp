// The in-house QUIC's stream credit knobs at unit level (RFC 9000 §4.6,
// §19.14): the full_window MAX_STREAMS policy raises only once a whole
// window closed, repeat_streams_blocked = false reports only the first
// limit an open was refused at, a lost STREAMS_BLOCKED (DATA_BLOCKED,
// STREAM_DATA_BLOCKED) is due again,
// max_streams_uncapped passes 2^60, and streams_credit_on_blocked and
// data_credit_on_blocked wait to be asked.
#include <boost/test/unit_test.hpp>

#include "connection/flow_control.hpp"
#include "connection/stream_limits.hpp"

#include <vector>

using namespace conform::quic;

BOOST_AUTO_TEST_SUITE(quic_credit_faults_test)

BOOST_AUTO_TEST_CASE(full_window_raises_only_when_the_peer_is_at_the_limit) {
  RemoteStreamLimit lim(100, MaxStreamsPolicy::full_window);
  std::vector<uint64_t> sent, at;
  for (uint64_t i = 0; i < 250; ++i) {
    if (!lim.on_opened(i)) break;
    lim.on_closed();
    if (auto due = lim.update_due()) {
      sent.push_back(*due);
      at.push_back(i);
      lim.on_update_sent(*due);
    }
  }
  // Streams 99 and 199 are the last of each limit: nothing comes earlier.
  BOOST_TEST(sent == (std::vector<uint64_t>{200, 300}), boost::test_tools::per_element());
  BOOST_TEST(at == (std::vector<uint64_t>{99, 199}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(streams_blocked_repeats_at_each_new_limit_unless_told_not_to) {
  for (bool repeat : {true, false}) {
    LocalStreamLimit lim(2);
    lim.open();
    lim.open();
    lim.on_blocked(repeat);
    BOOST_TEST((lim.blocked_due() == std::optional<uint64_t>(2)));
    lim.on_blocked_sent();
    BOOST_TEST(!lim.blocked_due());
    BOOST_TEST(lim.raise(3));
    lim.open();
    lim.on_blocked(repeat);
    BOOST_TEST((lim.blocked_due() == (repeat ? std::optional<uint64_t>(3) : std::nullopt)), repeat);
  }
}

// RFC 9000 §13.3: a lost STREAMS_BLOCKED is due again while the opener is
// still blocked at that limit, not once the limit rose.
BOOST_AUTO_TEST_CASE(a_lost_streams_blocked_is_due_again_at_the_same_limit) {
  LocalStreamLimit lim(2);
  lim.open();
  lim.open();
  lim.on_blocked();
  lim.on_blocked_sent();
  lim.on_blocked_lost(2);
  BOOST_TEST((lim.blocked_due() == std::optional<uint64_t>(2)));
  lim.on_blocked_sent();
  BOOST_TEST(lim.raise(4));
  lim.on_blocked_lost(2);  // an older limit: nothing to say
  BOOST_TEST(!lim.blocked_due());
}

// The same for DATA_BLOCKED and STREAM_DATA_BLOCKED: due again while the
// sender is still blocked at that limit.
BOOST_AUTO_TEST_CASE(a_lost_data_blocked_is_due_again_at_the_same_limit) {
  SendCredit credit(100);
  credit.consume(100);
  BOOST_TEST(credit.blocked_report_due(true));
  credit.on_blocked_reported();
  BOOST_TEST(!credit.blocked_report_due(true));
  credit.on_blocked_lost(100);
  BOOST_TEST(credit.blocked_report_due(true));
  credit.on_blocked_reported();
  BOOST_TEST(credit.raise(200));
  credit.on_blocked_lost(100);  // an older limit: nothing to say
  BOOST_TEST(!credit.blocked_report_due(true));
}

// The max_streams_uncapped fault (quic-go#2709): closed + window past 2^60;
// the correct stack stops at 2^60 (§19.11).
BOOST_AUTO_TEST_CASE(max_streams_stops_at_2_60_unless_uncapped) {
  constexpr uint64_t kMax = uint64_t{1} << 60;
  for (bool uncapped : {false, true}) {
    RemoteStreamLimit lim(kMax - 10, MaxStreamsPolicy::every_stream, uncapped);
    std::optional<uint64_t> last;
    for (uint64_t i = 0; i < 12; ++i) {
      BOOST_TEST(lim.on_opened(i));
      lim.on_closed();
      if (auto due = lim.update_due()) {
        last = due;
        lim.on_update_sent(*due);
      }
    }
    BOOST_TEST((last == (uncapped ? kMax + 2 : kMax)), uncapped);
  }
}

// The streams_credit_on_blocked script: a raise waits for STREAMS_BLOCKED
// at the limit in force, and asks anew after each raise.
BOOST_AUTO_TEST_CASE(a_peer_asks_for_streams_at_the_limit_in_force) {
  RemoteStreamLimit lim(10);
  BOOST_TEST(!lim.asked());
  lim.on_peer_blocked(9);
  BOOST_TEST(!lim.asked());
  lim.on_peer_blocked(10);
  BOOST_TEST(lim.asked());
  lim.on_update_sent(15);
  BOOST_TEST(!lim.asked());
}

// The data_credit_on_blocked script: a window's raise waits for
// DATA_BLOCKED (STREAM_DATA_BLOCKED) at the limit in force, however much
// was read, and asks anew after each raise.
BOOST_AUTO_TEST_CASE(a_peer_asks_for_data_at_the_limit_in_force) {
  RecvWindow w(32768);
  BOOST_TEST(w.on_received(32768));
  w.on_consumed(32768);
  BOOST_TEST(w.update_due().value_or(0) == 65536u);  // due, were it not held
  BOOST_TEST(!w.asked());
  w.on_peer_blocked(16384);  // a limit long passed says nothing now
  BOOST_TEST(!w.asked());
  w.on_peer_blocked(32768);
  BOOST_TEST(w.asked());
  w.on_update_sent(65536);
  BOOST_TEST(!w.asked());
  BOOST_TEST(w.max() == 65536u);
}

BOOST_AUTO_TEST_SUITE_END()
