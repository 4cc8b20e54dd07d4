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
                 "1 quiet spell with nothing unacknowledged before a Handshake ACK, the longest 30.000 ms (bound "
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

// A capture made elsewhere shows nothing after its last record: one whose
// recording shows the silence for no longer than the bound cannot tell a
// deadlock from a probe that came after; one that went on past it can.
BOOST_AUTO_TEST_CASE(a_capture_made_elsewhere_that_ends_within_the_bound_is_not_judged) {
  TimelineBuilder b = acknowledged_hello();
  auto run = client_run(b);
  run.set_observed_until_ns(70 * kMs);  // 60 ms of silence from frame 2: the bound
  auto r = judge("client_anti_deadlock_probe", run, {});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(r.summary ==
                 "cannot judge: the capture ends 60.000 ms into a quiet spell of the client's from frame 2 (10.000 "
                 "ms), within the bound of 60.000 ms (twice the first PTO for an RTT of 10.000 ms): it does not "
                 "show whether a probe came after",
             r.summary);
  run.set_observed_until_ns(71 * kMs);  // recorded 1 ms past the bound
  r = judge("client_anti_deadlock_probe", run, {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("never sent a probe: the handshake deadlocked") != std::string::npos, r.summary);
}

// Only the verdict that a later end could change says it rests on the
// end: conform check judges such a connection again once it has read the
// capture to its end.
BOOST_AUTO_TEST_CASE(only_a_verdict_within_the_bound_rests_on_the_capture_end) {
  quic_checks::QuicCaptures prepared;
  prepared.clients.push_back(acknowledged_hello().facts("client.pcap"));
  prepared.vantage = Vantage::client;
  prepared.observed_until_ns = 71 * kMs;
  auto r = judge("client_anti_deadlock_probe", quic_checks::QuicRun(prepared), {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(!prepared.rested_on_capture_end);
  prepared.observed_until_ns = 70 * kMs;
  r = judge("client_anti_deadlock_probe", quic_checks::QuicRun(prepared), {});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(prepared.rested_on_capture_end);
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
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
}

// ngtcp2's client in captures/ngtcp2/key-update.pcap (tshark): the server's
// whole flight arrives in frame 2 at 1.446 ms and acknowledges the
// ClientHello; the client acknowledges it at 14.579 ms (ACK only) and sends
// its Finished at 20.996 ms, nothing from the server in between. It held
// the flight and was checking it, with nothing in the server's way: no
// wait, so no probe was due, whatever twice the PTO of a 1.446 ms RTT is.
BOOST_AUTO_TEST_CASE(a_client_processing_the_whole_flight_is_not_waiting) {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 1'446'000, {initial(0, {ack(0, 0), crypto(0, 90)}), handshake(0, {crypto(0, 900)})});
  b.send(Side::client, 14'579'000, {handshake(0, {ack(0, 0)})});
  b.send(Side::client, 20'996'000, {handshake(1, {crypto(0, 36)})});
  b.send(Side::server, 21'300'000, {handshake(1, {ack(1, 1)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  BOOST_TEST(r.summary == "the client never waited with everything acknowledged before a Handshake ACK; 1 quiet "
                          "spell ended by the client's own new Handshake CRYPTO with no Initial or Handshake packet "
                          "arriving: it was processing what it held, not waiting",
             r.summary);
}

// quinn 0.9's server (captures/third-party/quinn-0.9, tshark): its flight in
// frame 2 at 7.142 ms, a 1-RTT NEW_CONNECTION_ID in frame 3 at 7.153 ms, the
// client's Finished in frame 4 at 7.158 ms. The 1-RTT packet gives the
// client nothing its Finished needs: still processing, not waiting.
BOOST_AUTO_TEST_CASE(a_1rtt_packet_arriving_meanwhile_does_not_make_it_a_wait) {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 7'142'000, {initial(0, {ack(0, 0), crypto(0, 90)}), handshake(0, {crypto(0, 711)})});
  b.send(Side::server, 7'153'000, {one_rtt(0, {ping()})});
  b.send(Side::client, 7'158'000, {initial(1, {ack(0, 0)}), handshake(0, {ack(0, 0), crypto(0, 52)})});
  b.send(Side::server, 12'000'000, {handshake(1, {ack(0, 0)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::not_exercised), r.summary);
  // A Handshake packet arriving in its place is what the Finished may have
  // waited for: a wait, judged (and within twice the PTO).
  TimelineBuilder waited;
  waited.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  waited.send(Side::server, 7'142'000, {initial(0, {ack(0, 0), crypto(0, 90)}), handshake(0, {crypto(0, 700)})});
  waited.send(Side::server, 7'153'000, {handshake(1, {crypto(700, 11)})});
  waited.send(Side::client, 7'158'000, {initial(1, {ack(0, 0)}), handshake(0, {ack(0, 1), crypto(0, 52)})});
  r = judge("client_anti_deadlock_probe", client_run(waited), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

// The same silence with the server's flight cut short (the server at its
// amplification limit): the client's first Handshake CRYPTO needs a server
// datagram that arrives only when the server resends, so it waited.
BOOST_AUTO_TEST_CASE(new_crypto_after_a_server_datagram_ends_a_wait) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::server, 100 * kMs, {handshake(0, {crypto(0, 400)})});
  b.send(Side::client, 100 * kMs, {handshake(0, {crypto(0, 36)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
}

// From a capture not at the client (a tap on the path), the same silence:
// the bound allows one more round trip (10 ms: the server's 10 ms reaction
// plus the client's immediate one), and the client's next Initial (1) and
// Handshake (0) packets follow on from its last ones, so nothing it sent
// went unseen: still a failure.
BOOST_AUTO_TEST_CASE(from_the_path_a_silence_beyond_the_widened_bound_still_fails) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::server, 100 * kMs, {handshake(0, {crypto(0, 400)})});
  b.send(Side::client, 100 * kMs, {handshake(0, {ack(0, 0), crypto(0, 36)})});
  auto run = client_run(b, Vantage::path);
  auto r = judge("client_anti_deadlock_probe", run, {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("sent no probe for 90.000 ms (bound 70.000 ms: twice the first PTO for an RTT of 10.000 "
                            "ms, plus 10.000 ms for the round trip a capture on the path between the endpoints "
                            "cannot see)") != std::string::npos,
             r.summary);
  // Within the widened bound: the client may have waited 55 ms only.
  TimelineBuilder shorter = acknowledged_hello();
  shorter.send(Side::client, 75 * kMs, {handshake(0, {ping(), padding(1100)})});
  auto in_bound = client_run(shorter, Vantage::path);
  r = judge("client_anti_deadlock_probe", in_bound, {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  // At the client the same 65 ms is beyond twice the PTO.
  r = judge("client_anti_deadlock_probe", client_run(shorter), {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
}

// A Handshake packet number skipped across the silence: a probe may have
// been sent and lost before the capture point. And a capture that ends in
// the silence shows no deadlock from there. Both NOT JUDGED, never FAIL.
BOOST_AUTO_TEST_CASE(from_the_path_a_silence_that_may_hide_a_lost_probe_is_not_judged) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::server, 100 * kMs, {handshake(0, {crypto(0, 400)})});
  b.send(Side::client, 100 * kMs, {handshake(1, {ack(0, 0), crypto(0, 36)})});
  auto run = client_run(b, Vantage::server);
  auto r = judge("client_anti_deadlock_probe", run, {});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(r.summary ==
                 "cannot judge: needs the client's own capture; client.pcap is judged as taken on the server's host: the "
                 "client's first handshake packet the capture shows is 1, at frame 5: what it sent before went "
                 "unseen (a probe, perhaps)",
             r.summary);
  auto ended = client_run(acknowledged_hello(), Vantage::path);
  r = judge("client_anti_deadlock_probe", ended, {});
  BOOST_TEST((r.verdict == Verdict::not_judged), r.summary);
  BOOST_TEST(r.summary.find("the capture ends in a quiet spell from frame 2, and a probe lost before the capture point "
                            "would not show") != std::string::npos,
             r.summary);
}

// From the server's host, a ClientHello in two datagrams (a post-quantum
// key share): the server acknowledges the first at once, and the second
// passes the capture right after, answering nothing. The round trip the
// capture cannot see is each side's first ACK (10 ms and 0 ms), not the 0
// ms between the server's reply and the client's next datagram, so 45 ms
// of silence is within the bound (before, the bound was 2 ms).
BOOST_AUTO_TEST_CASE(from_the_server_a_first_flight_of_two_datagrams_is_no_round_trip) {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 1100), padding(50)})});
  b.send(Side::server, 0, {initial(0, {ack(0, 0)})});
  b.send(Side::client, 0, {initial(1, {crypto(1100, 500), padding(600)})});
  b.send(Side::server, 0, {initial(1, {ack(0, 1), crypto(0, 90)})});
  b.send(Side::client, 10 * kMs, {initial(2, {ack(0, 1), padding(1100)})});
  b.send(Side::client, 45 * kMs, {handshake(0, {ping(), padding(1100)})});
  b.send(Side::server, 45 * kMs, {handshake(0, {ack(0, 0), crypto(0, 400)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b, Vantage::server), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary ==
                 "2 quiet spells with nothing unacknowledged before a Handshake ACK, the longest 45.000 ms (bound "
                 "70.000 ms: twice the first PTO for an RTT of 10.000 ms, plus 10.000 ms for the round trip a "
                 "capture on the server's host cannot see)",
             r.summary);
}

// From the server's host, its ACK of the ClientHello never reached the
// client: the client's later ACK covers the server's Initial 1, not 0
// (RFC 9000 §13.1). The client was never told everything was acknowledged
// by it, so its silence after it is no wait.
BOOST_AUTO_TEST_CASE(from_the_server_an_ack_lost_past_the_capture_starts_no_wait) {
  TimelineBuilder b;
  b.send(Side::client, 0, {initial(0, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 0, {initial(0, {ack(0, 0), crypto(0, 90)})});
  b.send(Side::client, 1000 * kMs, {initial(1, {crypto(0, 300), padding(900)})});
  b.send(Side::server, 1000 * kMs, {initial(1, {ack(0, 1), crypto(0, 90)})});
  b.send(Side::client, 1010 * kMs, {initial(2, {ack(1, 1), padding(1100)})});
  b.send(Side::client, 1040 * kMs, {handshake(0, {ping(), padding(1100)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b, Vantage::server), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  BOOST_TEST(r.summary.starts_with("1 quiet spell with nothing unacknowledged before a Handshake ACK, the longest "
                                   "40.000 ms"),
             r.summary);
}

// The client gives up and closes 30 ms into the silence (within twice the
// PTO, 60 ms): the spell ends there, and a capture that ends after the
// close shows no deadlock. A close after 90 ms of silence still fails.
BOOST_AUTO_TEST_CASE(a_closed_connection_is_not_waiting) {
  TimelineBuilder b = acknowledged_hello();
  b.send(Side::client, 40 * kMs, {initial(2, {connection_close(0x0a)})});
  auto r = judge("client_anti_deadlock_probe", client_run(b), {});
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  TimelineBuilder late = acknowledged_hello();
  late.send(Side::client, 100 * kMs, {initial(2, {connection_close(0x0a)})});
  r = judge("client_anti_deadlock_probe", client_run(late), {});
  BOOST_TEST((r.verdict == Verdict::fail), r.summary);
  BOOST_TEST(r.summary.find("until the client's CONNECTION_CLOSE at frame 4") != std::string::npos, r.summary);
}

BOOST_AUTO_TEST_SUITE_END()
