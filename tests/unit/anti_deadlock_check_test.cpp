// client_anti_deadlock_probe on hand-made client captures: the server's
// Initial acknowledges the ClientHello at 10 ms (the first RTT sample, so
// the default bound is 2 × (10 + 20) = 60 ms), then its Handshake flight is
// lost; the client must probe (RFC 9002 §6.2.2.1).
#include "unit/check_timeline_builder.hpp"

using namespace conform;
using namespace conform::test;

namespace {

/// The ClientHello acknowledged at 10 ms; the client's ACK-only reply.
TimelineBuilder acknowledged_hello() {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 10 * kMs, {initial(0, {ack(0, 0), crypto(0, 90)})});
  b.send(Side::client, 10 * kMs, {initial(1, {ack(0, 0), padding(1100)})});
  return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(anti_deadlock_check_test)

BOOST_AUTO_TEST_CASE(a_probe_within_twice_the_pto_passes) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::client, 40 * kMs, {handshake(0, {ping(), padding(1100)})});
  b.send(Side::server, 50 * kMs, {handshake(0, {ack(0, 0), crypto(0, 400)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary ==
                 "1 quiet spells with nothing unacknowledged before a Handshake ACK, the longest 30.000 ms (bound "
                 "60.000 ms: twice the first PTO for an RTT of 10.000 ms)",
             r.summary);
}

BOOST_AUTO_TEST_CASE(silence_until_the_server_resends_fails) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::server, 100 * kMs, {handshake(0, {crypto(0, 400)})});
  b.send(Side::client, 100 * kMs, {handshake(0, {ack(0, 0), crypto(0, 36)})});
  b.send(Side::server, 110 * kMs, {handshake(1, {ack(0, 0)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.find("from frame 2 (10.000 ms) and sent no probe for 90.000 ms (bound 60.000 ms") !=
                 std::string::npos,
             r.summary);
  BOOST_TEST(frames_of(r) == (std::vector<std::uint64_t>{2, 5}));
  // The same silence within an explicit bound passes.
  r = judge("client_anti_deadlock_probe", client_run(b), {{"max_wait_ms", 95.0}});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

BOOST_AUTO_TEST_CASE(a_capture_that_ends_in_the_silence_is_a_deadlock) {
  TimelineBuilder b = acknowledged_hello();
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.find("never sent a probe: the handshake deadlocked") != std::string::npos, r.summary);
  BOOST_TEST(frames_of(r) == (std::vector<std::uint64_t>{2}));
}

BOOST_AUTO_TEST_CASE(nothing_to_judge_once_a_handshake_packet_is_acknowledged) {
  // The whole flight arrives with the ServerHello: the client's Finished
  // goes out at once and its Handshake ACK ends the rule.
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 10 * kMs, {initial(0, {ack(0, 0), crypto(0, 90)}), handshake(0, {crypto(0, 400)})});
  b.send(Side::client, 10 * kMs, {initial(1, {ack(0, 0)}), handshake(0, {ack(0, 0), crypto(0, 36)})});
  b.send(Side::server, 20 * kMs, {handshake(1, {ack(0, 0)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary == "1 quiet spells with nothing unacknowledged before a Handshake ACK, the longest 0.000 ms "
                          "(bound 60.000 ms: twice the first PTO for an RTT of 10.000 ms)",
             r.summary);
}

BOOST_AUTO_TEST_SUITE_END()
