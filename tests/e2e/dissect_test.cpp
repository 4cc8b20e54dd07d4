// `conform dissect` as a user runs it: a capture of the RFC 9001 Initials
// printed as text and JSON, bad key log lines reported by file:line, and an
// unreadable file named in one line with exit 2.
#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "dissect/bytes.hpp"
#include "support/support.hpp"
#include "unit/rfc9001_vectors.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

using namespace conform::test;

namespace {

constexpr conform::UdpEndpoint kClient{conform::kClientAddress, 50000};
constexpr conform::UdpEndpoint kServer{conform::kServerAddress, 4433};

std::string rfc_capture(const std::string& dir) {
  const std::string path = dir + "/initials.pcap";
  conform::PcapWriter w(path);
  w.write_udp(1'000'000, kClient, kServer, *conform::dissect::from_hex(rfc9001::kClientProtectedPacket));
  w.write_udp(1'500'000, kServer, kClient, *conform::dissect::from_hex(rfc9001::kServerProtectedPacket));
  w.write_udp(1'600'000, kServer, kClient, {});
  w.flush();
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dissect_test)

BOOST_AUTO_TEST_CASE(text_shows_one_datagram_a_line) {
  const std::string dir = scratch_dir("dissect-text");
  auto r = run_conform({"dissect", rfc_capture(dir)});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(r.out.find("connection 0: client 127.0.0.1:50000 server 127.0.0.2:4433 odcid=8394c8f03e515708 "
                        "TLS_AES_128_GCM_SHA256") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("  #1 0.000000000 C>S 1200B | Initial pn=2 1200B: CRYPTO off=0 len=241, PADDING×917\n") !=
             std::string::npos, r.out);
  BOOST_TEST(r.out.find("  #2 0.000500000 S>C 135B | Initial pn=1 135B: ACK 0 delay=0, CRYPTO off=0 len=90\n") !=
             std::string::npos, r.out);
  BOOST_TEST(r.out.find("#3 0.000600000 127.0.0.2:4433 > 127.0.0.1:50000 0B: empty UDP payload") !=
             std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(json_is_for_tools) {
  const std::string dir = scratch_dir("dissect-json");
  auto r = run_conform({"dissect", rfc_capture(dir), "--json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  auto j = nlohmann::json::parse(r.out);
  const auto& d0 = j["connections"][0]["datagrams"][0];
  BOOST_TEST(d0["frame"] == 1);
  BOOST_TEST(d0["time_ns"] == 1'000'000);
  BOOST_TEST(d0["direction"] == "client_to_server");
  BOOST_TEST(d0["size"] == 1200);
  BOOST_TEST(d0["packets"][0]["type"] == "Initial");
  BOOST_TEST(d0["packets"][0]["packet_number"] == 2);
  BOOST_TEST(d0["packets"][0]["frames"][0]["type"] == "CRYPTO");
  BOOST_TEST(d0["packets"][0]["frames"][0]["length"] == 241);
  BOOST_TEST(j["unattributed"][0]["frame"] == 3);
}

// A key log with a malformed line is not the one the user meant: exit 2,
// the line named, nothing printed.
BOOST_AUTO_TEST_CASE(bad_key_log_lines_are_named_and_exit_2) {
  const std::string dir = scratch_dir("dissect-keylog");
  const std::string keys = write_file(dir + "/keys.log", "# ok\nGARBAGE line\n");
  auto r = run_conform({"dissect", rfc_capture(dir), "--keylog", keys});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == keys + ":2:1: unknown key log label 'GARBAGE'\n");
  BOOST_TEST(r.out.empty());
}

BOOST_AUTO_TEST_CASE(unreadable_files_are_one_line_and_exit_2) {
  const std::string dir = scratch_dir("dissect-bad");
  const std::string text = write_file(dir + "/not-a-capture.pcap", "hello\n");
  auto r = run_conform({"dissect", text});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err.rfind(text + ": cannot read capture: ", 0) == 0u, r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);

  r = run_conform({"dissect", rfc_capture(dir), "--keylog", dir + "/missing.log"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/missing.log: cannot read key log: No such file or directory\n");
  BOOST_TEST(r.out.empty());

  r = run_conform({"dissect", dir + "/missing.pcap"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/missing.pcap: no such capture file\n");  // as conform check says

  // --qlog onto an input would lose it: refused, the input kept.
  const std::string capture = rfc_capture(dir);
  const std::string keys = write_file(dir + "/keys.log", "# no secrets\n");
  const std::string before = read_file(capture);
  for (const auto& input : {capture, keys}) {
    r = run_conform({"dissect", capture, "--keylog", keys, "--qlog", input});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("--qlog") != std::string::npos, r.err);
    BOOST_TEST(r.out.empty());
  }
  BOOST_TEST(read_file(capture) == before);
  BOOST_TEST(read_file(keys) == "# no secrets\n");
}

// A pcapng with a Decryption Secrets Block (editcap --inject-secrets)
// decrypts with no --keylog.
BOOST_AUTO_TEST_CASE(pcapng_secrets_need_no_key_log) {
  const std::string capture = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/handshake-dsb.pcapng";
  auto r = run_conform({"dissect", capture});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(r.out.find("keys=found") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("UNDECRYPTABLE") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("HANDSHAKE_DONE") != std::string::npos, r.out);
}

// A capture cut in the middle of its last record: the datagrams before the
// cut are shown, the damage is named in a warning, and the exit code stays 0.
BOOST_AUTO_TEST_CASE(a_cut_capture_shows_what_came_before) {
  const std::string dir = scratch_dir("dissect-cut");
  std::string bytes = read_file(std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/handshake.pcap");
  bytes.resize(bytes.size() - 10);
  const std::string capture = write_file(dir + "/cut.pcap", bytes);
  const std::string keys = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/handshake.keys";
  auto r = run_conform({"dissect", capture, "--keylog", keys});
  BOOST_TEST(r.exit_code == 0);
  // The last record is the cut one: its frame number is the record count.
  const std::size_t records = conform::read_capture(std::string(CONFORM_SOURCE_DIR) +
                                                    "/captures/ngtcp2/handshake.pcap").summary.records;
  const std::string last = std::to_string(records);
  BOOST_TEST(r.err.rfind("warning: " + capture + ": frame " + last + " at byte ", 0) == 0u, r.err);
  BOOST_TEST(r.out.find("#" + std::to_string(records - 1) + " ") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("#" + last + " ") == std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(gso_splitting_is_announced) {
  const std::string ngtcp2 = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  auto r = run_conform({"dissect", ngtcp2 + "gso.pcap", "--keylog", ngtcp2 + "gso.keys"});
  BOOST_TEST(r.exit_code == 0);
  const std::string first = r.out.substr(0, r.out.find('\n'));
  BOOST_TEST(first.find(" GSO batches split into ") != std::string::npos, first);
  BOOST_TEST(r.out.find(" GSO 1/") != std::string::npos);
  BOOST_TEST(r.out.find("UNDECRYPTABLE") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_quic_and_a_foreign_key_log_are_said_plainly) {
  const std::string dir = scratch_dir("dissect-plain");
  const std::string empty = dir + "/dns.pcap";
  {
    conform::PcapWriter w(empty);
    w.write_udp(1, kClient, {conform::kServerAddress, 53}, std::vector<std::uint8_t>{0x12, 0x34, 0x01, 0x00});
  }
  // The wrong file for a QUIC dissector: exit 2, as `conform check` says
  // of a capture with no connection to judge.
  auto r = run_conform({"dissect", empty});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == empty + ": no QUIC connection found (1 UDP datagram, none a QUIC v1 client Initial)\n");
  BOOST_TEST(r.out.empty(), r.out);
  const auto help = run_conform({"dissect", "--help"});
  BOOST_TEST(help.out.find("or a capture with no QUIC connection.") != std::string::npos, help.out);

  const std::string ngtcp2 = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
  r = run_conform({"dissect", ngtcp2 + "handshake.pcap", "--keylog", ngtcp2 + "retry.keys"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.find("the key log has no secrets for connection 0") != std::string::npos, r.err);
  BOOST_TEST(r.out.find("UNDECRYPTABLE no_keys") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
