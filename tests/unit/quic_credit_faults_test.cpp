// The in-house QUIC's stream credit knobs at unit level (RFC 9000 §4.6,
// §19.14): the full_window MAX_STREAMS policy raises only once a whole
// window closed, and repeat_streams_blocked = false reports only the first
// limit an open was refused at.
#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()
