// The violation script's frames (connection/violation.hpp), byte for byte as
// RFC 9000 §19 lays them out, from a client and from a server: stream IDs
// per §2.1 (the receiver's 51st stream: 50 * 4 + initiator bit + uni bit),
// values beyond 2^60 as 8-byte varints (§16).
#include <boost/test/unit_test.hpp>

#include "connection/violation.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

// Qualified names: a unity batch holds tests of other namespaces'
// Instant and Duration.
using conform::quic::Bytes;
using conform::quic::Violation;
using conform::quic::violation_frames;

std::string hex(const std::optional<Bytes>& b) {
  if (!b) return "none";
  std::string out;
  for (uint8_t x : *b) {
    char two[4];
    std::snprintf(two, sizeof two, "%s%02x", out.empty() ? "" : " ", x);
    out += two;
  }
  return out;
}

const std::string kResetToken = "50 51 52 53 54 55 56 57 58 59 5a 5b 5c 5d 5e 5f";
const std::string k2To60Plus1 = "d0 00 00 00 00 00 00 01";  // 8-byte varint, 0x1000000000000001
const std::string k100000 = "80 01 86 a0";                    // 4-byte varint

struct Row {
  Violation v;
  std::string from_client, from_server;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_violation_frames_test)

BOOST_AUTO_TEST_CASE(each_violation_of_frames_is_the_bytes_rfc_9000_lays_out) {
  const std::vector<Row> rows = {
      {Violation::handshake_done_from_client, "1e", "none"},
      {Violation::new_token_from_client, "07 04 74 6f 6b 6e", "none"},
      {Violation::unknown_frame_type, "3e", "3e"},
      // STREAMS_BLOCKED and MAX_STREAMS of unidirectional streams (0x17, 0x13).
      {Violation::streams_blocked_beyond_2_60, "17 " + k2To60Plus1, "17 " + k2To60Plus1},
      {Violation::max_streams_beyond_2_60, "13 " + k2To60Plus1, "13 " + k2To60Plus1},
      // The receiver's bidirectional stream 50: 201 (0xc9) a server's, 200 a
      // client's, as 2-byte varints.
      {Violation::stop_sending_unopened_stream, "05 40 c9 00", "05 40 c8 00"},
      {Violation::stream_on_unopened_stream, "0a 40 c9 01 78", "0a 40 c8 01 78"},
      {Violation::max_stream_data_unopened_stream, "11 40 c9 " + k100000, "11 40 c8 " + k100000},
      // The receiver's unidirectional stream 50: 203 a server's, 202 a client's.
      {Violation::reset_stream_send_only, "04 40 cb 00 00", "04 40 ca 00 00"},
      {Violation::stream_on_send_only, "0a 40 cb 01 78", "0a 40 ca 01 78"},
      // The sender's own first unidirectional stream: 2 a client's, 3 a server's.
      {Violation::max_stream_data_receive_only, "11 02 " + k100000, "11 03 " + k100000},
      // NEW_CONNECTION_ID: sequence 1, retire prior to 0 with no connection
      // ID, or 2 with an 8-byte one.
      {Violation::new_connection_id_zero_length, "18 01 00 00 " + kResetToken, "18 01 00 00 " + kResetToken},
      {Violation::retire_prior_to_above_sequence, "18 01 02 08 c0 c1 c2 c3 c4 c5 c6 c7 " + kResetToken,
       "18 01 02 08 c0 c1 c2 c3 c4 c5 c6 c7 " + kResetToken},
      {Violation::path_challenge_in_handshake, "1a a0 a1 a2 a3 a4 a5 a6 a7", "1a a0 a1 a2 a3 a4 a5 a6 a7"},
      // Not made of frames.
      {Violation::none, "none", "none"},
      {Violation::reserved_bits_set, "none", "none"},
      {Violation::packet_without_frames, "none", "none"},
      {Violation::max_ack_delay_2_14, "none", "none"},
      {Violation::key_update, "none", "none"},
      {Violation::h3_second_settings, "none", "none"},
  };
  for (const auto& row : rows) {
    BOOST_TEST(hex(violation_frames(row.v, false)) == row.from_client, static_cast<int>(row.v));
    BOOST_TEST(hex(violation_frames(row.v, true)) == row.from_server, static_cast<int>(row.v));
  }
}

BOOST_AUTO_TEST_SUITE_END()
