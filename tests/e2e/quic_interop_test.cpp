// Interop of the in-house QUIC with Debian's ngtcp2 examples (HTTP/3 over
// GnuTLS), on loopback UDP: our client fetches from gtlsserver, gtlsclient
// fetches from our server, and gtlsclient's 300 requests finish against a
// limit of 10 concurrent streams only because we raise MAX_STREAMS (RFC 9000
// §4.6). conform-quic records a pcap and a key log of each run, which must
// dissect cleanly with our dissector and with tshark. Both directions also
// run with the ngtcp2 end losing packets (--tx-loss, --rx-loss). Skipped, saying so,
// when gtlsclient/gtlsserver, openssl or tshark are not installed (failed
// under CONFORM_REQUIRE_TOOLS=1).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/loopback_socket.hpp"
#include "support/needs.hpp"
#include "support/support.hpp"

using namespace conform::test;
namespace fs = std::filesystem;

namespace {

const std::string kQuicTool = CONFORM_QUIC_BINARY;

const std::vector<std::string> kTools = {"gtlsclient", "gtlsserver", "openssl", "tshark"};

std::string find_program(const std::string& name) { return external::program_path(name, {}); }

// A UDP port free on 127.0.0.1 right now (the kernel picks it).
int free_udp_port() { return LoopbackSocket().port; }

// What every test needs: the third-party programs, a certificate, files.
struct Lab {
  std::string gtlsclient = find_program("gtlsclient");
  std::string gtlsserver = find_program("gtlsserver");
  std::string openssl = find_program("openssl");
  std::string tshark = find_program("tshark");
  std::string dir, cert, key, htdocs;
  std::string body;  ///< htdocs/file.bin

  explicit Lab(const std::string& name) {
    dir = scratch_dir(name);
    cert = dir + "/cert.pem";
    key = dir + "/key.pem";
    // ECDSA P-256: what both GnuTLS and BoringSSL sign with by default.
    BackgroundProgram p({openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                         "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "2"},
                        dir + "/openssl");
    BOOST_REQUIRE_EQUAL(p.wait(20), 0);
    htdocs = dir + "/www";
    for (size_t i = 0; i < 150'000; ++i) body.push_back(static_cast<char>((i * 7919) >> 3));
    write_file(htdocs + "/file.bin", body);
    write_file(htdocs + "/index.html", "<p>conform</p>\n");
  }
};

// The capture decrypts completely with conform's dissector and with tshark.
void check_capture(const Lab& lab, const std::string& pcap, const std::string& keylog) {
  auto r = run_conform({"dissect", pcap, "--keylog", keylog});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(r.out.find("keys=found") != std::string::npos, r.out.substr(0, 2000));
  BOOST_TEST(r.out.find("UNDECRYPTABLE") == std::string::npos, r.out.substr(0, 2000));
  BOOST_TEST(r.out.find("HANDSHAKE_DONE") != std::string::npos);

  const std::string tshark_log = pcap + ".tshark";
  BackgroundProgram frames({lab.tshark, "-r", pcap, "-o", "tls.keylog_file:" + keylog, kTsharkQuicFirst[0],
                            kTsharkQuicFirst[1], "-T", "fields", "-e", "quic.frame_type"},
                           tshark_log);
  BOOST_REQUIRE_EQUAL(frames.wait(60), 0);
  const std::string types = frames.out();
  BOOST_TEST(types.find("30") != std::string::npos);  // HANDSHAKE_DONE (0x1e) decrypted
  BackgroundProgram bad({lab.tshark, "-r", pcap, "-o", "tls.keylog_file:" + keylog, kTsharkQuicFirst[0],
                         kTsharkQuicFirst[1], "-Y", "_ws.malformed || quic.decryption_failed"},
                        tshark_log + "-bad");
  BOOST_REQUIRE_EQUAL(bad.wait(60), 0);
  BOOST_TEST(bad.out().empty(), bad.out());
}

// Starts our server on a free port; returns "127.0.0.1:PORT" once it listens.
std::string start_server(BackgroundProgram& server) {
  for (int i = 0; i < 500; ++i) {
    const std::string out = server.out();
    const size_t at = out.find("listening on ");
    if (at != std::string::npos && out.find('\n', at) != std::string::npos)
      return out.substr(at + 13, out.find('\n', at) - at - 13);
    if (server.wait(0.01) >= 0) break;
  }
  BOOST_FAIL("conform-quic server did not start: " + server.err());
  return {};
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Our client fetches two files from gtlsserver, which runs with `extra`
// options (packet loss) on top of one datagram per sendmsg: a capture of
// GSO batches is not ours to record.
void our_client_fetches_from_gtlsserver(const std::string& name, const std::vector<std::string>& extra,
                                        unsigned timeout_s) {
  Lab lab(name);
  const std::string port = std::to_string(free_udp_port());
  std::vector<std::string> argv = {lab.gtlsserver, "--max-gso-dgrams=1", "-q"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"-d", lab.htdocs, "127.0.0.1", port, lab.key, lab.cert});
  BackgroundProgram server(argv, lab.dir + "/gtlsserver");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // its socket is bound by then
  const std::string out = lab.dir + "/out";
  fs::create_directories(out);
  BackgroundProgram client({kQuicTool, "client", "https://127.0.0.1:" + port + "/file.bin",
                            "https://127.0.0.1:" + port + "/index.html", "--output-dir", out, "--keylog",
                            lab.dir + "/keys.log", "--pcap", lab.dir + "/client.pcap", "--timeout",
                            std::to_string(timeout_s)},
                           lab.dir + "/client");
  BOOST_TEST_REQUIRE(client.wait(timeout_s + 5) == 0, client.out() + client.err() + server.err());
  BOOST_TEST(client.out().find("2 of 2 requests answered 200") != std::string::npos, client.out());
  BOOST_TEST(read_file(out + "/file.bin") == lab.body);
  BOOST_TEST(read_file(out + "/index.html") == "<p>conform</p>\n");
  check_capture(lab, lab.dir + "/client.pcap", lab.dir + "/keys.log");
}

// gtlsclient, with `extra` options, fetches two files from our server.
void gtlsclient_fetches_from_our_server(const std::string& name, const std::vector<std::string>& extra,
                                        unsigned timeout_s) {
  Lab lab(name);
  // A 3 s idle timeout: if gtlsclient's CONNECTION_CLOSE is lost, the
  // server still closes (and exits) well within the test's bounds.
  BackgroundProgram server({kQuicTool, "server", "--listen", "127.0.0.1:0", "--cert", lab.cert, "--key", lab.key,
                            "--htdocs", lab.htdocs, "--keylog", lab.dir + "/keys.log", "--pcap",
                            lab.dir + "/server.pcap", "--max-connections", "1", "--max-idle-timeout-ms", "3000"},
                           lab.dir + "/server");
  const std::string address = start_server(server);
  const std::string port = address.substr(address.find(':') + 1);
  const std::string download = lab.dir + "/download";
  fs::create_directories(download);
  std::vector<std::string> argv = {lab.gtlsclient, "-q"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"--exit-on-all-streams-close", "--timeout=" + std::to_string(timeout_s / 2) + "s",
                           "--download=" + download, "127.0.0.1", port, "https://" + address + "/file.bin",
                           "https://" + address + "/index.html"});
  BackgroundProgram client(argv, lab.dir + "/gtlsclient");
  BOOST_TEST_REQUIRE(client.wait(timeout_s + 5) == 0, client.err());
  BOOST_TEST(read_file(download + "/file.bin") == lab.body);
  BOOST_TEST(read_file(download + "/index.html") == "<p>conform</p>\n");
  // --max-connections 1: the server exits once the connection closed.
  BOOST_TEST(server.wait(timeout_s) == 0, server.err());
  BOOST_TEST(server.out().find("served 1 connection(s)") != std::string::npos, server.out());
  check_capture(lab, lab.dir + "/server.pcap", lab.dir + "/keys.log");
}

// The ngtcp2 end losing packets at random: its --tx-loss drops a datagram
// before sending it (absent from our capture), its --rx-loss drops it after
// the wire (in our capture, ignored by it). Our end must recover (RFC 9002)
// whatever is lost, handshake included. The probabilities are per datagram
// and ngtcp2's RNG is unseeded, so each run loses different packets: 10 %
// each way is moderate enough that a run needs a few PTOs at most, and the
// time bounds are generous.
const std::vector<std::string> kLoss = {"--tx-loss=0.1", "--rx-loss=0.1"};

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_interop_test)

BOOST_AUTO_TEST_CASE(our_client_fetches_a_file_from_gtlsserver, *needs(kTools)) {
  our_client_fetches_from_gtlsserver("client-vs-gtlsserver", {}, 10);
}

BOOST_AUTO_TEST_CASE(gtlsclient_fetches_files_from_our_server, *needs(kTools)) {
  gtlsclient_fetches_from_our_server("gtlsclient-vs-server", {}, 10);
}

BOOST_AUTO_TEST_CASE(our_client_fetches_from_a_lossy_gtlsserver, *needs(kTools)) {
  our_client_fetches_from_gtlsserver("client-vs-lossy-gtlsserver", kLoss, 20);
}

BOOST_AUTO_TEST_CASE(a_lossy_gtlsclient_fetches_from_our_server, *needs(kTools)) {
  gtlsclient_fetches_from_our_server("lossy-gtlsclient-vs-server", kLoss, 20);
}

// The investigation's scenario: 300 requests, 10 concurrent streams allowed.
// gtlsclient's -n 300 finishes only if MAX_STREAMS keeps raising the limit;
// with emit_max_streams off it stops after 10 responses.
BOOST_AUTO_TEST_CASE(gtlsclient_300_requests_complete_against_a_limit_of_10, *needs(kTools)) {
  Lab lab("gtlsclient-300");
  for (const bool emit : {true, false}) {
    const std::string tag = emit ? "emit" : "no-emit";
    BackgroundProgram server({kQuicTool, "server", "--listen", "127.0.0.1:0", "--cert", lab.cert, "--key", lab.key,
                              "--htdocs", lab.htdocs, "--initial-max-streams-bidi", "10", "--emit-max-streams",
                              emit ? "true" : "false", "--keylog", lab.dir + "/" + tag + ".keys", "--pcap",
                              lab.dir + "/" + tag + ".pcap", "--max-connections", "1", "--max-idle-timeout-ms",
                              emit ? "5000" : "1000"},
                             lab.dir + "/server-" + tag);
    const std::string address = start_server(server);
    BackgroundProgram client({lab.gtlsclient, "--no-quic-dump", "--no-http-dump", "--exit-on-all-streams-close",
                              // Stuck at the limit, gtlsclient gives up after 1 s idle.
                              emit ? "--timeout=5s" : "--timeout=1s", "-n", "300", "127.0.0.1",
                              address.substr(address.find(':') + 1),
                              "https://" + address + "/index.html"},
                             lab.dir + "/gtlsclient-" + tag);
    BOOST_TEST_REQUIRE(client.wait(20) >= 0, "gtlsclient still running");
    // gtlsclient prints each response's header block (it exits 0 either way).
    const size_t responses = count(client.err() + client.out(), ":status: 200");
    BOOST_TEST(responses == (emit ? 300u : 10u), tag);
    BOOST_TEST(server.wait(10) == 0, server.err());
    if (emit) check_capture(lab, lab.dir + "/emit.pcap", lab.dir + "/emit.keys");
  }
}

BOOST_AUTO_TEST_CASE(bad_arguments_exit_2_with_a_clear_error) {
  const std::string dir = scratch_dir("bad-args");
  BackgroundProgram no_cert({kQuicTool, "server", "--listen", "127.0.0.1:0", "--cert", dir + "/missing.pem", "--key",
                             dir + "/missing.pem"},
                            dir + "/no-cert");
  BOOST_TEST(no_cert.wait(10) == 2);
  BOOST_TEST(no_cert.err() == "conform-quic: cannot read " + dir + "/missing.pem\n");
  BackgroundProgram bad_url({kQuicTool, "client", "http://example.org/"}, dir + "/bad-url");
  BOOST_TEST(bad_url.wait(10) == 2);
  BOOST_TEST(bad_url.err() == "conform-quic: http://example.org/: expected https://IPV4-ADDRESS:PORT/path\n");
  BackgroundProgram bad_listen({kQuicTool, "server", "--listen", "localhost", "--cert", "c", "--key", "k"},
                               dir + "/listen");
  BOOST_TEST(bad_listen.wait(10) == 2);
  BOOST_TEST(bad_listen.err() == "conform-quic: --listen localhost: expected IPv4-ADDRESS:PORT\n");
  BackgroundProgram unknown({kQuicTool, "client", "https://127.0.0.1:1/", "--initial-max-streams-bidi", "lots"},
                            dir + "/unknown");
  BOOST_TEST(unknown.wait(10) == 2);
  BOOST_TEST(unknown.err().find("--initial-max-streams-bidi") != std::string::npos, unknown.err());
  // Each knob's own bounds and choices, from the knob table.
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--initial-max-streams-bidi", "1152921504606846977"}, "out of range: from 0 to 1152921504606846976"},
      {{"--max-udp-payload-size", "1199"}, "out of range: from 1200 to 65527"},
      {{"--cc-loss-reduction-factor", "0"}, "out of range: above 0 to 1"},
      {{"--tls-groups", "x448"}, "'x448' is not one of x25519,p256,cecpq2"},
      {{"--emit-max-streams", "no"}, "expected true or false, got 'no'"},
      {{"--cc-loss-reduction-factor", "1e400"}, "1e400 is out of range"},
      {{"--cc-loss-reduction-factor", " 0.5"}, "expected a number, got ' 0.5'"},
      {{"--alpn", "h3,"}, "an empty item in 'h3,'"}};
  for (const auto& [args, why] : refused) {
    std::vector<std::string> argv{kQuicTool, "client", "https://127.0.0.1:1/"};
    argv.insert(argv.end(), args.begin(), args.end());
    BackgroundProgram p(argv, dir + "/refused");
    BOOST_TEST(p.wait(10) == 2, args[0]);
    BOOST_TEST(p.err().find(args[0]) != std::string::npos, p.err());
    BOOST_TEST(p.err().find(why) != std::string::npos, p.err());
  }
}

// A client that committed a violation (broken transport parameters in its
// ClientHello) against a peer that never answers gives up once the peer
// has been silent for --violation-answer-ms after it, saying so, instead of
// waiting out its idle timeout; with 0 it waits.
BOOST_AUTO_TEST_CASE(a_violating_client_gives_up_on_a_silent_peer) {
  const std::string dir = scratch_dir("violation-silent-peer");
  LoopbackSocket silent;
  const std::string url = "https://127.0.0.1:" + std::to_string(silent.port) + "/x";
  BackgroundProgram gives_up({kQuicTool, "client", url, "--violation", "ack_delay_exponent_above_20",
                              "--violation-answer-ms", "300", "--timeout", "30"},
                             dir + "/gives-up");
  BOOST_TEST(gives_up.wait(10) == 1, gives_up.err());
  BOOST_TEST(gives_up.err() == "conform-quic: after the violation, the peer was silent for 300 ms: connection "
                               "abandoned\n");
  BOOST_TEST(gives_up.out() == "0 of 1 requests answered 200; connection abandoned (no answer to the violation)\n");
  BOOST_TEST(!silent.receive(1, 0).empty(), "the ClientHello reached the peer");

  BackgroundProgram waits({kQuicTool, "client", url, "--violation", "ack_delay_exponent_above_20",
                           "--violation-answer-ms", "0", "--timeout", "30"},
                          dir + "/waits");
  BOOST_TEST(waits.wait(1.5) == -1, waits.err());
}

// conform-quic takes every knob of the quic plugin, as `conform plugins`
// lists them, under its name with '-' for '_': its options come from the
// plugin's knob table, so none is missing and none is written twice.
BOOST_AUTO_TEST_CASE(every_knob_of_the_quic_plugin_is_an_option) {
  const auto plugins = run_conform({"plugins"}, ".", {build_plugins_env()});
  BOOST_TEST_REQUIRE(plugins.exit_code == 0, plugins.err);
  const std::string listing = "\n" + plugins.out;
  const auto from = listing.find("\nquic ");
  BOOST_TEST_REQUIRE(from != std::string::npos);
  const auto knobs = listing.find("\n  knobs:\n", from);
  BOOST_TEST_REQUIRE(knobs != std::string::npos);
  const std::string dir = scratch_dir("knob-options");
  for (const char* role : {"server", "client"}) {
    BackgroundProgram help({kQuicTool, role, "--help"}, dir + "/" + role);
    BOOST_TEST_REQUIRE(help.wait(10) == 0);
    std::size_t seen = 0;
    std::istringstream lines(listing.substr(knobs + 10));
    for (std::string line; std::getline(lines, line) && line.rfind("    ", 0) == 0 && line[4] != ' ';) {
      std::string option = "--" + line.substr(4, line.find_first_of(" :", 4) - 4);
      std::replace(option.begin(), option.end(), '_', '-');
      BOOST_TEST(help.out().find(option + " ") != std::string::npos, role << ": " << option);
      ++seen;
    }
    BOOST_TEST(seen >= 40u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
