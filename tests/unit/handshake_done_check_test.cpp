// `handshake_done_sent` on hand-made timelines at the server's vantage.
#include "check/quic/support/quic_check.hpp"
#include "unit/check_timeline_builder.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform;
using namespace conform::test;

namespace {

// The handshake as the server sees it, the client's Finished (Handshake
// CRYPTO 0-35) arriving at frame 3, 11 ms.
TimelineBuilder handshake_at_server() {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(856)})});
  b.send(Side::server, 1 * kMs, {initial(0, {crypto(0, 90)}), handshake(0, {crypto(0, 800)})});
  b.send(Side::client, 11 * kMs, {handshake(0, {ack(0, 0), crypto(0, 36)})});
  return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(handshake_done_check_test)

BOOST_AUTO_TEST_CASE(passes_when_the_server_confirms_after_the_finished) {
  TimelineBuilder b = handshake_at_server();
  b.send(Side::server, 12 * kMs, {one_rtt(0, {dissect::HandshakeDoneFrame{}})});
  auto r = judge("handshake_done_sent", server_run(b), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary == "the client's Finished arrived at frame 3 (11.000 ms), HANDSHAKE_DONE left at frame 4 "
                          "(12.000 ms)",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{4}));
}

BOOST_AUTO_TEST_CASE(fails_without_handshake_done) {
  TimelineBuilder b = handshake_at_server();
  b.send(Side::server, 12 * kMs, {one_rtt(0, {ping()})});
  auto r = judge("handshake_done_sent", server_run(b), {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "the client's Finished arrived at frame 3 (11.000 ms); the server sent no HANDSHAKE_DONE",
             r.summary);
  BOOST_TEST(frames_of(r) == (Frames{3}));
}

BOOST_AUTO_TEST_CASE(fails_a_handshake_done_before_the_finished_or_from_the_client) {
  TimelineBuilder early;
  early.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(856)})});
  early.send(Side::server, 1 * kMs, {initial(0, {crypto(0, 90)}), handshake(0, {crypto(0, 800)})});
  early.send(Side::server, 2 * kMs, {one_rtt(0, {dissect::HandshakeDoneFrame{}})});
  early.send(Side::client, 11 * kMs, {handshake(0, {ack(0, 0), crypto(0, 36)})});
  auto r = judge("handshake_done_sent", server_run(early), {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "the server sent HANDSHAKE_DONE at frame 3 (2.000 ms) before the client's Finished arrived",
             r.summary);

  TimelineBuilder b = handshake_at_server();
  b.send(Side::server, 12 * kMs, {one_rtt(0, {dissect::HandshakeDoneFrame{}})});
  b.send(Side::client, 13 * kMs, {one_rtt(0, {dissect::HandshakeDoneFrame{}})});
  r = judge("handshake_done_sent", server_run(b), {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "the client sent HANDSHAKE_DONE at frame 5 (13.000 ms)", r.summary);
}

BOOST_AUTO_TEST_CASE(an_incomplete_handshake_is_not_a_pass) {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(856)})});
  auto r = judge("handshake_done_sent", server_run(b), {});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  BOOST_TEST(r.summary == "the client's Finished never arrived at the server: no handshake completed", r.summary);
}

BOOST_AUTO_TEST_SUITE_END()
