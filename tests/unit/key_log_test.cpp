// NSS key log parsing: the labels QUIC needs, and every bad line named by
// file:line without stopping the rest.
#include "dissect/key_log.hpp"

#include <boost/test/unit_test.hpp>

using namespace conform::dissect;

BOOST_AUTO_TEST_SUITE(key_log_test)

BOOST_AUTO_TEST_CASE(secrets_are_indexed_by_client_random) {
  const std::string r(64, 'a');
  const std::string s32(64, '1'), s48(96, '2');
  const KeyLog log = parse_key_log("# comment\n\nCLIENT_HANDSHAKE_TRAFFIC_SECRET " + r + " " + s32 +
                                       "\r\nSERVER_HANDSHAKE_TRAFFIC_SECRET " + r + " " + s32 +
                                       "\nCLIENT_TRAFFIC_SECRET_0 " + r + " " + s48 +
                                       "\nSERVER_TRAFFIC_SECRET_0\t" + r + "  " + s48 +
                                       "\nCLIENT_EARLY_TRAFFIC_SECRET " + r + " " + s32 +
                                       "\nEXPORTER_SECRET " + r + " " + s32 + "\n",
                                   "k.log");
  BOOST_TEST(log.problems.empty());
  BOOST_REQUIRE_EQUAL(log.connections.size(), 1u);
  const TlsSecrets& s = log.connections.begin()->second;
  BOOST_TEST(log.connections.begin()->first[0] == 0xaa);
  BOOST_TEST(s.client_handshake.size() == 32u);
  BOOST_TEST(s.server_handshake.size() == 32u);
  BOOST_TEST(s.client_application.size() == 48u);
  BOOST_TEST(s.server_application.size() == 48u);
  BOOST_TEST(s.client_early.size() == 32u);
}

// Labels QUIC does not use (TLS 1.2, exporters) are skipped but must still
// be hex: their lines are copied into each connection's folder, and a byte
// that is no text there stopped conform check with an internal error.
BOOST_AUTO_TEST_CASE(unused_labels_must_still_be_hex) {
  const std::string r(64, 'a');
  const KeyLog log = parse_key_log("EXPORTER_SECRET " + r + " 12\xcf" + "4\n" +  // 1
                                       "CLIENT_RANDOM zz 00\n" +                   // 2
                                       "CLIENT_RANDOM " + r + " 0011\n",           // 3: fine
                                   "k.log");
  BOOST_REQUIRE_EQUAL(log.problems.size(), 2u);
  BOOST_TEST(log.problems[0].pos.line == 1u);
  BOOST_TEST(log.problems[1].pos.line == 2u);
  BOOST_TEST(log.problems[0].message == "expected 'LABEL <client random> <secret>' in hex after 'EXPORTER_SECRET'");
  // At the field that is no hex: the secret on line 1, the random on line 2.
  BOOST_TEST(log.problems[0].pos.column == 16u + r.size() + 2u);
  BOOST_TEST(log.problems[1].pos.column == 15u);
}

BOOST_AUTO_TEST_CASE(bad_lines_name_file_and_line_and_the_rest_still_counts) {
  const std::string r(64, 'b');
  const std::string s(64, 'c');
  const KeyLog log = parse_key_log("NOT_A_LABEL " + r + " " + s + "\n" +             // 1
                                       "CLIENT_TRAFFIC_SECRET_0 " + r + "\n" +       // 2
                                       "CLIENT_TRAFFIC_SECRET_0 abc " + s + "\n" +   // 3
                                       "CLIENT_TRAFFIC_SECRET_0 " + r + " 12zz\n" +  // 4
                                       "CLIENT_TRAFFIC_SECRET_0 " + r + " " + s + "\n",
                                   "k.log");
  BOOST_REQUIRE_EQUAL(log.problems.size(), 4u);
  for (std::uint32_t i = 0; i < 4; ++i) {
    BOOST_TEST(log.problems[i].pos.file == "k.log");
    BOOST_TEST(log.problems[i].pos.line == i + 1);
  }
  BOOST_TEST(log.problems[0].str().rfind("k.log:1:1: ", 0) == 0u);
  BOOST_TEST(log.problems[0].message.find("unknown key log label") != std::string::npos);
  // Each at the field it is about: the whole line for a count of fields,
  // the client random on line 3, the secret on line 4.
  BOOST_TEST(log.problems[1].pos.column == 1u);
  BOOST_TEST(log.problems[2].pos.column == 25u);
  BOOST_TEST(log.problems[3].pos.column == 25u + r.size() + 1u);
  BOOST_TEST(log.connections.size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_unreadable_file_is_an_input_error) {
  BOOST_CHECK_THROW(read_key_log("/nonexistent/keys.log"), conform::InputError);
  // A folder opens as a stream that reads nothing: it must not pass for an empty key log.
  try {
    read_key_log("/tmp");
    BOOST_FAIL("a folder was read as a key log");
  } catch (const conform::InputError& e) {
    BOOST_TEST(std::string(e.what()).find("/tmp") != std::string::npos, e.what());
    BOOST_TEST(std::string(e.what()).find("cannot read key log: is a folder") != std::string::npos, e.what());
  }
  // An endless file (a device named by mistake) is refused once it is past
  // what a key log can be, not read until memory runs out.
  try {
    read_key_log("/dev/zero");
    BOOST_FAIL("/dev/zero was read as a key log");
  } catch (const conform::InputError& e) {
    BOOST_TEST(std::string(e.what()).find("/dev/zero: cannot read key log: more than 64 MiB, so not a key log") !=
                   std::string::npos,
               e.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()
