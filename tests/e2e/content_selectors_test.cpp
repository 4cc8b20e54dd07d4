// `conform run` with selectors that name packets by what they are
// (tests/data/suites/content_selectors.toml): a packet cut out of a
// coalesced datagram leaves a datagram tshark decodes, a frame selector
// takes the same packet in a mutant's run as in the case's where a count
// takes another, the relay says UNSUPPORTED naming the form it cannot
// read, and a bad selector is exit 2 at its position.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <regex>
#include <sstream>

using namespace conform::test;

namespace {

std::string suite(const char* name) { return std::string(CONFORM_TEST_DATA_DIR) + "/suites/" + name; }

// The suite's cases play the in-house QUIC (a plugin of the build) and the
// fixture (a test plugin).
CommandResult run(const std::vector<std::string>& args) {
  return run_conform(args, ".",
                     {"CONFORM_PLUGIN_PATH=" + std::string(CONFORM_TEST_PLUGIN_DIR) + ":" + CONFORM_PLUGIN_DIR});
}

// The run log's lines naming what the drop list took.
std::vector<std::string> taken(const std::string& log_path) {
  std::vector<std::string> out;
  std::istringstream in(read_file(log_path));
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, std::regex("^network: [0-9]+ (lost|cut) "))) out.push_back(line);
  return out;
}

// tshark's fields of each frame of `pcap`, decrypted with `keys`, one line a
// frame: "frame<TAB>source<TAB>udp length<TAB>long packet types<TAB>expert messages".
std::vector<std::string> tshark_lines(const std::string& pcap, const std::string& keys) {
  const std::string out = pcap + ".tshark.txt";
  const std::string cmd = "tshark -r '" + pcap + "' -o tls.keylog_file:'" + keys +
                          "' -T fields -e frame.number -e ip.src -e udp.length -e quic.long.packet_type"
                          " -e _ws.malformed > '" + out + "' 2>/dev/null";
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  std::vector<std::string> lines;
  std::istringstream in(read_file(out));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(content_selectors_test)

BOOST_AUTO_TEST_CASE(a_cut_packet_leaves_the_rest_of_its_datagram_for_tshark, *needs({"tshark"})) {
  const std::string dir = scratch_dir("content_cut");
  auto r = run({"run", suite("content_selectors.toml"), "--filter", "sel/initial-cut", "--out", dir});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("PASS        sel/initial-cut") != std::string::npos, r.out);
  const std::string run = dir + "/sel/initial-cut";
  BOOST_TEST(taken(run + "/log.txt") ==
                 (std::vector<std::string>{"network: 5000000 cut server->client #1 142 B (drop list): Initial pn 0 [CRYPTO ACK]"}),
             read_file(run + "/log.txt"));
  // Sent: the server's Initial (type 0) and Handshake (type 2) packets in one
  // 1200-byte datagram (UDP length 1208). Received: the Handshake packet
  // alone, 142 bytes shorter, not malformed (tshark cannot decrypt it either:
  // without the ServerHello the cipher is unknown, which is the point).
  const auto sent = tshark_lines(run + "/server.pcap", run + "/keys.log");
  const auto received = tshark_lines(run + "/client.pcap", run + "/keys.log");
  BOOST_REQUIRE(sent.size() >= 2);
  BOOST_REQUIRE(received.size() >= 2);
  BOOST_TEST(sent[1] == "2\t127.0.0.2\t1208\t0,2\t");
  BOOST_TEST(received[1] == "2\t127.0.0.2\t1066\t2\t");
}

BOOST_AUTO_TEST_CASE(a_frame_selector_takes_the_same_packet_in_the_mutants_run) {
  const std::string dir = scratch_dir("content_mutant");
  auto r = run({"run", suite("content_selectors.toml"), "--filter", "sel/same-*", "--out", dir});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  // The mutant's 3000-byte certificate adds three datagrams before the
  // HANDSHAKE_DONE: the frame selector follows it from #2 to #5.
  BOOST_TEST(taken(dir + "/sel/same-packet/log.txt") ==
             (std::vector<std::string>{
                 "network: 15000000 lost server->client #2 427 B (drop list): 1-RTT pn 0 [CRYPTO HANDSHAKE_DONE]"}));
  BOOST_TEST(taken(dir + "/sel/same-packet/@mutant-1/log.txt") ==
             (std::vector<std::string>{
                 "network: 25000000 lost server->client #5 427 B (drop list): 1-RTT pn 0 [CRYPTO HANDSHAKE_DONE]"}));
  // `server:2` took the HANDSHAKE_DONE in the case's run and a Handshake
  // datagram of the certificate in the mutant's.
  BOOST_TEST(taken(dir + "/sel/same-count/log.txt") ==
             (std::vector<std::string>{"network: 15000000 lost server->client #2 427 B (drop list)"}));
  BOOST_TEST(taken(dir + "/sel/same-count/@mutant-1/log.txt") ==
             (std::vector<std::string>{"network: 5000000 lost server->client #2 1189 B (drop list)"}));
}

BOOST_AUTO_TEST_CASE(the_relay_says_unsupported_naming_the_form) {
  const std::string dir = scratch_dir("content_relay");
  auto r = run({"run", suite("content_selectors.toml"), "--filter", "sel/relay-*", "--out", dir});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("UNSUPPORTED sel/relay-reads-no-packets") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("the relay cannot select packets by content without a key log to read (none was given it to follow): "
                        "network.drop "
                        "'server:frame=ACK:1st' uses frame=<NAME>") != std::string::npos,
             r.out);
}

BOOST_AUTO_TEST_CASE(a_bad_content_selector_is_exit_2_at_its_position) {
  auto r = run_conform({"run", suite("bad_network.toml"), "--out", scratch_dir("content_bad")});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  // Each bad selector of the list, at the list's position.
  for (const char* want :
       {"bad_network.toml:22:20: network.drop 'server:frame=MAX_STREAM:1': unknown frame type 'MAX_STREAM'; frame "
        "types: PADDING, PING, ACK, RESET_STREAM,",
        "; 'server:retry:pn=0': a Retry packet has no packet number (RFC 9000 §17.2.5); ",
        "; 'client:from_ms=9:to_ms=3': the window from_ms..to_ms is empty: to_ms must be later than from_ms\n"})
    BOOST_TEST(r.err.find(want) != std::string::npos, want << "\n" << r.err);
}

BOOST_AUTO_TEST_SUITE_END()
