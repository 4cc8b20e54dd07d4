// The BBR-style controller's parts in numbers: delivery rate samples
// (draft-cheng-iccrg-delivery-rate-estimation §3), the windowed maximum
// bandwidth filter, and the state machine of draft-ietf-ccwg-bbr (Startup,
// Drain, ProbeBW's gain cycle, ProbeRTT) with the window and pacing rate
// each sets. Every expected value is worked by hand in the comments.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <ostream>
#include <vector>

#include "recovery/bbr.hpp"
#include "recovery/delivery_rate.hpp"
#include "recovery/windowed_filter.hpp"

using namespace conform::quic;

namespace conform::quic {
inline std::ostream& operator<<(std::ostream& o, Duration d) { return o << d.ns << " ns"; }
inline std::ostream& operator<<(std::ostream& o, BbrState s) { return o << static_cast<int>(s); }
}  // namespace conform::quic

namespace {

Instant at_ms(double ms) { return Instant::from_nanos(static_cast<int64_t>(ms * 1e6)); }
Duration ms(double v) { return Duration::nanos(static_cast<int64_t>(v * 1e6)); }
bool near(double a, double b) { return std::fabs(a - b) < 1e-6 * std::max(1.0, std::fabs(b)); }

SentPacket packet(uint64_t pn, double sent_ms, size_t bytes = 1200) {
  SentPacket p;
  p.pn = pn;
  p.time_sent = at_ms(sent_ms);
  p.bytes = bytes;
  p.ack_eliciting = p.in_flight = true;
  return p;
}

/// A path the test plays by hand: each round sends `n` datagrams of 1200
/// bytes at once and one ACK acknowledges them all.
struct Driver {
  Bbr bbr{CongestionParams{}, 1200};
  RttEstimator rtt;
  uint64_t pn = 0;
  void round(double send_ms, double ack_ms, int n = 10) {
    std::vector<SentPacket> flight;
    for (int i = 0; i < n; ++i) {
      SentPacket p = packet(pn++, send_ms);
      bbr.on_packet_sent(at_ms(send_ms), p);
      flight.push_back(p);
    }
    rtt.update(ms(ack_ms - send_ms), ms(0), ms(25), true);
    bbr.on_packets_acked(at_ms(ack_ms), flight, rtt);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_bbr_test)

BOOST_AUTO_TEST_CASE(delivery_rate_samples) {
  DeliveryRateSampler s;
  SentPacket p0 = packet(0, 0, 1000), p1 = packet(1, 10, 1000);
  s.on_packet_sent(at_ms(0), 0, p0);  // nothing in flight: the flight starts at 0
  s.on_packet_sent(at_ms(10), 1000, p1);
  BOOST_TEST(p1.delivery.delivered == 0u);
  BOOST_TEST((p1.delivery.first_sent_time == at_ms(0)));
  // p0 acknowledged at 100: send_elapsed 0 - 0, ack_elapsed 100 - 0, so
  // 1000 bytes over 100 ms = 10000 bytes/s.
  RateSample rs = s.on_ack(at_ms(100), {p0}, Duration{});
  BOOST_TEST(rs.valid);
  BOOST_TEST(rs.delivered == 1000u);
  BOOST_TEST(rs.interval == ms(100));
  BOOST_TEST(rs.delivery_rate == 10000.0);
  BOOST_TEST(rs.rtt == ms(100));
  // p2 leaves at 100 stamped delivered 1000 at 100, flight begun at p0's 0.
  SentPacket p2 = packet(2, 100, 1000);
  s.on_packet_sent(at_ms(100), 1000, p2);
  BOOST_TEST(p2.delivery.delivered == 1000u);
  BOOST_TEST((p2.delivery.delivered_time == at_ms(100)));
  // p1 and p2 acknowledged at 200: the sample follows p2, the newer:
  // delivered 3000 - 1000 over max(100 - 0, 200 - 100) = 100 ms.
  rs = s.on_ack(at_ms(200), {p1, p2}, ms(100));
  BOOST_TEST(rs.prior_delivered == 1000u);
  BOOST_TEST(rs.delivered == 2000u);
  BOOST_TEST(rs.delivery_rate == 20000.0);
  BOOST_TEST(s.delivered() == 3000u);
  // An interval shorter than min_rtt is no measurement (ACK compression).
  SentPacket p3 = packet(3, 250, 1000);
  s.on_packet_sent(at_ms(250), 0, p3);
  rs = s.on_ack(at_ms(300), {p3}, ms(100));
  BOOST_TEST(rs.acked);
  BOOST_TEST(!rs.valid);
  // Not in flight (ACK-only): no sample at all.
  SentPacket ack_only = packet(4, 300, 50);
  ack_only.in_flight = false;
  BOOST_TEST(!s.on_ack(at_ms(400), {ack_only}, ms(100)).acked);
}

BOOST_AUTO_TEST_CASE(app_limited_marks_samples_until_the_flight_is_delivered) {
  DeliveryRateSampler s;
  SentPacket p0 = packet(0, 0, 1000);
  s.on_packet_sent(at_ms(0), 0, p0);
  s.on_app_limited(1000);  // C.app_limited = delivered 0 + in flight 1000
  SentPacket p1 = packet(1, 5, 1000);
  s.on_packet_sent(at_ms(5), 1000, p1);
  BOOST_TEST(!p0.delivery.app_limited);
  BOOST_TEST(p1.delivery.app_limited);
  BOOST_TEST(!s.on_ack(at_ms(100), {p0}, Duration{}).app_limited);
  BOOST_TEST(s.app_limited());  // delivered 1000, not above 1000
  BOOST_TEST(s.on_ack(at_ms(105), {p1}, Duration{}).app_limited);
  BOOST_TEST(!s.app_limited());  // delivered 2000 > 1000
}

BOOST_AUTO_TEST_CASE(windowed_max_filter_over_rounds) {
  WindowedMaxFilter f(3);  // a value of round r counts through round r + 2
  BOOST_TEST(f.best() == 0.0);
  f.update(10, 1);
  f.update(5, 2);
  f.update(7, 3);
  BOOST_TEST(f.best() == 10.0);
  f.update(6, 4);  // round 1 left the window: max(5, 7, 6)
  BOOST_TEST(f.best() == 7.0);
  f.update(4, 4);  // below round 4's 6: changes nothing
  f.update(2, 6);  // rounds 2 and 3 left: max(6, 2)
  BOOST_TEST(f.best() == 6.0);
  f.update(1, 7);  // round 4 left: max(2, 1)
  BOOST_TEST(f.best() == 2.0);
  f.update(9, 7);
  BOOST_TEST(f.best() == 9.0);
}

BOOST_AUTO_TEST_CASE(startup_drain_probe_bw_probe_rtt) {
  Driver d;
  // Before any sample: 10 * 1200 bytes, paced at 2.77 * 12000 / 100 ms.
  BOOST_TEST(d.bbr.state() == BbrState::startup);
  BOOST_TEST(d.bbr.window() == 12000u);
  BOOST_TEST(near(d.bbr.pacing_rate(ms(100)), 332400));
  // Round 1: 12000 bytes in 100 ms = 120000 bytes/s, min_rtt 100 ms, BDP
  // 12000. Window: Startup adds the bytes acked while below 2 * BDP + 3 *
  // 1200 = 27600: 24000. Pacing: 2.77 * 120000 * 0.99 = 329076 is below
  // the initial 332400, and Startup never lowers it.
  d.round(0, 100);
  BOOST_TEST(d.bbr.round_count() == 1u);
  BOOST_TEST(d.bbr.max_bw() == 120000.0);
  BOOST_TEST(d.bbr.min_rtt() == ms(100));
  BOOST_TEST(d.bbr.bdp(1) == 12000u);
  BOOST_TEST(d.bbr.window() == 24000u);
  BOOST_TEST(near(d.bbr.pacing_rate(ms(100)), 332400));
  // Rounds 2-4 at the same rate: no 25 % growth for three rounds fills the
  // pipe at round 4. Round 2 still grows the window (24000 < 27600): 36000;
  // round 3 does not (36000 >= 27600). Round 4: Drain, and with nothing in
  // flight (<= BDP) straight on to ProbeBW at its first cruise phase.
  d.round(100, 200);
  BOOST_TEST(d.bbr.window() == 36000u);
  d.round(200, 300);
  BOOST_TEST(!d.bbr.filled_pipe());
  BOOST_TEST(d.bbr.window() == 36000u);
  d.round(300, 400);
  BOOST_TEST(d.bbr.filled_pipe());
  BOOST_TEST(d.bbr.state() == BbrState::probe_bw);
  BOOST_TEST(d.bbr.cycle_index() == 2u);
  // A full pipe caps the window at cwnd_gain 2 * BDP + 3 * 1200 = 27600
  // and paces at 1 * 120000 * 0.99.
  BOOST_TEST(d.bbr.window() == 27600u);
  BOOST_TEST(near(d.bbr.pacing_rate(ms(100)), 118800));
  // ProbeBW: each phase lasts more than min_rtt (ACKs 150 ms apart): six
  // rounds walk phases 3..7 and back to 0, the 1.25 probe.
  for (int i = 0; i < 6; ++i) d.round(450 + 150 * i, 550 + 150 * i);
  BOOST_TEST(d.bbr.cycle_index() == 0u);
  BOOST_TEST(d.bbr.pacing_gain() == 1.25);
  BOOST_TEST(near(d.bbr.pacing_rate(ms(100)), 148500));  // 1.25 * 120000 * 0.99
  // Probing up lasts until 1.25 * BDP = 15000 bytes are in flight or a
  // loss says there is no room: 12000 in flight and no loss, it stays.
  d.round(1350, 1450);
  BOOST_TEST(d.bbr.cycle_index() == 0u);
  // A loss ends it (and is otherwise no congestion signal: same window).
  d.bbr.on_congestion_event(at_ms(1590), at_ms(1500), 1200);
  d.round(1500, 1600);
  BOOST_TEST(d.bbr.cycle_index() == 1u);
  BOOST_TEST(near(d.bbr.pacing_rate(ms(100)), 89100));  // 0.75 * 120000 * 0.99
  BOOST_TEST(d.bbr.window() == 27600u);
  // Probing down ends once no more than a BDP (12000) is in flight, even
  // before its min_rtt is over (1700 - 1600 is not more than 100 ms).
  d.round(1600, 1700);
  BOOST_TEST(d.bbr.cycle_index() == 2u);
  // 10 s later with no new minimum: min_rtt expired, the 120 ms sample
  // replaces it and ProbeRTT starts. Its window: max(0.5 * 120000 * 0.12,
  // 4 * 1200) = 7200 (the bandwidth filter still holds 120000 from round 5 on).
  d.round(11800, 11920);
  BOOST_TEST(d.bbr.state() == BbrState::probe_rtt);
  BOOST_TEST(d.bbr.min_rtt() == ms(120));
  BOOST_TEST(d.bbr.window() == 7200u);
  // Nothing was in flight, so the 200 ms began at 11920; a round ending at
  // 12140 >= 12120 ends ProbeRTT: the window saved on entry (27600) comes
  // back, grows by the 6000 bytes acked, capped at 2 * 120000 * 0.12 + 3600 = 32400.
  d.round(11920, 12140, 5);
  BOOST_TEST(d.bbr.state() == BbrState::probe_bw);
  BOOST_TEST(d.bbr.window() == 32400u);
  // Persistent congestion: 4 datagrams.
  d.bbr.on_persistent_congestion();
  BOOST_TEST(d.bbr.window() == 4800u);
}

BOOST_AUTO_TEST_SUITE_END()
