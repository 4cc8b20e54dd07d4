// The recovery faults a suite's mutants switch on (RecoveryConfig's
// pto_backoff, anti_deadlock, pto_reset_on_any_ack and
// pto_reset_on_initial_ack; the knobs of those names, anti_deadlock_probe
// for anti_deadlock): each breaks
// exactly the RFC 9002 rule it names, in the values of quic_recovery_test's
// hand-worked examples (no RTT sample: PTO = 333 + 4 * 166.5 = 999 ms).
#include <boost/test/unit_test.hpp>

#include "recovery/recovery.hpp"

using namespace conform::quic;

namespace {

Instant at_ms(int64_t ms) { return Instant::from_nanos(ms * 1'000'000); }

SentPacket initial_packet(uint64_t pn, int64_t sent_ms) {
  SentPacket p;
  p.pn = pn;
  p.time_sent = at_ms(sent_ms);
  p.bytes = p.datagram_bytes = 1200;
  p.ack_eliciting = p.in_flight = true;
  return p;
}

RecoveryContext early_client() {
  RecoveryContext c;
  c.peer_completed_address_validation = false;
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_recovery_faults_test)

BOOST_AUTO_TEST_CASE(without_backoff_the_pto_period_stays_the_same) {
  // §6.2.1 asks 999, then 2 * 999 after the same packet; the fault keeps 999.
  RecoveryConfig config;
  config.pto_backoff = false;
  Recovery rec(config);
  const RecoveryContext ctx = early_client();
  rec.on_packet_sent(Space::initial, initial_packet(0, 0));
  rec.set_timer(at_ms(0), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(999)));
  const auto t = rec.on_timeout(at_ms(999), ctx);
  BOOST_TEST(t.probe.has_value());
  BOOST_TEST(rec.pto_count() == 0);
  rec.on_packet_sent(Space::initial, initial_packet(1, 999));
  rec.set_timer(at_ms(999), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(1998)));
}

BOOST_AUTO_TEST_CASE(without_the_anti_deadlock_rule_a_client_with_nothing_in_flight_has_no_timer) {
  // §6.2.2.1 arms the PTO at 10 + 999 ms (quic_recovery_test); the fault none.
  RecoveryConfig config;
  config.anti_deadlock = false;
  Recovery rec(config);
  RecoveryContext ctx = early_client();
  ctx.has_handshake_keys = true;
  rec.set_timer(at_ms(10), ctx);
  BOOST_TEST(rec.next_timeout().is_never());
  // Packets in flight are still probed for as usual.
  rec.on_packet_sent(Space::initial, initial_packet(0, 20));
  rec.set_timer(at_ms(20), ctx);
  BOOST_TEST((rec.next_timeout() == at_ms(1019)));
}

BOOST_AUTO_TEST_CASE(an_ack_of_nothing_new_resets_the_backoff_only_with_the_fault) {
  // A server (address validated): packet 0 at 0 is acknowledged at 10, so
  // the next ACK repeating [0, 0] acknowledges nothing new. Packet 1 at 20
  // is probed at 20 + 999; after that probe the period is 2 * 999, and
  // §6.2.1 / A.7 keep it so when the stale ACK arrives. The fault resets it.
  for (const bool fault : {false, true}) {
    RecoveryConfig config;
    config.pto_reset_on_any_ack = fault;
    Recovery rec(config);
    RecoveryContext ctx;
    ctx.is_server = true;
    AckFrame ack0;
    ack0.ranges = {{0, 0}};
    rec.on_packet_sent(Space::initial, initial_packet(0, 0));
    BOOST_TEST_REQUIRE(rec.on_ack_received(Space::initial, ack0, Duration{}, at_ms(10), ctx).ok());
    rec.on_packet_sent(Space::initial, initial_packet(1, 20));
    rec.set_timer(at_ms(20), ctx);
    const Duration pto = rec.pto_period(Space::initial);
    BOOST_TEST((rec.next_timeout() == at_ms(20) + pto));
    rec.on_timeout(at_ms(20) + pto, ctx);
    BOOST_TEST(rec.pto_count() == 1);
    const auto stale = rec.on_ack_received(Space::initial, ack0, Duration{}, at_ms(20) + pto, ctx);
    BOOST_TEST_REQUIRE(stale.ok());
    BOOST_TEST(stale.value().acked.empty());
    BOOST_TEST(rec.pto_count() == (fault ? 0 : 1), fault);
    BOOST_TEST((rec.next_timeout() == at_ms(20) + pto * (fault ? 1 : 2)), fault);
  }
}

BOOST_AUTO_TEST_CASE(an_initial_ack_resets_a_clients_backoff_only_with_the_fault) {
  // A client not yet sure the server validated its address: packet 0 at 0
  // is probed at 999 (packet 1), packet 1 acknowledged at 1100. §6.2.1: the
  // backoff stays (pto_count 1) across that Initial ACK; the fault (quiche#2683)
  // resets it.
  for (const bool fault : {false, true}) {
    RecoveryConfig config;
    config.pto_reset_on_initial_ack = fault;
    Recovery rec(config);
    const RecoveryContext ctx = early_client();
    rec.on_packet_sent(Space::initial, initial_packet(0, 0));
    rec.set_timer(at_ms(0), ctx);
    rec.on_timeout(at_ms(999), ctx);
    rec.on_packet_sent(Space::initial, initial_packet(1, 999));
    BOOST_TEST(rec.pto_count() == 1);
    AckFrame ack1;
    ack1.ranges = {{1, 1}};
    const auto acked = rec.on_ack_received(Space::initial, ack1, Duration{}, at_ms(1100), ctx);
    BOOST_TEST_REQUIRE(acked.ok());
    BOOST_TEST(acked.value().acked.size() == 1u);
    BOOST_TEST(rec.pto_count() == (fault ? 0 : 1), fault);
  }
}

BOOST_AUTO_TEST_CASE(discarding_keys_resets_the_backoff_only_without_the_fault) {
  // A.11: packet 0 probed at 999 (pto_count 1), then the Initial space is
  // discarded: pto_count 0; the fault (quiche#2690) keeps 1.
  for (const bool fault : {false, true}) {
    RecoveryConfig config;
    config.pto_reset_on_key_discard = !fault;
    Recovery rec(config);
    const RecoveryContext ctx = early_client();
    rec.on_packet_sent(Space::initial, initial_packet(0, 0));
    rec.set_timer(at_ms(0), ctx);
    rec.on_timeout(at_ms(999), ctx);
    BOOST_TEST(rec.pto_count() == 1);
    rec.discard(Space::initial);
    BOOST_TEST(rec.pto_count() == (fault ? 1 : 0), fault);
  }
}

BOOST_AUTO_TEST_SUITE_END()
