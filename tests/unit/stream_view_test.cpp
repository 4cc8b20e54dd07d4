// Per-stream views: initiator and directionality from the ID, distinct
// bytes with retransmissions counted once, FIN, reset, STOP_SENDING and
// flow control limits, on synthetic frames and on the ngtcp2 captures.
#include "capture/pcap_reader.hpp"
#include "dissect/dissector.hpp"
#include "dissect/stream_view.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <vector>

using namespace conform;
using namespace conform::dissect;

namespace {

Datagram datagram(std::uint64_t frame, Direction d, std::vector<Frame> frames) {
  Datagram dg;
  dg.frame = frame;
  dg.direction = d;
  Packet p;
  p.type = PacketType::one_rtt;
  p.packet_number = frame;
  p.frames = std::move(frames);
  dg.packets.push_back(std::move(p));
  return dg;
}

StreamFrame stream(std::uint64_t id, std::uint64_t offset, std::uint64_t length, bool fin = false) {
  StreamFrame s;
  s.stream_id = id;
  s.offset = offset;
  s.length = length;
  s.fin = fin;
  return s;
}

constexpr auto kC2S = Direction::client_to_server;
constexpr auto kS2C = Direction::server_to_client;

}  // namespace

BOOST_AUTO_TEST_SUITE(stream_view_test)

BOOST_AUTO_TEST_CASE(bytes_fin_reset_and_limits) {
  Connection c;
  c.datagrams.push_back(datagram(1, kC2S, {stream(0, 0, 100), stream(0, 200, 50)}));
  c.datagrams.push_back(datagram(2, kC2S, {stream(0, 50, 160)}));          // 50..210: 100 new
  c.datagrams.push_back(datagram(3, kC2S, {stream(0, 0, 250, true)}));     // all old
  c.datagrams.push_back(datagram(4, kS2C, {MaxStreamDataFrame{0, 1000}, stream(3, 0, 10),
                                           MaxStreamDataFrame{0, 500}, ResetStreamFrame{3, 9, 10}}));
  c.datagrams.push_back(datagram(5, kC2S, {StopSendingFrame{3, 7}, StreamDataBlockedFrame{0, 1000}}));
  const auto views = stream_views(c);
  BOOST_REQUIRE_EQUAL(views.size(), 2u);
  const StreamView& s0 = views[0];
  BOOST_TEST(s0.id == 0u);
  BOOST_TEST(s0.client_initiated());
  BOOST_TEST(s0.bidirectional());
  BOOST_TEST(s0.first_frame == 1u);
  const StreamFlow& up = s0.flow(kC2S);
  BOOST_TEST(up.unique_bytes == 250u);
  BOOST_TEST(up.sent_bytes == 100u + 50u + 160u + 250u);
  BOOST_TEST(up.stream_frames == 4u);
  BOOST_TEST(*up.fin_size == 250u);
  BOOST_TEST(*up.max_stream_data == 1000u);  // the highest, not the last
  BOOST_TEST(*up.blocked_at == 1000u);
  BOOST_TEST(up.last_frame == 5u);
  const StreamView& s3 = views[1];
  BOOST_TEST(!s3.client_initiated());
  BOOST_TEST(!s3.bidirectional());
  BOOST_TEST(s3.flow(kS2C).unique_bytes == 10u);
  BOOST_TEST(*s3.flow(kS2C).stop_sending_error == 7u);  // sent by the client about data towards it
  BOOST_TEST(s3.flow(kS2C).reset->error_code == 9u);
  BOOST_TEST(s3.flow(kS2C).reset->final_size == 10u);
  BOOST_TEST(!s3.flow(kC2S).first_frame);  // no data flows the other way on a uni stream
}

// Under loss every byte of every finished stream arrives, some of them
// twice: unique bytes must equal the final size exactly.
BOOST_AUTO_TEST_CASE(retransmissions_count_once_in_a_lossy_capture) {
  const std::string dir = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  const KeyLog keys = read_key_log(dir + "loss.keys");
  const Timeline t = dissect::dissect(read_capture(dir + "loss.pcap").datagrams, keys);
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  const auto views = stream_views(t.connections[0]);
  bool retransmitted = false, big = false;
  for (const auto& v : views)
    for (const auto& f : v.flows) {
      if (f.fin_size) BOOST_TEST(f.unique_bytes == *f.fin_size, "stream " << v.id);
      retransmitted |= f.sent_bytes > f.unique_bytes;
      big |= f.unique_bytes > 400000;
    }
  BOOST_TEST(retransmitted);
  BOOST_TEST(big);  // the 400 kB response
}

BOOST_AUTO_TEST_SUITE_END()

// HTTP/3's stream types, one variable-length integer (RFC 9114 §6.2,
// §11.2.4: reserved types are 0x1f·N + 0x21).
BOOST_AUTO_TEST_CASE(h3_stream_types_from_the_first_bytes) {
  using B = std::vector<std::uint8_t>;
  BOOST_TEST((h3_stream_type(B{0x00, 0x04}) == H3StreamType::control));
  BOOST_TEST((h3_stream_type(B{0x01}) == H3StreamType::push));
  BOOST_TEST((h3_stream_type(B{0x02}) == H3StreamType::qpack_encoder));
  BOOST_TEST((h3_stream_type(B{0x03}) == H3StreamType::qpack_decoder));
  BOOST_TEST((h3_stream_type(B{0x21}) == H3StreamType::reserved));
  BOOST_TEST((h3_stream_type(B{0x40, 0x40}) == H3StreamType::reserved));  // 0x40 = 0x1f·1 + 0x21
  BOOST_TEST((h3_stream_type(B{0x40, 0x00}) == H3StreamType::control));   // a two-byte encoding of 0
  BOOST_TEST((h3_stream_type(B{0x22}) == H3StreamType::unknown));
  BOOST_TEST(!h3_stream_type(B{0x40}).has_value());  // two bytes announced, one seen
  BOOST_TEST(!h3_stream_type(B{}).has_value());
  BOOST_TEST(never_ends(H3StreamType::control));
  BOOST_TEST(never_ends(H3StreamType::reserved));
  BOOST_TEST(!never_ends(H3StreamType::push));
  BOOST_TEST(!never_ends(H3StreamType::none));
}

// tshark on handshake.pcap (`-e quic.stream.stream_id -e quic.stream_data
// -e tls.handshake.extensions_alpn_str`): ALPN h3; the server's streams 3,
// 7 and 11 begin 00, 02 and 03; the client's 2, 6 and 10 likewise; the
// request stream 0 is bidirectional.
BOOST_AUTO_TEST_CASE(h3_streams_of_a_capture_are_told_by_their_type) {
  const std::string dir = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  const Timeline t =
      dissect::dissect(read_capture(dir + "handshake.pcap").datagrams, read_key_log(dir + "handshake.keys"));
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  BOOST_TEST(t.connections[0].alpn == "h3");
  std::map<std::uint64_t, H3StreamType> types;
  for (const auto& v : stream_views(t.connections[0])) types[v.id] = v.h3;
  BOOST_TEST((types == std::map<std::uint64_t, H3StreamType>{{0, H3StreamType::none},
                                                             {2, H3StreamType::control},
                                                             {3, H3StreamType::control},
                                                             {6, H3StreamType::qpack_encoder},
                                                             {7, H3StreamType::qpack_encoder},
                                                             {10, H3StreamType::qpack_decoder},
                                                             {11, H3StreamType::qpack_decoder}}));
}

// Without HTTP/3's ALPN, the first bytes of a unidirectional stream are the
// application's own: a stream of zeros is no control stream.
BOOST_AUTO_TEST_CASE(streams_of_another_protocol_have_no_h3_type) {
  Connection c;
  c.alpn = "conform";
  c.uni_stream_heads[3] = {0x00, 0x00};
  c.datagrams.push_back(datagram(1, kS2C, {stream(3, 0, 2)}));
  BOOST_TEST((stream_views(c).at(0).h3 == H3StreamType::none));
  c.alpn = "h3";
  BOOST_TEST((stream_views(c).at(0).h3 == H3StreamType::control));
}
