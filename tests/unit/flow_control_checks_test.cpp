// The flow control checks (data_blocked_sent, stream_data_blocked_sent,
// max_data_extended) on hand-made timelines, passing and failing.
#include "check/quic/support/quic_check.hpp"
#include "unit/check_timeline_builder.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;

BOOST_AUTO_TEST_SUITE(flow_control_checks_test)

BOOST_AUTO_TEST_CASE(data_blocked_sent_wants_the_frame_while_waiting_at_the_limit) {
  // The server allows 100 bytes; the client sends 100 over two streams,
  // waits, is raised to 300 and finishes.
  TimelineBuilder b;
  b.params(Side::server).initial_max_data = 100;
  b.send(Side::client, 1 * kMs, {stream(0, 0, 60, true)});
  b.send(Side::client, 2 * kMs, {stream(4, 0, 40, false)});
  b.send(Side::client, 3 * kMs, {data_blocked(100)});
  b.send(Side::server, 8 * kMs, {max_data(300)});
  b.send(Side::client, 9 * kMs, {stream(4, 40, 60, true)});
  auto r = judge("data_blocked_sent", client_run(b), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary == "sent 160 bytes (wanted 160: sent 160), limit 100 → 300; 1 waits at the limit, each "
                          "reported with DATA_BLOCKED",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{3}));

  TimelineBuilder mute;
  mute.params(Side::server).initial_max_data = 100;
  mute.send(Side::client, 1 * kMs, {stream(0, 0, 100, false)});
  r = judge("data_blocked_sent", client_run(mute), {{"by", "client"}},
            demand_of(Side::client, &SideDemand::bytes, 1000, "bytes=1000 direction=upload"));
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "connection data: at the limit 100 from frame 1 (1.000 ms) wanting 1000 (scenario bytes=1000 "
                          "direction=upload), never raised; no DATA_BLOCKED 100 sent",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{1}));
  // Downloads are the server's to send: the client's demand is unknown.
  r = judge("data_blocked_sent", client_run(mute), {{"by", "client"}},
            demand_of(Side::server, &SideDemand::bytes, 1000, "bytes=1000 direction=download"));
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  BOOST_TEST(r.summary == "never at the connection data limit wanting more: sent 100 bytes (wanted 100: sent 100), "
                          "limit 100 → 100",
             r.summary);
}

// The shape of quic-go → lsquic in interop/connection-window: the sender
// (lsquic, the server here) waits at the limit 100, the raise passes the
// capture point, and 3 µs later the sender's DATA_BLOCKED 100 passes it: it
// had not read the raise yet. Only its next data beyond 100 shows it had.
// data_blocked_sent and blocked_frames_not_early read that alike (the
// frame reports the wait) from wherever the capture was taken; a
// DATA_BLOCKED 100 sent after the data beyond 100 reports no wait.
BOOST_AUTO_TEST_CASE(a_blocked_frame_just_after_the_raise_reports_the_wait_for_both_checks) {
  auto at_limit = [](bool late) {
    TimelineBuilder b;
    b.params(Side::client).initial_max_data = 100;
    b.send(Side::server, 1 * kMs, {stream(1, 0, 100, false)});
    b.send(Side::client, 5 * kMs, {max_data(300)});
    if (!late) b.send(Side::server, 5 * kMs + 3000, {data_blocked(100)});
    b.send(Side::server, 6 * kMs, {stream(1, 100, 100, true)});
    if (late) b.send(Side::server, 6 * kMs + 3000, {data_blocked(100)});
    return b;
  };
  for (Vantage v : {Vantage::server, Vantage::client, Vantage::path}) {
    BOOST_TEST_CONTEXT(to_string(v)) {
      auto r = judge("data_blocked_sent", server_run(at_limit(false), v), {{"by", "server"}});
      BOOST_TEST((r.verdict == Verdict::pass), r.summary);
      BOOST_TEST(frames_of(r) == (Frames{3}));
      r = judge("blocked_frames_not_early", server_run(at_limit(false), v), {{"by", "server"}});
      BOOST_TEST((r.verdict == Verdict::pass), r.summary);
      r = judge("data_blocked_sent", server_run(at_limit(true), v), {{"by", "server"}});
      BOOST_TEST((r.verdict == Verdict::fail), r.summary);
      BOOST_TEST(r.summary == "connection data: at the limit 100 from frame 1 (1.000 ms) wanting 200 (sent 200), "
                              "raised at frame 2; no DATA_BLOCKED 100 sent",
                 r.summary);
      r = judge("blocked_frames_not_early", server_run(at_limit(true), v), {{"by", "server"}});
      BOOST_TEST((r.verdict == Verdict::fail), r.summary);
    }
  }
}

// The receiver's capture of a download (flow-control/connection-window-
// download/client.pcap): the client's raise to 300 passes the capture point
// before the server's data reaching the old limit 100 arrives; the server
// filled it before the raise reached it. Its DATA_BLOCKED 100 reports that
// wait; without it, from the client's host the capture cannot tell whether
// the raise was there in time, and at the server's host it was.
BOOST_AUTO_TEST_CASE(a_raise_on_its_way_when_the_sender_reached_the_limit) {
  auto raised_first = [](bool blocked_frame) {
    TimelineBuilder b;
    b.params(Side::client).initial_max_data = 100;
    b.send(Side::client, 1 * kMs, {max_data(300)});
    b.send(Side::server, 2 * kMs, {stream(1, 0, 100, false)});
    if (blocked_frame) b.send(Side::server, 2 * kMs, {data_blocked(100)});
    b.send(Side::server, 12 * kMs, {stream(1, 100, 100, true)});
    return b;
  };
  auto r = judge("data_blocked_sent", server_run(raised_first(true), Vantage::client), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(frames_of(r) == (Frames{3}));
  r = judge("data_blocked_sent", server_run(raised_first(false), Vantage::client), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(r.summary == "cannot judge: connection data: used all of the limit 100 at frame 2 (2.000 ms) after the "
                          "raise of frame 1 passed the capture point, no DATA_BLOCKED 100: whether the raise had "
                          "reached the sender, the capture cannot tell",
             r.summary);
  r = judge("data_blocked_sent", server_run(raised_first(false), Vantage::server), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  r = judge("blocked_frames_not_early", server_run(raised_first(true), Vantage::client), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

// A MAX_DATA smaller than one before it changes nothing (RFC 9000 §19.9):
// usage that lands on its value was at no limit.
BOOST_AUTO_TEST_CASE(a_smaller_raise_after_a_larger_one_is_no_limit) {
  TimelineBuilder b;
  b.params(Side::client).initial_max_data = 100;
  b.send(Side::client, 1 * kMs, {max_data(300)});
  b.send(Side::client, 2 * kMs, {max_data(200)});
  b.send(Side::server, 3 * kMs, {stream(1, 0, 200, false)});
  b.send(Side::server, 12 * kMs, {stream(1, 200, 100, true)});
  auto r = judge("data_blocked_sent", server_run(b, Vantage::client), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
}

BOOST_AUTO_TEST_CASE(data_beyond_the_limit_fails) {
  TimelineBuilder b;
  b.params(Side::server).initial_max_data = 100;
  b.send(Side::client, 1 * kMs, {stream(0, 0, 150, true)});
  auto r = judge("data_blocked_sent", client_run(b), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "connection data: went to 150 beyond the limit 100 at frame 1 (and 1 more)", r.summary);
  r = judge("max_data_extended", server_run(b), {{"by", "server"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "the client sent 150 bytes beyond the limit 100 at frame 1 (FLOW_CONTROL_ERROR expected) (and 1 more)",
             r.summary);
}

BOOST_AUTO_TEST_CASE(stream_data_blocked_sent_judges_each_stream) {
  TimelineBuilder b;
  b.params(Side::server).initial_max_stream_data_bidi_remote = 50;
  b.send(Side::client, 1 * kMs, {stream(0, 0, 50, false)});
  b.send(Side::client, 1 * kMs, {stream_data_blocked(0, 50)});
  b.send(Side::client, 2 * kMs, {stream(4, 0, 50, false)});
  b.send(Side::server, 5 * kMs, {max_stream_data(0, 100), max_stream_data(4, 100)});
  b.send(Side::client, 6 * kMs, {stream(0, 50, 10, true)});
  b.send(Side::client, 6 * kMs, {stream(4, 50, 10, true)});
  auto r = judge("stream_data_blocked_sent", client_run(b), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "stream 4: at the limit 50 from frame 3 (2.000 ms) wanting 60 (FIN at 60), raised at frame 4; "
                          "no STREAM_DATA_BLOCKED 50 sent",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{2, 3}));
  BOOST_TEST(r.evidence[0].text == "STREAM_DATA_BLOCKED 50 (stream 0)");
  // A stream whose data ended exactly at the limit waits for nothing.
  TimelineBuilder done;
  done.params(Side::server).initial_max_stream_data_bidi_remote = 50;
  done.send(Side::client, 1 * kMs, {stream(0, 0, 50, true)});
  r = judge("stream_data_blocked_sent", client_run(done), {{"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  BOOST_TEST(r.summary == "1 streams sent, none at its stream data limit wanting more", r.summary);
}

BOOST_AUTO_TEST_CASE(max_data_extended_counts_data_over_many_small_streams) {
  // 10 streams of 10 bytes reach the client's 100-byte limit.
  TimelineBuilder b;
  b.params(Side::client).initial_max_data = 100;
  for (std::uint64_t i = 0; i < 10; ++i) b.send(Side::server, std::int64_t(i) * kMs, {stream(i * 4 + 3, 0, 10, true)});
  const RunDemand scenario = demand_of(Side::server, &SideDemand::bytes, 200, "frames=20 × payload_bytes=10");
  auto r = judge("max_data_extended", client_run(b), {{"by", "client"}}, scenario);
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "the server data reached the limit 100 at frame 10 (9.000 ms) wanting 200 (scenario "
                          "frames=20 × payload_bytes=10); no MAX_DATA raised it",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{10}));

  b.send(Side::client, 12 * kMs, {max_data(1000)});
  for (std::uint64_t i = 10; i < 20; ++i) b.send(Side::server, std::int64_t(i + 10) * kMs, {stream(i * 4 + 3, 0, 10, true)});
  r = judge("max_data_extended", client_run(b), {{"by", "client"}}, scenario);
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary == "the client limit went 100 → 1000 in 1 MAX_DATA; the server sent 200 bytes (wanted 200: "
                          "sent 200); it reached the limit 1 times, the longest wait for more 3.000 ms",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{10, 11}));
}

BOOST_AUTO_TEST_SUITE_END()
