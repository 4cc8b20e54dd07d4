// `conform run suites/violations` as a user runs it: every case passes with
// its mutant (the judged side ignoring the violation) killed, and what the
// suite claims is on the wire, as tshark decodes the decrypted captures:
// the violating frame or header bits from the violator, then the judged
// side's CONNECTION_CLOSE with the code the RFC names.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace conform::test;

namespace {

const std::string kSuite = std::string(CONFORM_SOURCE_DIR) + "/suites/violations";
const std::string kPluginPath = std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(violations_suite_test)

BOOST_AUTO_TEST_CASE(every_violation_is_answered_and_every_mutant_killed, *needs({"tshark"})) {
  const std::string dir = scratch_dir("violations");
  auto r = run_conform({"run", kSuite, "-j", "2", "--out", dir + "/out", "--json", dir + "/report.json"}, ".",
                       {kPluginPath});
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  const auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  BOOST_TEST(report["cases"].size() == 61u);
  for (const auto& c : report["cases"]) {
    BOOST_TEST(c["status"] == "PASS", c["id"] << ": " << c["headline"]);
    BOOST_TEST(c["mutants"].size() == 1u, c["id"]);
    for (const auto& m : c["mutants"]) BOOST_TEST(m["killed"] == true, c["id"] << " survived " << m["label"]);
  }
  // What tshark decodes in each case's decrypted server.pcap: lines of
  // "ip.src<TAB>field" for the packets `filter` selects (1-RTT ones by
  // default), each row naming a part the line must hold. 127.0.0.1 is the
  // client, 127.0.0.2 the server; frame types and codes are decimal.
  struct Wire {
    std::string id, field, filter, holds;
  };
  const std::string short_header = "quic.short", closes = "quic.cc.error_code", app_closes = "quic.frame_type == 0x1d";
  const std::vector<Wire> wire = {
      // The client's HANDSHAKE_DONE (30), then the server's close 0x0a.
      {"handshake-done-from-client", "quic.frame_type", short_header, "127.0.0.1\t30"},
      {"handshake-done-from-client", "quic.cc.error_code", short_header, "127.0.0.2\t10\n"},
      // The server's STREAMS_BLOCKED uni (23), then the client's close 0x07.
      {"streams-blocked-beyond-2-60-from-server", "quic.frame_type", short_header, "127.0.0.2\t6,30,23"},
      {"streams-blocked-beyond-2-60-from-server", "quic.cc.error_code", short_header, "127.0.0.1\t7\n"},
      // The client's reserved bits (3), then the server's close 0x0a.
      {"reserved-bits-set-from-client", "quic.short.reserved", short_header, "127.0.0.1\t3\n"},
      {"reserved-bits-set-from-client", "quic.cc.error_code", short_header, "127.0.0.2\t10\n"},
      // The server's 1-RTT packet of 29 bytes: 1 + its 8-byte connection ID
      // + a 4-byte packet number + the 16-byte AEAD tag, so no frames
      // (tshark cannot decrypt an empty payload, "ciphertext is too
      // short"); then the client's close 0x0a.
      {"packet-without-frames-from-server", "quic.packet_length", short_header, "127.0.0.2\t29\n"},
      {"packet-without-frames-from-server", "quic.cc.error_code", short_header, "127.0.0.1\t10,10\n"},
      // The client's ClientHello carries preferred_address; the server
      // closes with 0x08 (TRANSPORT_PARAMETER_ERROR) before 1-RTT.
      {"preferred-address-from-client", "tls.quic.parameter.preferred_address.ipv4address", "tls.handshake.type == 1",
       "127.0.0.1\t127.0.0.1\n"},
      {"preferred-address-from-client", "quic.cc.error_code", closes, "127.0.0.2\t8\n"},
      // The client's Handshake packet (type 2) with its reserved bits (3)
      // set, then the server's close 0x0a in Initial and Handshake packets.
      {"reserved-bits-set-long-header-from-client", "quic.long.reserved", "quic.long.packet_type", "127.0.0.1\t0,3\n"},
      {"reserved-bits-set-long-header-from-client", "quic.cc.error_code", closes, "127.0.0.2\t10,10\n"},
      // The client's STREAM on the server's 51st bidirectional stream (201),
      // then the server's close 0x05.
      {"stream-on-unopened-stream-from-client", "quic.stream.stream_id", short_header, "127.0.0.1\t201\n"},
      {"stream-on-unopened-stream-from-client", "quic.cc.error_code", short_header, "127.0.0.2\t5\n"},
      // RFC 9114's, conform-quic against itself: the client's control
      // stream (type 0) carries SETTINGS (4) then DATA (0), the server
      // closes with H3_FRAME_UNEXPECTED (0x105, 261); the server's response
      // has DATA before HEADERS (1), the client closes with the same.
      {"h3-data-on-control-stream-from-client", "http3.frame_type", "http3.stream_type == 0", "127.0.0.1\t4,0"},
      {"h3-data-on-control-stream-from-client", "quic.cc.error_code.app", app_closes, "127.0.0.2\t261\n"},
      {"h3-data-before-headers-from-server", "http3.frame_type", "ip.src == 127.0.0.2 && http3", "127.0.0.2\t4,0,1\n"},
      {"h3-data-before-headers-from-server", "quic.cc.error_code.app", app_closes, "127.0.0.1\t261\n"},
      // RFC 9001's: the client's TLS KeyUpdate (handshake type 24) in a
      // 1-RTT packet, the server's close 0x10a (266); the client's ALPN no
      // server speaks, the server's close 0x178 (376); the server's
      // EncryptedExtensions (8) without extension 57, the client's close
      // 0x16d (365).
      {"key-update-from-client", "tls.handshake.type", short_header, "127.0.0.1\t24\n"},
      {"key-update-from-client", "quic.cc.error_code", short_header, "127.0.0.2\t266\n"},
      {"no-common-alpn-from-client", "tls.handshake.extensions_alpn_str", "tls.handshake.type == 1",
       "127.0.0.1\tconform-violation\n"},
      {"no-common-alpn-from-client", "quic.cc.error_code", closes, "127.0.0.2\t376\n"},
      {"transport-parameters-extension-missing-from-server", "tls.handshake.extension.type", "tls.handshake.type == 8",
       "127.0.0.2\t51,43,16\n"},
      {"transport-parameters-extension-missing-from-server", "quic.cc.error_code", closes, "127.0.0.1\t365,365\n"},
  };
  for (const auto& w : wire) {
    const std::string run = dir + "/out/violation/" + w.id;
    const std::string lines = tshark_fields(run, "server.pcap", w.filter, {"ip.src", w.field});
    BOOST_TEST(contains(lines, w.holds), w.id << " " << w.field << ": " << lines);
  }
}

// A malformed list of codes is bad input, refused before anything runs at
// the parameter's position, with every other problem of the file.
BOOST_AUTO_TEST_CASE(a_malformed_error_list_is_exit_2_at_its_position) {
  const std::string dir = scratch_dir("violations-bad-error");
  const std::string suite = write_file(dir + "/bad.toml", R"toml([[case]]
id = "bad/error-list"
rfc = "9000§19.20"
requirement = "A server MUST treat receipt of a HANDSHAKE_DONE frame as a connection error of type PROTOCOL_VIOLATION"
plugin = "quic"
scenario = "handshake"
client = { violation = "handshake_done_from_client" }

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  error = "PROTOCOL_VIOLATION|"

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  error = "NOT_A_CODE|PROTOCOL_VIOLATION"

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  error = "0x4000000000000000"

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  frame = "application"
  error = "H3_FRAME_UNEXPECTED"
  violation = "HANDSHAKE"

  [[case.mutant]]
  server = { violations_answered = "ignored" }
  fails = ["connection_closed_with"]
)toml");
  auto r = run_conform({"list", suite}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2, r.out << r.err);
  BOOST_TEST(contains(r.err, suite + ":12:11: parameter 'error' of check 'connection_closed_with': error "
                                     "\"PROTOCOL_VIOLATION|\" has an empty alternative"),
             r.err);
  BOOST_TEST(contains(r.err, suite + ":17:11: parameter 'error' of check 'connection_closed_with': error "
                                     "\"NOT_A_CODE\" is neither an RFC 9000 §20.1 name nor a number"),
             r.err);
  // Beyond what a varint carries (RFC 9000 §16); a violation that is no
  // frame name.
  BOOST_TEST(contains(r.err, suite + ":22:11: parameter 'error' of check 'connection_closed_with': error "
                                     "\"0x4000000000000000\" is neither an RFC 9000 §20.1 name nor a number"),
             r.err);
  BOOST_TEST(contains(r.err, suite + ":29:15: parameter 'violation' of check 'connection_closed_with': violation "
                                     "\"HANDSHAKE\" is neither an RFC 9000 §19 frame name, a number, reserved_bits nor "
                                     "no_frames"),
             r.err);
}

// A rule whose violation never left (the case forgot the knob, as a case
// taking a rule with rule_from may) is NOT EXERCISED, saying which side's
// packets were looked at, and the case that claims it fails.
BOOST_AUTO_TEST_CASE(a_violation_not_in_the_capture_is_not_exercised_naming_the_side) {
  const std::string dir = scratch_dir("violations-absent");
  const std::string suite = write_file(dir + "/absent.toml", R"toml([[case]]
id = "absent/handshake-done"
rfc = "9000§19.20"
requirement = "A server MUST treat receipt of a HANDSHAKE_DONE frame as a connection error of type PROTOCOL_VIOLATION"
plugin = "quic"
scenario = "handshake"
no_mutant = "a test of the check's own verdict"

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  error = "PROTOCOL_VIOLATION"
  violation = "HANDSHAKE_DONE"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 1, r.out << r.err);
  BOOST_TEST(contains(r.out, "no packet from the client shows HANDSHAKE_DONE: the violation is not in the capture"),
             r.out);
}

// The simulator's scenarios speak no HTTP/3: a quic case naming an HTTP/3
// violation is refused where it names it, saying where HTTP/3's are played
// (it ran NOT EXERCISED before).
BOOST_AUTO_TEST_CASE(an_http3_violation_in_a_simulator_case_is_exit_2_at_its_position) {
  const std::string dir = scratch_dir("violations-h3-simulated");
  const std::string suite = write_file(dir + "/h3.toml", R"toml([[case]]
id = "bad/h3-in-simulator"
rfc = "9114§7.2.4"
requirement = "an endpoint MUST treat a second SETTINGS as a connection error of type H3_FRAME_UNEXPECTED"
plugin = "quic"
scenario = "handshake"
client = { violation = "h3_second_settings" }
no_mutant = "refused before it runs"

  [[case.expect]]
  check = "connection_closed_with"
  by = "server"
  frame = "application"
  error = "H3_FRAME_UNEXPECTED"
)toml");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", {kPluginPath});
  BOOST_TEST(r.exit_code == 2, r.out << r.err);
  BOOST_TEST(contains(r.err, suite + ":7:24: knob of plugin 'quic': 'violation' is \"h3_second_settings\", not one of"),
             r.err);
  BOOST_TEST(contains(r.err, "(HTTP/3's violations, h3_*, only through the external plugin's conform profile, "
                             "conform-quic's HTTP/3: these scenarios speak no HTTP/3).\n"),
             r.err);
  BOOST_TEST(!contains(r.err, "\"h3_data_before_headers\""), r.err);
}

BOOST_AUTO_TEST_SUITE_END()
