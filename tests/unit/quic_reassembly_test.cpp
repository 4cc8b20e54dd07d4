// Receive-side bookkeeping: stream reassembly with final sizes (RFC 9000
// §2.2, §4.5), send-side retransmission ranges, merged range sets, and the
// ACK frames built from received packet numbers (§13.2, §19.3).
#include <boost/test/unit_test.hpp>

#include "connection/ack_tracker.hpp"
#include "connection/recv_buffer.hpp"
#include "connection/send_buffer.hpp"

using namespace conform::quic;

namespace {

Bytes bytes_of(const char* s) { return Bytes(s, s + std::char_traits<char>::length(s)); }

std::string read_string(RecvBuffer& b) {
  uint8_t buf[64];
  const size_t n = b.read(buf);
  return std::string(buf, buf + n);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_reassembly_test)

BOOST_AUTO_TEST_CASE(out_of_order_and_overlapping_data_reassembles) {
  RecvBuffer b;
  BOOST_TEST(b.insert(6, bytes_of("world"), true).ok());
  BOOST_TEST(b.readable() == 0u);
  BOOST_TEST(b.insert(3, bytes_of("lo wo"), false).ok());  // overlaps both sides
  BOOST_TEST(b.insert(0, bytes_of("hel"), false).ok());
  BOOST_TEST(b.insert(0, bytes_of("hel"), false).ok());    // duplicate
  BOOST_TEST(b.readable() == 11u);
  BOOST_TEST(read_string(b) == "hello world");
  BOOST_TEST(b.finished());
  BOOST_TEST(b.highest_received() == 11u);
}

BOOST_AUTO_TEST_CASE(final_size_violations_are_errors) {
  RecvBuffer b;
  BOOST_TEST(b.insert(0, bytes_of("abcdef"), false).ok());
  auto lower = b.insert(0, bytes_of("abc"), true);  // final size below data received
  BOOST_TEST((!lower.ok() && lower.error().is(TransportErrorCode::final_size_error)));
  BOOST_TEST(b.insert(0, bytes_of("abcdefgh"), true).ok());
  BOOST_TEST(!b.insert(8, bytes_of("x"), false).ok());    // beyond the final size
  BOOST_TEST(!b.insert(0, bytes_of("abcdefg"), true).ok());  // a different final size
  BOOST_TEST(b.insert(2, bytes_of("cd"), false).ok());    // within it: fine
}

BOOST_AUTO_TEST_CASE(partial_reads_keep_the_rest) {
  RecvBuffer b;
  BOOST_TEST(b.insert(0, bytes_of("abcdefghij"), false).ok());
  uint8_t buf[4];
  BOOST_TEST(b.read(buf) == 4u);
  BOOST_TEST(b.read_offset() == 4u);
  BOOST_TEST(read_string(b) == "efghij");
  BOOST_TEST(b.insert(2, bytes_of("cdefghijkl"), false).ok());  // only "kl" is new
  BOOST_TEST(read_string(b) == "kl");
}

BOOST_AUTO_TEST_CASE(send_buffer_resends_only_what_was_lost_and_unacked) {
  SendBuffer s;
  s.write(bytes_of("0123456789"));
  s.finish();
  auto c = s.peek(4, 100);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->offset == 0u);
  BOOST_TEST(c->data.size() == 4u);
  s.on_sent(0, 4, false);
  c = s.peek(100, 100);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->fin);
  s.on_sent(4, 6, true);
  BOOST_TEST(!s.peek(100, 100));
  s.on_acked(2, 2, false);
  s.on_lost(0, 4, false);  // bytes 2-3 were acked meanwhile
  c = s.peek(100, 100);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->offset == 0u);
  BOOST_TEST(c->data.size() == 2u);
  s.on_sent(0, 2, false);
  s.on_acked(0, 2, false);
  s.on_acked(4, 6, true);
  BOOST_TEST(s.all_acked());
}

BOOST_AUTO_TEST_CASE(flow_limit_stops_new_data_only) {
  SendBuffer s;
  s.write(Bytes(100, 1));
  auto c = s.peek(1000, 30);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->data.size() == 30u);
  s.on_sent(0, 30, false);
  BOOST_TEST(!s.peek(1000, 30));
  BOOST_TEST(s.blocked_at(30));
}

BOOST_AUTO_TEST_CASE(range_sets_merge) {
  RangeSet r;
  BOOST_TEST(r.insert(10, 20) == 10u);
  BOOST_TEST(r.insert(30, 40) == 10u);
  BOOST_TEST(r.insert(15, 35) == 10u);  // bridges both
  BOOST_TEST(r.size() == 1u);
  BOOST_TEST(r.contains(39));
  BOOST_TEST(!r.contains(40));
  BOOST_TEST(r.contiguous_end(10) == 40u);
  r.remove_below(25);
  BOOST_TEST(r.ranges().begin()->first == 25u);
}

BOOST_AUTO_TEST_CASE(ack_frames_list_ranges_largest_first) {
  AckTracker t;
  const Instant t0 = Instant::from_nanos(1'000'000);
  for (uint64_t pn : {0, 1, 2, 5, 6, 7, 10}) t.on_packet_received(pn, true, t0);
  BOOST_TEST(t.ack_due());
  BOOST_TEST(t.is_duplicate(6));
  BOOST_TEST(!t.is_duplicate(8));
  auto a = t.build(t0 + Duration::micros(800), 3);
  BOOST_REQUIRE(a);
  BOOST_REQUIRE(a->ranges.size() == 3u);
  BOOST_TEST(a->ranges[0].largest == 10u);
  BOOST_TEST(a->ranges[0].smallest == 10u);
  BOOST_TEST(a->ranges[1].largest == 7u);
  BOOST_TEST(a->ranges[1].smallest == 5u);
  BOOST_TEST(a->ranges[2].smallest == 0u);
  BOOST_TEST(a->ack_delay == 100u);  // 800 us >> 3
  t.on_ack_sent();
  BOOST_TEST(!t.ack_due());
  t.on_packet_received(11, false, t0);
  BOOST_TEST(!t.ack_due());  // not ack-eliciting
  BOOST_TEST(t.has_new());
}

BOOST_AUTO_TEST_SUITE_END()
