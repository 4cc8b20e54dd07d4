// QPACK without a dynamic table (RFC 9204) and the Huffman code it borrows
// from HPACK (RFC 7541 Appendix B), against the RFCs' example encodings;
// HTTP/3 frame splitting (RFC 9114 §7.1).
#include <boost/test/unit_test.hpp>

#include "h3/frame.hpp"
#include "h3/huffman.hpp"
#include "h3/qpack.hpp"
#include "unit/quic_hex.hpp"

using namespace conform::quic;
using namespace conform::quic::h3;
using conform::quic::test::from_hex;
using conform::quic::test::to_hex;

BOOST_AUTO_TEST_SUITE(h3_qpack_test)

BOOST_AUTO_TEST_CASE(huffman_decodes_the_rfc_7541_examples) {
  // RFC 7541 C.4.1-C.4.3 and C.6.1.
  BOOST_TEST(*huffman_decode(from_hex("f1e3c2e5f23a6ba0ab90f4ff")) == "www.example.com");
  BOOST_TEST(*huffman_decode(from_hex("a8eb10649cbf")) == "no-cache");
  BOOST_TEST(*huffman_decode(from_hex("25a849e95ba97d7f")) == "custom-key");
  BOOST_TEST(*huffman_decode(from_hex("25a849e95bb8e8b4bf")) == "custom-value");
  BOOST_TEST(*huffman_decode(from_hex("6402")) == "302");
  BOOST_TEST(*huffman_decode(from_hex("aec3771a4b")) == "private");
  BOOST_TEST(*huffman_decode(ByteView()) == "");
}

BOOST_AUTO_TEST_CASE(huffman_refuses_bad_padding_and_eos) {
  // "0" is 00000: padded with 111 it is 0x07; padded with zeros it is not.
  BOOST_TEST(*huffman_decode(from_hex("07")) == "0");
  BOOST_TEST(!huffman_decode(from_hex("00")).has_value());        // 3 zero bits of padding
  BOOST_TEST(!huffman_decode(from_hex("07ff")).has_value());      // 8 bits of padding
  BOOST_TEST(!huffman_decode(from_hex("fffffffc")).has_value());  // EOS (30 ones) inside
}

BOOST_AUTO_TEST_CASE(encoding_uses_the_static_table_and_raw_literals) {
  // :method GET is static entry 17 (indexed, 0xc0|17); :path has a name
  // reference to entry 1 (0x50|1) and a literal value; x-custom is all
  // literal, its length 8 overflowing the 3-bit prefix (0x20|7, then 1).
  const Bytes section = qpack_encode({{":method", "GET"}, {":path", "/index.html"}, {"x-custom", "v"}});
  BOOST_TEST(to_hex(section) == "0000d1510b2f696e6465782e68746d6c2701782d637573746f6d0176");
  const auto back = qpack_decode(section);
  BOOST_REQUIRE(back.has_value());
  BOOST_TEST(back->size() == 3u);
  BOOST_TEST((*back)[1].value == "/index.html");
  BOOST_TEST((*back)[2].name == "x-custom");
}

BOOST_AUTO_TEST_CASE(decoding_reads_huffman_literals_and_long_integers) {
  // Literal with name reference to :authority (0), Huffman value (H = 0x80,
  // length 12) "www.example.com"; then static index 98 (0xff 0x23: 63 + 35).
  const auto fields = qpack_decode(from_hex("0000508cf1e3c2e5f23a6ba0ab90f4ffff23"));
  BOOST_REQUIRE(fields.has_value());
  BOOST_TEST((*fields)[0].name == ":authority");
  BOOST_TEST((*fields)[0].value == "www.example.com");
  BOOST_TEST((*fields)[1].name == "x-frame-options");
  BOOST_TEST((*fields)[1].value == "sameorigin");
}

BOOST_AUTO_TEST_CASE(dynamic_table_references_fail_decompression) {
  BOOST_TEST(!qpack_decode(from_hex("0100d1")).has_value());    // Required Insert Count 1
  BOOST_TEST(!qpack_decode(from_hex("000080")).has_value());    // indexed, T = 0 (dynamic)
  BOOST_TEST(!qpack_decode(from_hex("000010")).has_value());    // indexed post-base
  BOOST_TEST(!qpack_decode(from_hex("000000")).has_value());    // literal post-base name
  BOOST_TEST(!qpack_decode(from_hex("0000ff24")).has_value());  // static index 99: past the table
  BOOST_TEST(!qpack_decode(from_hex("0000510b2f")).has_value());  // value shorter than its length
  BOOST_TEST(!qpack_decode(from_hex("00")).has_value());          // no Delta Base
}

BOOST_AUTO_TEST_CASE(frames_split_whole_and_data_streams_out) {
  Bytes stream;
  write_frame(stream, frame_type::headers, from_hex("0000d1"));
  write_frame(stream, frame_type::data, from_hex("aabbcc"));
  write_frame(stream, 0x21, from_hex("00"));  // a reserved type (§7.2.8)
  FrameReader r;
  r.feed(ByteView(stream).first(4));  // HEADERS header and part of its payload
  BOOST_TEST(r.next().kind == FramePiece::need_more);
  r.feed(ByteView(stream).subspan(4, 4));  // the rest of HEADERS, DATA header, one byte
  FramePiece f = r.next();
  BOOST_TEST(f.kind == FramePiece::frame);
  BOOST_TEST(f.type == frame_type::headers);
  BOOST_TEST(to_hex(f.payload) == "0000d1");
  f = r.next();
  BOOST_TEST(f.kind == FramePiece::data);
  BOOST_TEST(to_hex(f.payload) == "aa");
  BOOST_TEST(!r.at_boundary());
  r.feed(ByteView(stream).subspan(8));
  BOOST_TEST(to_hex(r.next().payload) == "bbcc");
  f = r.next();
  BOOST_TEST(f.type == 0x21u);
  BOOST_TEST(r.next().kind == FramePiece::need_more);
  BOOST_TEST(r.at_boundary());
}

BOOST_AUTO_TEST_CASE(oversized_frames_are_refused) {
  Bytes stream;
  Writer w(stream);
  w.varint(frame_type::headers);
  w.varint(FrameReader::kMaxFrame + 1);
  FrameReader r;
  r.feed(stream);
  BOOST_TEST(r.next().kind == FramePiece::error);
}

BOOST_AUTO_TEST_SUITE_END()
