// RFC 9002 in numbers: the RTT estimator (§5), loss detection by packet
// and time threshold (§6.1), the PTO timer with backoff and the client's
// anti-deadlock rule (§6.2), and NewReno's window (§7, Appendix B). Every
// expected value is worked by hand from the RFC's formulas in the comments.
#include <boost/test/unit_test.hpp>

#include <ostream>
#include <utility>

#include "recovery/congestion.hpp"
#include "recovery/recovery.hpp"

using namespace conform::quic;

namespace conform::quic {
// Boost.Test prints the values of a failed comparison.
inline std::ostream& operator<<(std::ostream& o, Duration d) { return o << d.ns << " ns"; }
}  // namespace conform::quic

namespace {

Instant at_ms(double ms) { return Instant::from_nanos(static_cast<int64_t>(ms * 1e6)); }
Duration ms(double v) { return Duration::nanos(static_cast<int64_t>(v * 1e6)); }

SentPacket packet(uint64_t pn, double sent_ms, size_t bytes = 1200) {
  SentPacket p;
  p.pn = pn;
  p.time_sent = at_ms(sent_ms);
  p.bytes = bytes;
  p.datagram_bytes = bytes;
  p.ack_eliciting = true;
  p.in_flight = true;
  return p;
}

AckFrame ack(uint64_t smallest, uint64_t largest) {
  AckFrame a;
  a.ranges.push_back({smallest, largest});
  return a;
}

RecoveryContext confirmed_server() {
  RecoveryContext c;
  c.is_server = true;
  c.handshake_confirmed = true;
  return c;
}

RecoveryContext early_client() {
  RecoveryContext c;
  c.peer_completed_address_validation = false;
  return c;
}

RecoveryConfig config() {
  RecoveryConfig c;
  c.max_ack_delay = ms(25);
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_recovery_test)

BOOST_AUTO_TEST_CASE(rtt_estimator_follows_section_5) {
  RttEstimator r;
  // §6.2.2: kInitialRtt 333 ms, rttvar = 333 / 2.
  BOOST_TEST(r.smoothed() == ms(333));
  BOOST_TEST(r.rttvar() == ms(166.5));
  // First sample: taken as is, ack delay ignored (§5.3).
  r.update(ms(100), ms(10), ms(25), true);
  BOOST_TEST(r.min() == ms(100));
  BOOST_TEST(r.smoothed() == ms(100));
  BOOST_TEST(r.rttvar() == ms(50));
  // 120 ms with 10 ms ack delay: 120 >= min 100 + 10, adjusted 110;
  // rttvar = 3/4 * 50 + 1/4 * |100 - 110| = 40; smoothed = 7/8 * 100 + 1/8 * 110 = 101.25.
  r.update(ms(120), ms(10), ms(25), true);
  BOOST_TEST(r.rttvar() == ms(40));
  BOOST_TEST(r.smoothed() == ms(101.25));
  // 105 ms with 30 ms ack delay, limited to max_ack_delay 25 once
  // confirmed: 105 < 100 + 25, so not subtracted; rttvar = 30 + 3.75 / 4 =
  // 30.9375; smoothed = 7/8 * 101.25 + 105 / 8 = 101.71875.
  r.update(ms(105), ms(30), ms(25), true);
  BOOST_TEST(r.rttvar() == ms(30.9375));
  BOOST_TEST(r.smoothed() == ms(101.71875));
  BOOST_TEST(r.latest() == ms(105));
  BOOST_TEST(r.min() == ms(100));
}

BOOST_AUTO_TEST_CASE(ack_delay_is_not_limited_before_confirmation) {
  RttEstimator r(ms(50));
  BOOST_TEST(r.smoothed() == ms(50));
  BOOST_TEST(r.rttvar() == ms(25));
  r.update(ms(100), ms(0), ms(25), false);
  // 200 ms with a 60 ms delay, max_ack_delay 25 not yet binding: adjusted
  // 140; smoothed = 7/8 * 100 + 140 / 8 = 105; rttvar = 3/4 * 50 + 40 / 4 = 47.5.
  r.update(ms(200), ms(60), ms(25), false);
  BOOST_TEST(r.smoothed() == ms(105));
  BOOST_TEST(r.rttvar() == ms(47.5));
}

BOOST_AUTO_TEST_CASE(loss_by_packet_and_time_threshold) {
  Recovery rec(config());
  const RecoveryContext ctx = confirmed_server();
  for (uint64_t pn = 0; pn < 5; ++pn) rec.on_packet_sent(Space::application, packet(pn, static_cast<double>(pn)));
  BOOST_TEST(rec.congestion().bytes_in_flight() == 6000u);
  // ACK of pn 4 at 104 ms: sample 100 ms; pn 0 and 1 are 3 or more below
  // the largest acknowledged (kPacketThreshold); pn 2 and 3 are not, and
  // loss_delay = 9/8 * 100 = 112.5 ms has not passed since they were sent.
  auto out = rec.on_ack_received(Space::application, ack(4, 4), ms(0), at_ms(104), ctx);
  BOOST_REQUIRE(out.ok());
  BOOST_REQUIRE(out.value().acked.size() == 1u);
  BOOST_REQUIRE(out.value().lost.size() == 2u);
  BOOST_TEST(out.value().lost[0].pn == 0u);
  BOOST_TEST(out.value().lost[1].pn == 1u);
  // The loss timer: pn 2 sent at 2 ms is lost at 2 + 112.5 = 114.5 ms.
  BOOST_TEST((rec.next_timeout() == at_ms(114.5)));
  auto t = rec.on_timeout(at_ms(114.5), ctx);
  BOOST_TEST(!t.probe.has_value());
  BOOST_REQUIRE(t.lost.size() == 1u);
  BOOST_TEST(t.lost[0].second.pn == 2u);
  BOOST_TEST((rec.next_timeout() == at_ms(115.5)));  // pn 3
  BOOST_TEST(rec.congestion().bytes_in_flight() == 1200u);
}

BOOST_AUTO_TEST_CASE(ack_of_unsent_packet_is_a_protocol_violation) {
  Recovery rec(config());
  rec.on_packet_sent(Space::initial, packet(0, 0));
  auto out = rec.on_ack_received(Space::initial, ack(0, 1), ms(0), at_ms(10), confirmed_server());
  BOOST_REQUIRE(!out.ok());
  BOOST_TEST(out.error().code == static_cast<uint64_t>(TransportErrorCode::protocol_violation));
}

BOOST_AUTO_TEST_CASE(pto_backs_off_exponentially) {
  Recovery rec(config());
  const RecoveryContext ctx = early_client();
  // No sample: PTO = 333 + max(4 * 166.5, 1) = 999 ms after the Initial.
  rec.on_packet_sent(Space::initial, packet(0, 0));
  rec.set_timer(at_ms(0), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(999)));
  auto t = rec.on_timeout(at_ms(999), ctx);
  BOOST_REQUIRE(t.probe.has_value());
  BOOST_TEST((*t.probe == Space::initial));
  BOOST_TEST(rec.pto_count() == 1);
  // Backoff: 2 * 999 after the last ack-eliciting packet (still pn 0).
  BOOST_TEST((rec.next_timeout() == at_ms(1998)));
  rec.on_packet_sent(Space::initial, packet(1, 999));
  rec.set_timer(at_ms(999), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(2997)));
  rec.on_timeout(at_ms(2997), ctx);
  BOOST_TEST(rec.pto_count() == 2);
  BOOST_TEST((rec.next_timeout() == at_ms(999 + 4 * 999)));
}

BOOST_AUTO_TEST_CASE(client_initial_ack_does_not_reset_the_backoff) {
  // §6.2.1: the client resets pto_count only once the server has validated
  // its address (a Handshake ACK); an Initial ACK does not do it.
  Recovery rec(config());
  RecoveryContext ctx = early_client();
  rec.on_packet_sent(Space::initial, packet(0, 0));
  rec.on_packet_sent(Space::initial, packet(1, 0));
  rec.set_timer(at_ms(0), ctx);
  rec.on_timeout(at_ms(999), ctx);
  BOOST_TEST(rec.pto_count() == 1);
  auto out = rec.on_ack_received(Space::initial, ack(1, 1), ms(0), at_ms(1000), ctx);
  BOOST_REQUIRE(out.ok());
  BOOST_TEST(rec.pto_count() == 1);
  ctx.peer_completed_address_validation = true;
  rec.on_packet_sent(Space::handshake, packet(0, 1001));
  BOOST_REQUIRE(rec.on_ack_received(Space::handshake, ack(0, 0), ms(0), at_ms(1002), ctx).ok());
  BOOST_TEST(rec.pto_count() == 0);
}

BOOST_AUTO_TEST_CASE(one_rtt_pto_adds_max_ack_delay_and_waits_for_confirmation) {
  Recovery rec(config());
  RecoveryContext ctx = confirmed_server();
  rec.on_packet_sent(Space::application, packet(0, 0));
  BOOST_REQUIRE(rec.on_ack_received(Space::application, ack(0, 0), ms(0), at_ms(100), ctx).ok());
  // smoothed 100, rttvar 50: PTO = 100 + 200 + max_ack_delay 25 = 325 ms.
  BOOST_TEST(rec.pto_period(Space::application) == ms(325));
  BOOST_TEST(rec.pto_period(Space::handshake) == ms(300));
  rec.on_packet_sent(Space::application, packet(1, 200));
  rec.set_timer(at_ms(200), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(525)));
  ctx.handshake_confirmed = false;  // §6.2.1: no 1-RTT PTO before confirmation
  rec.set_timer(at_ms(200), ctx);
  BOOST_TEST(rec.next_timeout().is_never());
}

BOOST_AUTO_TEST_CASE(anti_deadlock_pto_with_nothing_in_flight) {
  // §6.2.2.1: a client whose address is not validated keeps a PTO armed
  // with nothing in flight, in Handshake once it has those keys.
  Recovery rec(config());
  RecoveryContext ctx = early_client();
  rec.set_timer(at_ms(10), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(1009)));
  rec.set_timer(at_ms(500), ctx);  // later events do not push it back
  BOOST_TEST((rec.next_timeout() == at_ms(1009)));
  ctx.has_handshake_keys = true;
  auto t = rec.on_timeout(at_ms(1009), ctx);
  BOOST_REQUIRE(t.probe.has_value());
  BOOST_TEST((*t.probe == Space::handshake));
  BOOST_TEST((rec.next_timeout() == at_ms(1009 + 2 * 999)));
  // A validated client or a server with nothing in flight has no timer...
  ctx.peer_completed_address_validation = true;
  rec.set_timer(at_ms(1100), ctx);
  BOOST_TEST(rec.next_timeout().is_never());
  // ...nor a server at its anti-amplification limit, whatever is in flight.
  RecoveryContext blocked = confirmed_server();
  blocked.amplification_blocked = true;
  rec.on_packet_sent(Space::initial, packet(0, 1100));
  rec.set_timer(at_ms(1100), blocked);
  BOOST_TEST(rec.next_timeout().is_never());
}

BOOST_AUTO_TEST_CASE(discarding_a_space_forgets_its_packets) {
  Recovery rec(config());
  rec.on_packet_sent(Space::initial, packet(0, 0));
  rec.on_packet_sent(Space::handshake, packet(0, 0, 500));
  BOOST_TEST(rec.congestion().bytes_in_flight() == 1700u);
  rec.discard(Space::initial);
  BOOST_TEST(rec.congestion().bytes_in_flight() == 500u);
  BOOST_TEST(rec.ack_eliciting_in_flight(Space::initial) == 0u);
  BOOST_TEST(rec.ack_eliciting_in_flight() == 1u);
}

BOOST_AUTO_TEST_CASE(initial_window_is_capped_at_14720_bytes_or_two_datagrams) {
  // RFC 9002 §7.2: min(10 * max_datagram_size, max(14720, 2 * max_datagram_size)).
  BOOST_TEST(initial_window(10, 1200) == 12000u);   // ten datagrams, under the cap
  BOOST_TEST(initial_window(10, 1472) == 14720u);   // exactly the cap
  BOOST_TEST(initial_window(10, 8940) == 17880u);   // two jumbo datagrams, not 89400
  BOOST_TEST(initial_window(1, 8940) == 8940u);     // fewer datagrams: their size
  BOOST_TEST(initial_window(20, 1472) == 29440u);   // the cap scales with the count
  // Both controllers and the pacer's burst start from it.
  const std::pair<size_t, uint64_t> sizes[] = {{1200, 12000}, {1472, 14720}, {8940, 17880}};
  for (const auto& [mds, expected] : sizes) {
    BOOST_TEST(NewReno(CongestionParams{}, mds).window() == expected, mds);
    BOOST_TEST(make_congestion_controller(CongestionControl::bbr, CongestionParams{}, mds)->window() == expected, mds);
  }
}

BOOST_AUTO_TEST_CASE(new_reno_window_arithmetic) {
  NewReno cc(CongestionParams{}, 1200);
  BOOST_TEST(cc.window() == 12000u);  // 10 * 1200
  BOOST_TEST(cc.minimum_window() == 2400u);
  for (uint64_t pn = 0; pn < 3; ++pn) {
    SentPacket p = packet(pn, 0);
    cc.on_packet_sent(at_ms(0), p);
  }
  cc.on_packet_acked(1200, at_ms(0));  // slow start: + bytes acked
  BOOST_TEST(cc.window() == 13200u);
  cc.on_congestion_event(at_ms(10), at_ms(1), 1200);
  BOOST_TEST(cc.ssthresh() == 6600u);  // 13200 * 0.5
  BOOST_TEST(cc.window() == 6600u);
  cc.on_congestion_event(at_ms(11), at_ms(5), 1200);  // sent before recovery began: same period
  BOOST_TEST(cc.window() == 6600u);
  cc.on_packet_acked(1200, at_ms(2));  // sent before recovery: no growth
  BOOST_TEST(cc.window() == 6600u);
  // Congestion avoidance: + one datagram per window of bytes acknowledged.
  for (int i = 0; i < 5; ++i) cc.on_packet_acked(1200, at_ms(20));
  BOOST_TEST(cc.window() == 6600u);  // 6000 < 6600 acked
  cc.on_packet_acked(1200, at_ms(20));
  BOOST_TEST(cc.window() == 7800u);
  cc.set_app_limited(true);  // §7.8: an underused window does not grow
  SentPacket p = packet(3, 25);
  cc.on_packet_sent(at_ms(25), p);
  cc.on_packet_acked(1200, at_ms(30));
  BOOST_TEST(cc.window() == 7800u);
  cc.set_app_limited(false);
  cc.on_persistent_congestion();
  BOOST_TEST(cc.window() == 2400u);
  BOOST_TEST(cc.bytes_in_flight() == 0u);
}

BOOST_AUTO_TEST_CASE(persistent_congestion_collapses_the_window) {
  Recovery rec(config());
  const RecoveryContext ctx = confirmed_server();
  rec.on_packet_sent(Space::application, packet(0, 0));
  BOOST_REQUIRE(rec.on_ack_received(Space::application, ack(0, 0), ms(0), at_ms(100), ctx).ok());
  BOOST_TEST(rec.congestion().window() == 13200u);
  const double sent[] = {200, 700, 1200, 1250, 1300, 1301};
  for (uint64_t pn = 1; pn <= 6; ++pn) rec.on_packet_sent(Space::application, packet(pn, sent[pn - 1]));
  // ACK of pn 6 at 1401: sample 100, smoothed 100, rttvar 37.5; loss_delay
  // 112.5 ms loses pn 1-4 (sent up to 1250); they span 1050 ms, more than
  // 3 * (100 + 4 * 37.5 + 25) = 825 ms with nothing acknowledged between.
  auto out = rec.on_ack_received(Space::application, ack(6, 6), ms(0), at_ms(1401), ctx);
  BOOST_REQUIRE(out.ok());
  BOOST_TEST(out.value().lost.size() == 4u);
  BOOST_TEST(out.value().persistent_congestion);
  BOOST_TEST(rec.persistent_congestion_duration() == ms(825));
  // Window: 13200 halved to ssthresh 6600, then the minimum 2400, then
  // pn 6 acknowledged in slow start: 3600.
  BOOST_TEST(dynamic_cast<const NewReno&>(rec.congestion()).ssthresh() == 6600u);
  BOOST_TEST(rec.congestion().window() == 3600u);
}

BOOST_AUTO_TEST_CASE(pacing_spreads_a_window_over_the_rtt) {
  // 12000-byte window, 100 ms RTT: 1.25 * 12000 / 0.1 s = 150000 bytes/s.
  Pacer p(2400);
  NewReno cc(CongestionParams{}, 1200);
  const double rate = cc.pacing_rate(ms(100));
  BOOST_TEST(rate == 150000.0);
  BOOST_TEST((p.release_time(at_ms(0), 1200, rate) == at_ms(0)));
  p.on_sent(at_ms(0), 1200, rate);
  p.on_sent(at_ms(0), 1200, rate);
  // Empty bucket: 1200 bytes take 8 ms to refill.
  const Instant next = p.release_time(at_ms(0), 1200, rate);
  BOOST_TEST(next.ns >= at_ms(8).ns);
  BOOST_TEST(next.ns <= at_ms(8).ns + 1000);
}

BOOST_AUTO_TEST_SUITE_END()
