// The stream credit and flow control credit judgements on hand-made
// timelines: streams_delivered with streams the sender reset (RFC 9000
// §3.2 Reset Recvd), max_streams_extended when the credit of reset or
// stopped streams did not come back (§4.6), and credit_not_held_back
// (§4.2): the raise leaves with the receiver's next datagram.
#include "check/quic/support/quic_check.hpp"
#include "support/support.hpp"
#include "unit/check_timeline_builder.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;

namespace {

Frame reset_stream(std::uint64_t id, std::uint64_t error, std::uint64_t final_size) {
  return dissect::ResetStreamFrame{id, error, final_size};
}
Frame stop_sending(std::uint64_t id, std::uint64_t error) { return dissect::StopSendingFrame{id, error}; }

// The server's uni stream `index` (id 4·index + 3).
std::uint64_t server_uni_id(std::uint64_t index) { return index * 4 + 3; }

// At the client: the server's uni streams 0..n-1 arrive one per ms, every
// `reset_every`th one (indexes reset_every-1, ...) reset after 40 bytes
// instead of finished.
TimelineBuilder fanout_with_resets(std::uint64_t n, std::uint64_t reset_every) {
  TimelineBuilder b;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto id = server_uni_id(i);
    if ((i + 1) % reset_every == 0)
      b.send(Side::server, std::int64_t(i) * kMs, {stream(id, 0, 40, false), reset_stream(id, 0x10, 40)});
    else
      b.send(Side::server, std::int64_t(i) * kMs, {stream(id, 0, 80, true)});
  }
  return b;
}

// What uni-fanout declares for `frames` frames, one a stream.
RunDemand fanout_scenario(std::uint64_t frames) {
  return demand_of(Side::server, &SideDemand::uni_streams, frames, "frames=" + std::to_string(frames) + " frames_per_group=1");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(credit_checks_test)

BOOST_AUTO_TEST_CASE(streams_delivered_accounts_for_reset_streams_unless_told_not_to) {
  auto b = fanout_with_resets(6, 3);  // streams 2 and 5 reset
  auto r = judge("streams_delivered", client_run(b), {{"from", "server"}, {"dir", "uni"}}, fanout_scenario(6));
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "received=4/6 reset=2 missing=[] (expected from scenario frames=6 frames_per_group=1)",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{5, 3}));
  BOOST_TEST(r.evidence[1].text == "stream 2 (id 11) reset with error 16: the first of 2 reset", r.evidence[1].text);
  BOOST_TEST(r.evidence[1].time_ns == 2 * kMs);

  r = judge("streams_delivered", client_run(b), {{"from", "server"}, {"dir", "uni"}, {"allow_reset", false}},
            fanout_scenario(6));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "received=4/6 missing=[2, 5] (stream numbers from 0, not IDs; expected from scenario frames=6 frames_per_group=1)",
             r.summary);
  BOOST_TEST(r.evidence[1].text == "stream 2 (id 11): 40 bytes arrived, reset with error 16", r.evidence[1].text);
}

BOOST_AUTO_TEST_CASE(streams_delivered_still_misses_streams_that_never_ended) {
  auto b = fanout_with_resets(4, 2);  // 1 and 3 reset
  b.send(Side::server, 10 * kMs, {stream(server_uni_id(4), 0, 10, false)});
  auto r = judge("streams_delivered", client_run(b), {{"from", "server"}, {"dir", "uni"}}, fanout_scenario(6));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "received=2/6 reset=2 missing=[4-5] (stream numbers from 0, not IDs; expected from scenario frames=6 frames_per_group=1)",
             r.summary);
}

BOOST_AUTO_TEST_CASE(max_streams_extended_says_how_the_streams_under_a_stuck_limit_ended) {
  // Limit 4: streams 0-3 arrive, 1 and 3 reset, 2 stopped by the client
  // (its STOP_SENDING, then the server's RESET_STREAM); the client raises
  // nothing though the scenario wants 8.
  TimelineBuilder b;
  b.params(Side::client).initial_max_streams_uni = 4;
  b.send(Side::server, 0, {stream(server_uni_id(0), 0, 80, true)});
  b.send(Side::server, 1 * kMs, {reset_stream(server_uni_id(1), 0x10, 0)});
  b.send(Side::server, 2 * kMs, {stream(server_uni_id(2), 0, 10, false)});
  b.send(Side::client, 3 * kMs, {stop_sending(server_uni_id(2), 0x11)});
  b.send(Side::server, 4 * kMs, {reset_stream(server_uni_id(2), 0x11, 10), stream(server_uni_id(3), 0, 40, false),
                                 reset_stream(server_uni_id(3), 0x10, 40)});
  auto r = judge("max_streams_extended", client_run(b), {{"by", "client"}, {"dir", "uni"}}, fanout_scenario(8));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "the server uni streams reached the limit 4 at frame 5 (4.000 ms) wanting 8 (scenario frames=8 "
                 "frames_per_group=1); no MAX_STREAMS raised it (of the 4 streams, 1 finished, 3 reset or stopped)",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{5}));

  // The same streams with the credit returned: MAX_STREAMS 8 after the resets.
  b.send(Side::client, 5 * kMs, {max_streams(false, 8)});
  for (std::uint64_t i = 4; i < 8; ++i) b.send(Side::server, std::int64_t(6 + i) * kMs, {stream(server_uni_id(i), 0, 80, true)});
  r = judge("max_streams_extended", client_run(b), {{"by", "client"}, {"dir", "uni"}}, fanout_scenario(8));
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

namespace {

// Limit 4; the server's streams 0-3 arrive whole `step` ms apart from 0,
// the client raises to 8 1 ms after stream 3, then streams 4-7 arrive.
TimelineBuilder raised_at_the_limit(std::int64_t step) {
  TimelineBuilder b;
  b.params(Side::client).initial_max_streams_uni = 4;
  for (std::uint64_t i = 0; i < 4; ++i) b.send(Side::server, std::int64_t(i) * step * kMs, {stream(server_uni_id(i), 0, 80, true)});
  b.send(Side::client, (3 * step + 1) * kMs, {max_streams(false, 8)});
  for (std::uint64_t i = 4; i < 8; ++i) b.send(Side::server, std::int64_t(100 + i) * kMs, {stream(server_uni_id(i), 0, 80, true)});
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(max_streams_extended_ahead_fails_credit_held_for_a_round_trip) {
  const ValueMap params{{"by", "client"}, {"dir", "uni"}, {"ahead", true}, {"rtt_ms", 10.0}};
  auto b = raised_at_the_limit(10);
  // Raised once the peer was at the limit: enough for the plain check.
  auto r = judge("max_streams_extended", client_run(b), {{"by", "client"}, {"dir", "uni"}}, fanout_scenario(8));
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  // Streams 0-2 had ended by 20 ms, one round trip before stream 3 reached
  // the limit at 30 ms: at least 4 - 4/2 = 2 were due back.
  r = judge("max_streams_extended", client_run(b), params, fanout_scenario(8));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "the server uni streams reached the limit 4 at frame 4 (30.000 ms) although one round trip (10.000 "
                 "ms) earlier 3 of them had ended (at least 2: half the window of 4 was due back); MAX_STREAMS came "
                 "too late",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{4, 4, 3, 5}));
  // The network's rtt_ms stands in for the parameter.
  r = judge("max_streams_extended", client_run(b), {{"by", "client"}, {"dir", "uni"}, {"ahead", true}},
            fanout_scenario(8), {{"rtt_ms", 15.0}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.find("2 of them had ended") != std::string::npos, r.summary);

  // A burst reaches the limit before any stream could end: nothing held back.
  r = judge("max_streams_extended", client_run(raised_at_the_limit(0)), params, fanout_scenario(8));
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

namespace {

// At the client, with initial_max_data 1000: the server's stream 3 brings
// 1000 bytes at 1 ms (the limit), then `before` client datagrams (ACKs)
// leave before MAX_DATA 2000, then 500 more bytes arrive.
TimelineBuilder credit_after(int before) {
  TimelineBuilder b;
  b.params(Side::client).initial_max_data = 1000;
  b.params(Side::client).initial_max_stream_data_uni = 100000;
  b.send(Side::server, 0, {stream(3, 0, 500, false)});
  b.send(Side::server, 1 * kMs, {stream(3, 500, 500, false)});
  for (int i = 0; i < before; ++i) b.send(Side::client, (2 + i) * kMs, {ack(0, 1)});
  b.send(Side::client, (2 + before) * kMs, {ack(0, 1), max_data(2000)});
  b.send(Side::server, (30 + before) * kMs, {stream(3, 1000, 500, true)});
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(credit_not_held_back_passes_a_raise_in_the_next_datagram) {
  auto r = judge("credit_not_held_back", client_run(credit_after(0)), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary ==
                 "the server reached a limit wanting more 1 times; the most datagrams the client sent before the "
                 "raise: 0",
             r.summary);
}

BOOST_AUTO_TEST_CASE(credit_not_held_back_fails_when_datagrams_leave_without_the_raise) {
  auto r = judge("credit_not_held_back", client_run(credit_after(2)), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "the server connection data reached the limit 1000 at frame 2 (1.000 ms); the client sent 2 "
                 "datagrams without MAX_DATA (the first at frame 3, 2.000 ms) before MAX_DATA 2000 at frame 5 "
                 "(4.000 ms)",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{2, 3, 5}));
  // A bound of two datagrams lets it through.
  r = judge("credit_not_held_back", client_run(credit_after(2)), {{"by", "client"}, {"max_datagrams", std::int64_t{2}}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

// The first 500 bytes lost: the server's data reaches the limit at 1 ms
// with bytes 0-499 missing, so the client's reader waits (RFC 9000 §2.2)
// and its two ACKs leave before it can consume anything. The
// retransmission fills the hole at 4 ms; MAX_DATA goes in the client's next
// datagram. One more datagram without it after the fill fails.
BOOST_AUTO_TEST_CASE(credit_not_held_back_leaves_out_the_wait_behind_a_loss_hole) {
  auto lossy = [](int after_fill) {
    TimelineBuilder b;
    b.params(Side::client).initial_max_data = 1000;
    b.params(Side::client).initial_max_stream_data_uni = 100000;
    b.send(Side::server, 1 * kMs, {stream(3, 500, 500, false)});
    b.send(Side::client, 2 * kMs, {ack(0, 0)});
    b.send(Side::client, 3 * kMs, {ack(0, 0)});
    b.send(Side::server, 4 * kMs, {stream(3, 0, 500, false)});
    for (int i = 0; i < after_fill; ++i) b.send(Side::client, (5 + i) * kMs, {ack(0, 1)});
    b.send(Side::client, (5 + after_fill) * kMs, {ack(0, 1), max_data(2000)});
    b.send(Side::server, 30 * kMs, {stream(3, 1000, 500, true)});
    return b;
  };
  auto r = judge("credit_not_held_back", client_run(lossy(0)), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary == "the server reached a limit wanting more 1 times; the most datagrams the client sent before "
                          "the raise: 0 (not counting 2 sent while the server's data that reached the client had a "
                          "hole, which stops the reader until it is filled)",
             r.summary);
  r = judge("credit_not_held_back", client_run(lossy(1)), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("the client sent 1 datagrams without MAX_DATA (the first at frame 5, 5.000 ms)") !=
                 std::string::npos,
             r.summary);
}

// From a capture at the server (the data's sender), the client's datagrams
// before its first ACK of the data that reached the limit may have left
// before that data reached it: not counted, however long after (a queue on
// the way: its ACK of the first 500 bytes, 25 ms later, acknowledges
// nothing of the second). Those after that ACK are. At the client's own
// capture every one after the data's arrival counts.
BOOST_AUTO_TEST_CASE(credit_not_held_back_from_elsewhere_counts_from_its_ack_of_the_data) {
  auto held = [](bool raise_with_the_ack) {
    TimelineBuilder b;
    b.params(Side::client).initial_max_data = 1000;
    b.params(Side::client).initial_max_stream_data_uni = 100000;
    b.send(Side::server, 19 * kMs, {stream(3, 0, 500, false)});
    b.send(Side::server, 20 * kMs, {stream(3, 500, 500, false)});
    b.send(Side::client, 45 * kMs, {ack(0, 0)});
    if (raise_with_the_ack) {
      b.send(Side::client, 50 * kMs, {ack(0, 1), max_data(2000)});
    } else {
      b.send(Side::client, 50 * kMs, {ack(0, 1)});
      b.send(Side::client, 51 * kMs, {max_data(2000)});
    }
    b.send(Side::server, 60 * kMs, {stream(3, 1000, 500, true)});
    return b;
  };
  auto r = judge("credit_not_held_back", client_run(held(true)), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  auto from_server = client_run(held(true), Vantage::server);
  r = judge("credit_not_held_back", from_server, {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary ==
                 "the server reached a limit wanting more 1 times; the most datagrams the client sent before the "
                 "raise: 0 (not counting those before its first ACK of the data that reached the limit: the "
                 "capture, taken on the server's host, cannot tell whether they left before that data reached the "
                 "client)",
             r.summary);
  auto later = client_run(held(false), Vantage::server);
  r = judge("credit_not_held_back", later, {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("the client sent 1 datagrams without MAX_DATA (the first at frame 4, 50.000 ms)") !=
                 std::string::npos,
             r.summary);
}

// From the server's host, its first 500 bytes lost past the capture point:
// the client's ACKs pass over packet 0, so what reached the client had a
// hole until the retransmission (packet 2) was acknowledged, and its two
// ACKs meanwhile are not counted. Taken as arrived, they would fail it.
BOOST_AUTO_TEST_CASE(credit_not_held_back_from_elsewhere_sees_holes_in_what_the_receiver_acknowledged) {
  TimelineBuilder b;
  b.params(Side::client).initial_max_data = 1000;
  b.params(Side::client).initial_max_stream_data_uni = 100000;
  b.send(Side::server, 19 * kMs, {stream(3, 0, 500, false)});
  b.send(Side::server, 20 * kMs, {stream(3, 500, 500, false)});
  b.send(Side::client, 45 * kMs, {ack(1, 1)});
  b.send(Side::client, 46 * kMs, {ack(1, 1)});
  b.send(Side::server, 47 * kMs, {stream(3, 0, 500, false)});
  b.send(Side::client, 72 * kMs, {ack(1, 2), max_data(2000)});
  b.send(Side::server, 80 * kMs, {stream(3, 1000, 500, true)});
  auto r = judge("credit_not_held_back", client_run(b, Vantage::server), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary.find("(not counting 2 sent while the server's data that reached the client had a hole") !=
                 std::string::npos,
             r.summary);
}

// From the server's host, the client's packet 1 never shows (lost before
// the capture point): it may have carried MAX_DATA, so its two ACKs after
// it prove nothing held back, and NOT JUDGED; an ACK seen before it, with
// packet 0, still leaves without the raise: with a bound of 0, a FAIL.
BOOST_AUTO_TEST_CASE(credit_not_held_back_from_elsewhere_counts_only_up_to_an_unseen_packet) {
  auto held = [](bool ack_before_the_gap) {
    TimelineBuilder b;
    b.params(Side::client).initial_max_data = 1000;
    b.params(Side::client).initial_max_stream_data_uni = 100000;
    b.send(Side::server, 20 * kMs, {stream(3, 0, 1000, false)});
    std::uint64_t pn = 0;
    if (ack_before_the_gap) b.send(Side::client, 45 * kMs, {one_rtt(pn++, {ack(0, 0)})});
    ++pn;  // lost before the capture point
    b.send(Side::client, 50 * kMs, {one_rtt(pn++, {ack(0, 0)})});
    b.send(Side::client, 51 * kMs, {one_rtt(pn++, {ack(0, 0)})});
    b.send(Side::client, 52 * kMs, {one_rtt(pn++, {max_data(2000)})});
    b.send(Side::server, 60 * kMs, {stream(3, 1000, 500, true)});
    return b;
  };
  auto r = judge("credit_not_held_back", client_run(held(false), Vantage::server), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(r.summary.find("the client's first application packet the capture shows is 1, at frame 2: what it sent "
                            "before went unseen, and a raise may have gone with it") != std::string::npos,
             r.summary);
  r = judge("credit_not_held_back", client_run(held(true), Vantage::server), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("the client sent 1 datagrams without MAX_DATA (the first at frame 2, 45.000 ms)") !=
                 std::string::npos,
             r.summary);
}

BOOST_AUTO_TEST_CASE(credit_not_held_back_judges_stream_limits_and_ignores_a_peer_done_at_the_limit) {
  // Stream 3's limit of 600 is reached at frame 2, with more to come (no
  // FIN); one ACK leaves before MAX_STREAM_DATA.
  TimelineBuilder b;
  b.params(Side::client).initial_max_data = 100000;
  b.params(Side::client).initial_max_stream_data_uni = 600;
  b.send(Side::server, 0, {stream(3, 0, 300, false)});
  b.send(Side::server, 1 * kMs, {stream(3, 300, 300, false)});
  b.send(Side::client, 2 * kMs, {ack(0, 1)});
  b.send(Side::client, 3 * kMs, {max_stream_data(3, 1200)});
  auto r = judge("credit_not_held_back", client_run(b), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.find("the server stream 3 data reached the limit 600 at frame 2") == 0, r.summary);
  BOOST_TEST(r.summary.find("before MAX_STREAM_DATA 1200 at frame 4") != std::string::npos, r.summary);

  // A stream that ends exactly at the limit wanted nothing more.
  TimelineBuilder done;
  done.params(Side::client).initial_max_data = 100000;
  done.params(Side::client).initial_max_stream_data_uni = 600;
  done.send(Side::server, 0, {stream(3, 0, 600, true)});
  done.send(Side::client, 2 * kMs, {ack(0, 0)});
  r = judge("credit_not_held_back", client_run(done), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  BOOST_TEST(r.summary == "the server never wanted more than an initial data limit of the client", r.summary);
}

BOOST_AUTO_TEST_SUITE_END()
