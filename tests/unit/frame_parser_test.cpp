// Every frame type of RFC 9000 §19 and RFC 9221 §4 with its fields, and the
// malformed encodings the parser must record instead of decoding.
#include "dissect/frame_format.hpp"

#include "dissect/frame_parser.hpp"
#include "unit/quic_packet_builder.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

using namespace conform::dissect;
using conform::test::hex;

namespace {

// The single frame `bytes` must hold.
template <class F>
F only(const char* bytes) {
  const Bytes payload = hex(bytes);
  const auto frames = parse_frames(payload);
  BOOST_REQUIRE_EQUAL(frames.size(), 1u);
  const F* f = std::get_if<F>(&frames[0]);
  BOOST_REQUIRE_MESSAGE(f, "parsed as " << describe_frame(frames[0]));
  return *f;
}

MalformedFrame malformed(const char* bytes, std::size_t frames_before = 0) {
  const Bytes payload = hex(bytes);
  const auto frames = parse_frames(payload);
  BOOST_REQUIRE_EQUAL(frames.size(), frames_before + 1);
  const auto* f = std::get_if<MalformedFrame>(&frames.back());
  BOOST_REQUIRE_MESSAGE(f, "parsed as " << describe_frame(frames.back()));
  return *f;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frame_parser_test)

BOOST_AUTO_TEST_CASE(padding_runs_and_ping) {
  const auto frames = parse_frames(hex("0000000100"));
  BOOST_REQUIRE_EQUAL(frames.size(), 3u);
  BOOST_TEST(std::get<PaddingFrame>(frames[0]).count == 3u);
  BOOST_TEST(std::holds_alternative<PingFrame>(frames[1]));
  BOOST_TEST(std::get<PaddingFrame>(frames[2]).count == 1u);
}

BOOST_AUTO_TEST_CASE(ack_ranges_and_ecn) {
  // Largest 10, delay 3, 1 extra range, first range 2 (8-10), gap 1, length 1 -> 4-5.
  auto ack = only<AckFrame>("020a03010201 01");
  BOOST_TEST(ack.largest == 10u);
  BOOST_TEST(ack.ack_delay == 3u);
  BOOST_REQUIRE_EQUAL(ack.ranges.size(), 2u);
  BOOST_TEST(ack.ranges[0].smallest == 8u);
  BOOST_TEST(ack.ranges[0].largest == 10u);
  BOOST_TEST(ack.ranges[1].largest == 5u);
  BOOST_TEST(ack.ranges[1].smallest == 4u);
  BOOST_TEST(!ack.ecn.has_value());
  auto ecn = only<AckFrame>("03050000 00 010203");
  BOOST_REQUIRE(ecn.ecn.has_value());
  BOOST_TEST(ecn.ecn->ect0 == 1u);
  BOOST_TEST(ecn.ecn->ect1 == 2u);
  BOOST_TEST(ecn.ecn->ce == 3u);
  BOOST_TEST(describe_frame(Frame{ack}) == "ACK 8-10,4-5 delay=3");
}

BOOST_AUTO_TEST_CASE(stream_control_frames) {
  auto rs = only<ResetStreamFrame>("04 04 4100 4400");
  BOOST_TEST(rs.stream_id == 4u);
  BOOST_TEST(rs.error_code == 0x100u);
  BOOST_TEST(rs.final_size == 0x400u);
  auto ss = only<StopSendingFrame>("05 08 07");
  BOOST_TEST(ss.stream_id == 8u);
  BOOST_TEST(ss.error_code == 7u);
  BOOST_TEST(only<MaxDataFrame>("10 80010000").maximum == 65536u);
  auto msd = only<MaxStreamDataFrame>("11 01 4400");
  BOOST_TEST(msd.stream_id == 1u);
  BOOST_TEST(msd.maximum == 1024u);
  auto msb = only<MaxStreamsFrame>("12 4064");
  BOOST_TEST(msb.bidi);
  BOOST_TEST(msb.maximum == 100u);
  auto msu = only<MaxStreamsFrame>("13 03");
  BOOST_TEST(!msu.bidi);
  BOOST_TEST(msu.maximum == 3u);
  BOOST_TEST(only<DataBlockedFrame>("14 4400").limit == 1024u);
  auto sdb = only<StreamDataBlockedFrame>("15 02 10");
  BOOST_TEST(sdb.stream_id == 2u);
  BOOST_TEST(sdb.limit == 16u);
  auto sb = only<StreamsBlockedFrame>("16 05");
  BOOST_TEST(sb.bidi);
  BOOST_TEST(sb.limit == 5u);
  BOOST_TEST(!only<StreamsBlockedFrame>("17 05").bidi);
}

BOOST_AUTO_TEST_CASE(crypto_token_and_stream_data) {
  const Bytes payload = hex("06 05 03 aabbcc");
  const auto frames = parse_frames(payload);
  const auto& c = std::get<CryptoFrame>(frames.at(0));
  BOOST_TEST(c.offset == 5u);
  BOOST_TEST(c.length == 3u);
  BOOST_TEST(c.data_at == 3u);
  BOOST_TEST(to_hex(only<NewTokenFrame>("07 02 abcd").token) == "abcd");

  // 0x0f: OFF, LEN, FIN.
  auto s = only<StreamFrame>("0f 04 4100 02 6869");
  BOOST_TEST(s.stream_id == 4u);
  BOOST_TEST(s.offset == 256u);
  BOOST_TEST(s.length == 2u);
  BOOST_TEST(s.fin);
  BOOST_TEST(*frame_type(Frame{s}) == 0x0fu);
  // 0x08: no offset, no length: the data runs to the end of the packet.
  auto bare = only<StreamFrame>("08 00 616263");
  BOOST_TEST(bare.offset == 0u);
  BOOST_TEST(bare.length == 3u);
  BOOST_TEST(!bare.has_length);
  BOOST_TEST(!bare.fin);
}

BOOST_AUTO_TEST_CASE(connection_id_path_close_handshake_done_datagram) {
  auto ncid = only<NewConnectionIdFrame>("18 02 01 04 01020304 00112233445566778899aabbccddeeff");
  BOOST_TEST(ncid.sequence == 2u);
  BOOST_TEST(ncid.retire_prior_to == 1u);
  BOOST_TEST(to_hex(ncid.connection_id) == "01020304");
  BOOST_TEST(to_hex(ncid.reset_token) == "00112233445566778899aabbccddeeff");
  BOOST_TEST(only<RetireConnectionIdFrame>("19 03").sequence == 3u);
  BOOST_TEST(to_hex(only<PathChallengeFrame>("1a 0102030405060708").data) == "0102030405060708");
  BOOST_TEST(to_hex(only<PathResponseFrame>("1b 0102030405060708").data) == "0102030405060708");
  auto close = only<ConnectionCloseFrame>("1c 0a 08 03 626164");
  BOOST_TEST(!close.application);
  BOOST_TEST(close.error_code == 0x0au);
  BOOST_TEST(*close.frame_type == 8u);
  BOOST_TEST(close.reason == "bad");
  auto app = only<ConnectionCloseFrame>("1d 4100 00");
  BOOST_TEST(app.application);
  BOOST_TEST(app.error_code == 0x100u);
  BOOST_TEST(!app.frame_type.has_value());
  only<HandshakeDoneFrame>("1e");
  auto dg = only<DatagramFrame>("31 02 abcd");
  BOOST_TEST(dg.length == 2u);
  BOOST_TEST(dg.has_length);
  auto dg_rest = only<DatagramFrame>("30 abcdef");
  BOOST_TEST(dg_rest.length == 3u);
  BOOST_TEST(!dg_rest.has_length);
}

BOOST_AUTO_TEST_CASE(every_type_has_its_name_and_value) {
  const std::pair<const char*, const char*> cases[] = {
      {"00", "PADDING"}, {"01", "PING"}, {"0200000000", "ACK"}, {"04000000", "RESET_STREAM"},
      {"050000", "STOP_SENDING"}, {"060000", "CRYPTO"}, {"070100", "NEW_TOKEN"}, {"0a0000", "STREAM"},
      {"1000", "MAX_DATA"}, {"110000", "MAX_STREAM_DATA"}, {"1200", "MAX_STREAMS"},
      {"1400", "DATA_BLOCKED"}, {"150000", "STREAM_DATA_BLOCKED"}, {"1700", "STREAMS_BLOCKED"},
      {"1800000101 00000000000000000000000000000000", "NEW_CONNECTION_ID"},
      {"1900", "RETIRE_CONNECTION_ID"}, {"1a0000000000000000", "PATH_CHALLENGE"},
      {"1b0000000000000000", "PATH_RESPONSE"}, {"1c000000", "CONNECTION_CLOSE"},
      {"1e", "HANDSHAKE_DONE"}, {"1f", "IMMEDIATE_ACK"}, {"3100", "DATAGRAM"}};
  for (const auto& [bytes, name] : cases) {
    const Bytes payload = hex(bytes);
    const auto frames = parse_frames(payload);
    BOOST_REQUIRE_EQUAL(frames.size(), 1u);
    BOOST_TEST(frame_name(frames[0]) == name);
    BOOST_TEST(*frame_type(frames[0]) == payload[0]);
    BOOST_TEST(frame_to_json(frames[0])["type"] == name);
  }
}

// An extension's frame (here 0xaf, ACK_FREQUENCY, which the dissector does
// not decode) is named unknown, not malformed: parsing stops at it because
// its length is unknown, and the frames before it stand.
BOOST_AUTO_TEST_CASE(unknown_frame_types_are_shown_as_unknown_not_malformed) {
  const Bytes payload = hex("01 40af 0102");
  const auto frames = parse_frames(payload);
  BOOST_REQUIRE_EQUAL(frames.size(), 2u);
  BOOST_TEST(frame_name(frames[0]) == "PING");
  const auto* unknown = std::get_if<UnknownFrame>(&frames[1]);
  BOOST_REQUIRE(unknown);
  BOOST_TEST(unknown->type == 0xafu);
  BOOST_TEST(unknown->offset == 1u);
  BOOST_TEST(unknown->remaining == 4u);
  BOOST_TEST(frame_name(frames[1]) == "UNKNOWN");
  BOOST_TEST(*frame_type(frames[1]) == 0xafu);
  BOOST_TEST(describe_frame(frames[1]) == "UNKNOWN type=0xaf at 1 (4 bytes, not parsed)");
}

// quinn 0.11's probe: IMMEDIATE_ACK, PING, PADDING in one packet.
BOOST_AUTO_TEST_CASE(immediate_ack_is_named_and_parsing_goes_on) {
  const Bytes payload = hex("1f 01 000000");
  const auto frames = parse_frames(payload);
  BOOST_REQUIRE_EQUAL(frames.size(), 3u);
  BOOST_TEST(describe_frame(frames[0]) == "IMMEDIATE_ACK");
  BOOST_TEST(frame_name(frames[1]) == "PING");
  BOOST_TEST(describe_frame(frames[2]) == "PADDING×3");
  BOOST_TEST(frame_to_json(frames[0])["type_value"] == 0x1f);
}

BOOST_AUTO_TEST_CASE(malformed_frames_are_recorded_not_skipped) {
  BOOST_TEST(malformed("").reason.find("no frame") != std::string::npos);
  BOOST_TEST(malformed("4001").reason.find("shortest encoding") != std::string::npos);
  BOOST_TEST(malformed("0f 04 4100 05 6869").reason.find("past the end") != std::string::npos);
  BOOST_TEST(malformed("06 00 05 01").reason.find("past the end") != std::string::npos);
  BOOST_TEST(malformed("02 05 00 00 06").reason.find("First ACK Range") != std::string::npos);
  BOOST_TEST(malformed("02 05 00 01 01 04 00").reason.find("below packet number 0") != std::string::npos);
  BOOST_TEST(malformed("02 05 00").reason.find("cut short") != std::string::npos);
  BOOST_TEST(malformed("12 d000000000000001").reason.find("2^60") != std::string::npos);
  BOOST_TEST(malformed("17 d000000000000001").reason.find("2^60") != std::string::npos);
  BOOST_TEST(malformed("18 01 02 04 01020304 00112233445566778899aabbccddeeff").reason.find("Retire Prior To") !=
             std::string::npos);
  BOOST_TEST(malformed("18 01 00 15 00").reason.find("outside 1..20") != std::string::npos);
  BOOST_TEST(malformed("18 01 00 00").reason.find("outside 1..20") != std::string::npos);
  BOOST_TEST(malformed("18 01 00 02 0102 0011").reason.find("Reset Token cut short") != std::string::npos);
  BOOST_TEST(malformed("07 00").reason.find("empty token") != std::string::npos);
  BOOST_TEST(malformed("1a 0102").reason.find("cut short") != std::string::npos);
  BOOST_TEST(malformed("1c 00 00 05 6869").reason.find("Reason Phrase") != std::string::npos);
  BOOST_TEST(malformed("0e c000000000000001 ffffffffffffffff 01 00").reason.find("2^62") != std::string::npos);
  BOOST_TEST(malformed("31 03 01").reason.find("past the end") != std::string::npos);
  // A huge ACK Range Count must not be trusted for an allocation.
  BOOST_TEST(malformed("02 05 00 bfffffffffffffff 00 00 00").reason.find("cut short") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
