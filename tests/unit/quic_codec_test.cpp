// The in-house QUIC codec: varints (RFC 9000 §16 and its Appendix A.1
// examples), packet numbers (Appendix A.2/A.3), headers (§17) and frames
// (§19), including malformed input.
#include <boost/test/unit_test.hpp>

#include "codec/frame.hpp"
#include "codec/packet_header.hpp"
#include "codec/packet_number.hpp"
#include "unit/quic_hex.hpp"

using namespace conform::quic;
using conform::quic::test::from_hex;
using conform::quic::test::to_hex;

namespace {

// Decoded frames borrow from the buffer, so it outlives the call (until the
// next one).
Frame round_trip(const Frame& f) {
  static Bytes buf;
  buf.clear();
  Writer w(buf);
  encode_frame(w, f);
  Reader r(buf);
  auto decoded = decode_frame(r);
  BOOST_REQUIRE_MESSAGE(decoded.ok(), (decoded.ok() ? std::string() : decoded.error().reason));
  BOOST_CHECK(r.empty());
  return decoded.value();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_codec_test)

BOOST_AUTO_TEST_CASE(varints_decode_the_rfc_examples) {
  // RFC 9000 Appendix A.1's sample encodings.
  const std::pair<const char*, uint64_t> cases[] = {
      {"c2197c5eff14e88c", 151288809941952652ull}, {"9d7f3e7d", 494878333},
      {"7bbd", 15293}, {"25", 37}, {"4025", 37}};
  for (auto [hex, value] : cases) {
    const auto bytes = from_hex(hex);
    Reader r(bytes);
    uint64_t v = 0;
    BOOST_TEST(r.varint(v));
    BOOST_TEST(v == value);
    BOOST_TEST(r.empty());
  }
  Bytes out;
  Writer w(out);
  w.varint(151288809941952652ull);
  w.varint(494878333);
  w.varint(15293);
  w.varint(37);
  BOOST_TEST(to_hex(out) == "c2197c5eff14e88c9d7f3e7d7bbd25");
  BOOST_TEST(varint_size(kMaxVarint) == 8u);
  BOOST_TEST(varint_size(kMaxVarint + 1) == 0u);
}

BOOST_AUTO_TEST_CASE(truncated_varints_are_refused) {
  const auto bytes = from_hex("c2197c");
  Reader r(bytes);
  uint64_t v;
  BOOST_TEST(!r.varint(v));
}

BOOST_AUTO_TEST_CASE(packet_numbers_follow_appendix_a) {
  // A.2: 0xac5c02 acked, sending 0xabe8b3 → 2 bytes; sending 0xace8fe → 3.
  BOOST_TEST(packet_number_length(0xac5c02, 0xabe8b3) == 2u);
  BOOST_TEST(packet_number_length(0xace8fe, 0xabe8b3) == 3u);
  BOOST_TEST(packet_number_length(0, -1) == 1u);
  // A.3: largest received 0xa82f30ea, 16-bit truncated 0x9b32 → 0xa82f9b32.
  BOOST_TEST(decode_packet_number(0xa82f30ea, 0x9b32, 2) == 0xa82f9b32u);
  BOOST_TEST(decode_packet_number(-1, 0, 1) == 0u);
  BOOST_TEST(decode_packet_number(254, 0x01, 1) == 257u);
  BOOST_TEST(decode_packet_number(257, 0xff, 1) == 255u);
}

BOOST_AUTO_TEST_CASE(long_and_short_headers_round_trip) {
  HeaderSpec spec;
  spec.type = PacketType::initial;
  spec.dcid = ConnectionId(from_hex("8394c8f03e515708"));
  spec.scid = ConnectionId(from_hex("0102"));
  const auto token = from_hex("aabb");
  spec.token = token;
  spec.pn = 2;
  spec.pn_len = 4;
  Bytes out;
  const size_t pn_offset = write_packet_header(out, spec);
  out.resize(out.size() + 20);  // payload
  set_long_length(out, pn_offset, 4 + 20);
  auto h = parse_packet_header(out, 0);
  BOOST_REQUIRE(h);
  BOOST_TEST((h->type == PacketType::initial));
  BOOST_TEST((h->dcid == spec.dcid));
  BOOST_TEST((h->scid == spec.scid));
  BOOST_TEST(to_hex(h->token) == "aabb");
  BOOST_TEST(h->pn_offset == pn_offset);
  BOOST_TEST(h->length == out.size());

  HeaderSpec s1;
  s1.dcid = ConnectionId(from_hex("0011223344556677"));
  s1.pn_len = 2;
  Bytes short_pkt;
  BOOST_TEST(write_packet_header(short_pkt, s1) == 9u);
  auto h1 = parse_packet_header(short_pkt, 8);
  BOOST_REQUIRE(h1);
  BOOST_TEST((h1->type == PacketType::one_rtt));
  BOOST_TEST((h1->dcid == s1.dcid));
}

BOOST_AUTO_TEST_CASE(malformed_headers_are_dropped_not_fatal) {
  BOOST_TEST(!parse_packet_header({}, 8));
  BOOST_TEST(!parse_packet_header(from_hex("c000000001"), 0));               // truncated
  BOOST_TEST(!parse_packet_header(from_hex("c00000000115"), 0));             // DCID length 21
  BOOST_TEST(!parse_packet_header(from_hex("c0000000010000004100"), 0));     // Length past end
  BOOST_TEST(!parse_packet_header(from_hex("0011"), 8));                     // fixed bit clear
  auto vn = parse_packet_header(from_hex("80000000000000aabbccdd"), 0);
  BOOST_REQUIRE(vn);
  BOOST_TEST((vn->type == PacketType::version_negotiation));
}

BOOST_AUTO_TEST_CASE(every_sent_frame_round_trips) {
  const auto data = from_hex("68656c6c6f");
  const auto s = std::get<StreamFrame>(round_trip(StreamFrame{4, 1000, data, true}));
  BOOST_TEST(s.stream_id == 4u);
  BOOST_TEST(s.offset == 1000u);
  BOOST_TEST(to_hex(s.data) == "68656c6c6f");
  BOOST_TEST(s.fin);
  const auto c = std::get<CryptoFrame>(round_trip(CryptoFrame{7, data}));
  BOOST_TEST(c.offset == 7u);
  BOOST_TEST(std::get<MaxStreamsFrame>(round_trip(MaxStreamsFrame{false, 150})).maximum == 150u);
  BOOST_TEST(!std::get<MaxStreamsFrame>(round_trip(MaxStreamsFrame{false, 150})).bidi);
  BOOST_TEST(std::get<StreamsBlockedFrame>(round_trip(StreamsBlockedFrame{false, 100})).limit == 100u);
  BOOST_TEST(std::get<MaxDataFrame>(round_trip(MaxDataFrame{1 << 20})).maximum == 1u << 20);
  BOOST_TEST(std::get<DataBlockedFrame>(round_trip(DataBlockedFrame{77})).limit == 77u);
  const auto sdb = std::get<StreamDataBlockedFrame>(round_trip(StreamDataBlockedFrame{3, 9}));
  BOOST_TEST((sdb.stream_id == 3u && sdb.limit == 9u));
  const auto rs = std::get<ResetStreamFrame>(round_trip(ResetStreamFrame{2, 5, 300}));
  BOOST_TEST((rs.stream_id == 2u && rs.error_code == 5u && rs.final_size == 300u));
  BOOST_TEST(std::get<StopSendingFrame>(round_trip(StopSendingFrame{6, 1})).error_code == 1u);
  const auto cc = std::get<ConnectionCloseFrame>(
      round_trip(ConnectionCloseFrame{false, 0x04, 0x08, "too many streams"}));
  BOOST_TEST(cc.error_code == 0x04u);
  BOOST_TEST(cc.frame_type == 0x08u);
  BOOST_TEST(cc.reason == "too many streams");
  BOOST_TEST(std::holds_alternative<HandshakeDoneFrame>(round_trip(HandshakeDoneFrame{})));
  BOOST_TEST(std::holds_alternative<PingFrame>(round_trip(PingFrame{})));
  BOOST_TEST(std::get<PaddingFrame>(round_trip(PaddingFrame{30})).length == 30u);
}

BOOST_AUTO_TEST_CASE(ack_ranges_encode_gaps_as_the_rfc_counts_them) {
  // Acknowledge 0-2, 5-7 and 10: §19.3.1 Gap = unacked - 1, Range = acked - 1.
  AckFrame a;
  a.ranges = {{10, 10}, {5, 7}, {0, 2}};
  a.ack_delay = 3;
  Bytes buf;
  Writer w(buf);
  encode_frame(w, a);
  // type 02, largest 10, delay 3, count 2, first 0, gap 1 len 2, gap 1 len 2.
  BOOST_TEST(to_hex(buf) == "020a03020001020102");
  Reader r(buf);
  auto back = decode_frame(r);
  BOOST_REQUIRE(back.ok());
  const auto& ranges = std::get<AckFrame>(back.value()).ranges;
  BOOST_REQUIRE(ranges.size() == 3u);
  BOOST_TEST(ranges[1].smallest == 5u);
  BOOST_TEST(ranges[1].largest == 7u);
  BOOST_TEST(ranges[2].smallest == 0u);
}

BOOST_AUTO_TEST_CASE(malformed_frames_are_frame_encoding_errors) {
  const char* bad[] = {
      "02050001",        // ACK truncated
      "020100000a",      // ACK first range below zero
      "0201000100050a",  // ACK gap below zero
      "0a0405aa",        // STREAM length past the packet
      "1380000000ffffffff",  // a valid MAX_STREAMS(0), 4-byte varint
      "13d000000000000001",  // MAX_STREAMS over 2^60
      "0600050102",      // CRYPTO truncated
      "18010220",        // NEW_CONNECTION_ID bad length / truncated
      "40ff",            // unknown frame type 0xff
      "1c0a",            // CONNECTION_CLOSE truncated
  };
  size_t errors = 0;
  for (const char* hex : bad) {
    const auto bytes = from_hex(hex);
    Reader r(bytes);
    auto f = decode_frame(r);
    if (!f.ok()) {
      ++errors;
      BOOST_TEST(f.error().is(TransportErrorCode::frame_encoding_error));
    }
  }
  // Only the fifth decodes (non-minimal varints are legal, §16).
  BOOST_TEST(errors == std::size(bad) - 1);
}

BOOST_AUTO_TEST_CASE(random_bytes_never_crash_the_decoder) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 20000; ++i) {
    Bytes buf(1 + i % 40);
    for (auto& b : buf) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b = static_cast<uint8_t>(x);
    }
    Reader r(buf);
    while (!r.empty()) {
      auto f = decode_frame(r);
      if (!f.ok()) break;
    }
    (void)parse_packet_header(buf, 8);
  }
}

BOOST_AUTO_TEST_SUITE_END()
