// What a user who feeds conform bad input sees: a capture it cannot
// decrypt, a malformed key log, a corrupt or cut capture, an out-of-range
// scenario size. Each is one clear line naming the file and the position,
// and never a PASS that judged nothing.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kNgtcp2 = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";
// The real plugins: the suites name them, and validation needs their declarations.
const std::vector<std::string> kEnv{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Two cases on ngtcp2's handshake capture: one reading 1-RTT STREAM frames,
// one reading Initial packets only.
std::string blind_suite(const std::string& dir) {
  return write_file(dir + "/blind.toml", R"([[case]]
id = "blind/streams"
rfc = "9000§2.2"
requirement = "stream data MUST be delivered"
plugin = "quic"
scenario = "handshake"
no_mutant = "a bad-input fixture: what is judged is the capture given"
  [[case.expect]]
  check = "streams_delivered"
  from = "client"
  dir = "bidi"

[[case]]
id = "blind/padded"
rfc = "9000§14.1"
requirement = "a client MUST expand Initial datagrams to 1200 bytes"
plugin = "quic"
scenario = "handshake"
no_mutant = "a bad-input fixture: what is judged is the capture given"
  [[case.expect]]
  check = "client_initial_padded"
)");
}

std::map<std::string, std::string> verdicts(const std::string& report_path) {
  std::map<std::string, std::string> out;
  const json report = json::parse(read_file(report_path));
  for (const auto& c : report.at("cases")) out[c.at("id")] = c.at("status");
  return out;
}

const std::string kRandom = "the connection of client random ";

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_input_test)

// The capture's 1-RTT packets cannot be read without keys: a check of
// STREAM frames is ERROR (NOT JUDGED), never PASS; a check of Initial
// packets, which need no key log, still judges.
BOOST_AUTO_TEST_CASE(a_check_that_cannot_decrypt_is_not_judged) {
  const std::string dir = scratch_dir("bad_blind");
  const std::string suite = blind_suite(dir);
  const std::string capture = kNgtcp2 + "handshake.pcap";

  // With its key log: both pass.
  auto r = run_conform({"check", capture, "--keylog", kNgtcp2 + "handshake.keys", suite, "--out", dir + "/keyed",
                        "--json", dir + "/keyed.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(verdicts(dir + "/keyed.json") ==
             (std::map<std::string, std::string>{{"blind/streams @ handshake.pcap#1", "PASS"},
                                                 {"blind/padded @ handshake.pcap#1", "PASS"}}));

  // Without a key log: the stream check cannot see a STREAM frame.
  r = run_conform({"check", capture, suite, "--out", dir + "/none", "--json", dir + "/none.json", "-v"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(verdicts(dir + "/none.json") ==
             (std::map<std::string, std::string>{{"blind/streams @ handshake.pcap#1", "NOT JUDGED"},
                                                 {"blind/padded @ handshake.pcap#1", "PASS"}}));
  const json none = json::parse(read_file(dir + "/none.json"));
  const json& run = none.at("cases")[0].at("runs")[0];
  const std::string reason = run.at("reason");
  BOOST_TEST(reason.rfind("streams_delivered: cannot judge: handshake.pcap: no Handshake keys in the key log for " +
                              kRandom, 0) == 0u,
             reason);
  BOOST_TEST(contains(reason, ": none of its 2 Handshake packets from the client decrypt (no --keylog given)"),
             reason);
  BOOST_TEST(run.at("checks")[0].at("verdict") == "NOT JUDGED");
  BOOST_TEST(contains(r.out, "NOT JUDGED streams_delivered: cannot judge: "), r.out);

  // A well-formed key log of another connection: the same, naming the file.
  r = run_conform({"check", capture, "--keylog", kNgtcp2 + "loss.keys", suite, "--out", dir + "/other", "--json",
                   dir + "/other.json"},
                  ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const std::string other = json::parse(read_file(dir + "/other.json")).at("cases")[0].at("runs")[0].at("reason");
  BOOST_TEST(contains(other, "(key logs: " + kNgtcp2 + "loss.keys)"), other);
}

// Offline, a case is judged only on connections of its checks' transport.
BOOST_AUTO_TEST_CASE(a_tcp_case_on_a_quic_capture_is_not_judged) {
  const std::string dir = scratch_dir("bad_tcp_on_quic");
  const std::string suite = write_file(dir + "/tcp.toml", R"([[case]]
id = "tcp/on-quic"
rfc = "9293§3.8.6"
requirement = "a sender SHOULD: a sanity case"
plugin = "tcp_relay"
scenario = "transfers"
  [[case.expect]]
  check = "transfer_time"
  max_ms = 1000.0
)");
  auto r = run_conform({"check", kNgtcp2 + "handshake.pcap", "--keylog", kNgtcp2 + "handshake.keys", suite, "--out",
                        dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  // A TCP case says nothing about a QUIC connection: not judged, and with
  // nothing else to judge, bad input.
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == kNgtcp2 + "handshake.pcap: no chosen case judges what the captures hold (QUIC connections "
                                "only): name a suite of QUIC checks (suites/tcp judges TCP, suites/capture QUIC)\n");
  BOOST_TEST(!std::filesystem::exists(dir + "/r.json"));
}

// A key log with a malformed line is bad input in `check` and `dissect`
// alike: exit 2, the file and line named, nothing judged.
BOOST_AUTO_TEST_CASE(a_malformed_key_log_is_exit_2_naming_the_line) {
  const std::string dir = scratch_dir("bad_keylog");
  const std::string capture = kNgtcp2 + "handshake.pcap";
  std::string text = read_file(kNgtcp2 + "handshake.keys");
  const std::string keys = write_file(dir + "/garbage.keys", "# a comment\nthis is not a key log\n" + text);
  auto r = run_conform({"check", capture, "--keylog", keys, blind_suite(dir), "--out", dir + "/out", "--json",
                        dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == keys + ":2:1: unknown key log label 'this'\n", r.err);
  BOOST_TEST(!fs::exists(dir + "/r.json"));
  r = run_conform({"dissect", capture, "--keylog", keys});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err == keys + ":2:1: unknown key log label 'this'\n", r.err);
  BOOST_TEST(r.out.empty());

  // A whole file of garbage: five lines shown, then a count.
  std::string garbage;
  for (int i = 0; i < 8; ++i) garbage += "CLIENT_TRAFFIC_SECRET_0 zz zz\n";
  const std::string many = write_file(dir + "/many.keys", garbage);
  r = run_conform({"dissect", capture, "--keylog", many});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, many + ":5:25: client random is not 32 bytes of hex\n" + many +
                                 ": 3 more malformed key log lines\n"),
             r.err);

  // A binary file given as the key log: its bytes are escaped, 32 at most.
  std::string elf = "\x7f" "ELF\x02\x01\x01" + std::string(9, '\0') + std::string(40, 'A') + "\n";
  const std::string binary = write_file(dir + "/binary.keys", elf);
  r = run_conform({"dissect", capture, "--keylog", binary});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == binary + R"(:1:1: unknown key log label '\x7fELF\x02\x01\x01)" +
                          R"(\x00\x00\x00\x00\x00\x00\x00\x00\x00AAAAAAAAAAAAAAAA'...)" + "\n",
             r.err);
}

// A corrupt record after a connection has ended: that connection is judged
// and reported, the one still open there is not, and the check exits 2
// naming the record. two-connections.pcap (tshark): the first connection's
// CONNECTION_CLOSE is frame 10, its last datagram frame 11 at 0.032 s; the
// second starts at frame 12, 3.76 s later, past the first's draining period
// (3.07 s), and record 15 is made to claim 1 GB.
BOOST_AUTO_TEST_CASE(a_corrupt_record_after_a_connection_ended_judges_that_one) {
  const std::string dir = scratch_dir("bad_pcap_after");
  const std::string suite = blind_suite(dir);
  const std::string bytes = read_file(kNgtcp2 + "two-connections.pcap");
  std::size_t at = 24;  // as in corrupt_and_cut_captures
  for (int record = 1; record < 15; ++record) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at + 8);
    at += 16 + (p[0] | p[1] << 8 | p[2] << 16 | std::size_t{p[3]} << 24);
  }
  std::string corrupt = bytes;
  corrupt[at + 11] = 0x40;
  const std::string bad = write_file(dir + "/corrupt.pcap", corrupt);
  const auto r = run_conform({"check", bad, "--keylog", kNgtcp2 + "two-connections.keys", suite, "--out",
                              dir + "/out", "--json", dir + "/r.json"},
                             ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == bad + ": frame 15 at byte " + std::to_string(at) + ": " +
                          r.err.substr(r.err.find(": ", bad.size() + 2) + 2, r.err.find(" (a corrupt") -
                                                                                 r.err.find(": ", bad.size() + 2) - 2) +
                          " (a corrupt record: the 1 connection that ended before it is judged, the 1 still open "
                          "there is not)\n",
             r.err);
  const json report = json::parse(read_file(dir + "/r.json"));
  const auto& units = report.at("offline").at("captures")[0].at("units");
  BOOST_TEST_REQUIRE(units.size() == 1u);
  BOOST_TEST(units[0].at("frames") == 11);
  BOOST_TEST(report.at("cases").size() == 2u);
  for (const auto& c : report.at("cases")) BOOST_TEST(c.at("id").get<std::string>().ends_with(" @ corrupt.pcap#1"));
  // The report says so too, in the words of the error line.
  const std::string corrupt_text = report.at("offline").at("captures")[0].at("corrupt");
  BOOST_TEST(r.err == bad + ": " + corrupt_text + "\n", corrupt_text);
}

// A corrupt record is exit 2 naming frame and byte offset; a file cut
// inside its last record is judged up to it, with a warning on stderr.
BOOST_AUTO_TEST_CASE(corrupt_and_cut_captures) {
  const std::string dir = scratch_dir("bad_pcap");
  const std::string suite = blind_suite(dir);
  const std::string keys = kNgtcp2 + "handshake.keys";
  const std::string bytes = read_file(kNgtcp2 + "handshake.pcap");
  // pcap: a 24-byte file header, then per record 16 bytes of header whose
  // third word is the captured length. Record 3's claims 1 GB.
  std::size_t at = 24;
  for (int record = 1; record < 3; ++record) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at + 8);
    at += 16 + (p[0] | p[1] << 8 | p[2] << 16 | std::size_t{p[3]} << 24);
  }
  std::string corrupt = bytes;
  corrupt[at + 8] = 0;
  corrupt[at + 9] = 0;
  corrupt[at + 10] = 0;
  corrupt[at + 11] = 0x40;
  const std::string bad = write_file(dir + "/corrupt.pcap", corrupt);
  auto r = run_conform({"check", bad, "--keylog", keys, suite, "--out", dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err.rfind(bad + ": frame 3 at byte " + std::to_string(at) + ": ", 0) == 0u, r.err);
  BOOST_TEST(contains(r.err, "(a corrupt record: nothing was judged)\n"), r.err);
  BOOST_TEST(!fs::exists(dir + "/r.json"));
  // dissect as check: exit 2, the same frame and byte, nothing printed.
  r = run_conform({"dissect", bad, "--keylog", keys});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err.rfind(bad + ": frame 3 at byte " + std::to_string(at) + ": ", 0) == 0u, r.err);
  BOOST_TEST(contains(r.err, "(a corrupt record: nothing was shown)\n"), r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
  BOOST_TEST(r.out.empty(), r.out);

  const std::string cut = write_file(dir + "/cut.pcap", bytes.substr(0, bytes.size() - 10));
  r = run_conform({"check", cut, "--keylog", keys, suite, "--out", dir + "/out", "--json", dir + "/c.json"}, ".",
                  kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.err, "warning: " + cut + ": frame 11 at byte "), r.err);
  BOOST_TEST(contains(r.err, "the file ends inside this record, as a capture cut mid-write does; the 10 frames "
                             "before it are judged, this one is not\n"),
             r.err);
  BOOST_TEST(json::parse(read_file(dir + "/c.json")).at("offline").at("captures")[0].at("warnings").size() == 1u);
  // Cut inside its first record: nothing to judge, and the error says the
  // file ends there.
  const std::string early = write_file(dir + "/early.pcap", bytes.substr(0, 100));
  r = run_conform({"check", early, "--keylog", keys, suite, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err.rfind(early + ": no connection to judge: no QUIC client Initial among 0 UDP datagrams and no TCP "
                                 "segment over IPv4; and the file ends early: frame 1 at byte 24: ",
                         0) == 0u,
             r.err);
  r = run_conform({"dissect", cut, "--keylog", keys});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.err.rfind("warning: " + cut + ": frame 11 at byte ", 0) == 0u, r.err);
  BOOST_TEST(contains(r.err, "the file ends inside this record, as a capture cut mid-write does; the 10 frames "
                             "before it are shown, this one is not\n"),
             r.err);
  BOOST_TEST(contains(r.out, "#10 "), r.out);
}

// A record claiming more captured bytes than its packet held (caplen
// 100000 over an original length of 498, tshark: frame 4 at byte 2669 of
// handshake.pcap) runs past the end of the file, as a capture cut mid-write
// does, but no cut writes that: a corrupt record, exit 2, not a warning
// and exit 0 with the last 7 records silently dropped (bad-input attack).
BOOST_AUTO_TEST_CASE(a_record_longer_than_its_packet_is_corrupt_not_cut) {
  const std::string dir = scratch_dir("bad_input_caplen");
  std::string bytes = read_file(kNgtcp2 + "handshake.pcap");
  const std::uint32_t caplen = 100000;
  std::memcpy(bytes.data() + 2669 + 8, &caplen, 4);
  const std::string bad = write_file(dir + "/past3.pcap", bytes);
  const std::string expected = bad + ": frame 4 at byte 2669: truncated dump file; tried to read 100000 captured "
                                     "bytes, only got 5931 (its captured length 100000 exceeds its original length "
                                     "498) (a corrupt record: nothing was shown)\n";
  auto r = run_conform({"dissect", bad, "--keylog", kNgtcp2 + "handshake.keys"});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == expected, r.err);
}

// A pcapng block whose length points past the end of the file: the damage
// is named at the block's own start, not at start + the bogus length (the
// bad-input attack saw "at byte 1195733061" for a 30 kB file).
BOOST_AUTO_TEST_CASE(a_garbage_pcapng_block_is_named_where_it_starts) {
  const std::string dir = scratch_dir("bad_input_garbage_block");
  const std::string bytes = read_file(kNgtcp2 + "handshake-dsb.pcapng");
  // A block of an unknown type (0x99) claiming 1 GiB, little-endian as the file.
  const std::string garbage{"\x99\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00\x00", 16};
  const std::string bad = write_file(dir + "/garbage.pcapng", bytes + garbage);
  auto r = run_conform({"dissect", bad, "--keylog", kNgtcp2 + "handshake.keys"});
  BOOST_TEST(contains(r.err, " at byte " + std::to_string(bytes.size()) + ": "), r.err);
  // Not a file on disk: a device is named as such, not as missing.
  r = run_conform({"check", "/dev/null", "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "/dev/null: not a capture file on disk (a device, pipe or folder)"), r.err);
  // dissect alike (it said "cannot read capture: Illegal seek" for a pipe).
  r = run_conform({"dissect", "/dev/null"});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == "/dev/null: not a capture file on disk (a device, pipe or folder): conform reads a capture more "
                      "than once, so it needs a regular file\n",
             r.err);
}

// A pcapng Decryption Secrets Block whose lengths do not hold together is
// exit 2 naming the block and its byte offset, in check and dissect alike:
// ignoring it would leave packets undecrypted for no visible reason.
BOOST_AUTO_TEST_CASE(a_damaged_secrets_block_is_exit_2_naming_block_and_byte) {
  const std::string dir = scratch_dir("bad_dsb");
  const std::string suite = blind_suite(dir);
  const std::string bytes = read_file(kNgtcp2 + "handshake-dsb.pcapng");
  // Block 1 is the Section Header Block (108 bytes); block 2, at byte 108,
  // the secrets: its length (1584) at +4, its secrets length (1561) at +12.
  constexpr std::size_t kDsb = 108;
  auto with = [&](std::size_t at, std::uint32_t value) {
    std::string b = bytes;
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(value >> (8 * i));
    return b;
  };
  const std::string left = std::to_string(bytes.size() - kDsb);
  struct Damage {
    const char* name;
    std::string bytes;
    std::string why;
  };
  for (const Damage& d : {Damage{"short", with(kDsb + 4, 16), "length 16 is less than its 20 bytes of framing"},
                          Damage{"odd", with(kDsb + 4, 1586), "length 1586 is not a multiple of 4"},
                          Damage{"long", with(kDsb + 4, 1u << 28),
                                 "length 268435456 runs past the end of the file (" + left + " bytes left)"},
                          Damage{"secrets", with(kDsb + 12, 1600),
                                 "secrets length 1600 exceeds the 1564 bytes the block holds"}}) {
    const std::string capture = write_file(dir + "/" + d.name + ".pcapng", d.bytes);
    const std::string expected = capture + ": block 2 at byte 108: Decryption Secrets Block " + d.why + "\n";
    auto r = run_conform({"check", capture, suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", kEnv);
    BOOST_TEST(r.exit_code == 2, d.name << ": " << r.out << r.err);
    BOOST_TEST(r.err == expected, d.name << ": " << r.err);
    BOOST_TEST(!fs::exists(dir + "/r.json"), d.name);
    r = run_conform({"dissect", capture});
    BOOST_TEST(r.exit_code == 2, d.name << ": " << r.err);
    BOOST_TEST(r.err == expected, d.name << ": " << r.err);
    BOOST_TEST(r.out.empty(), d.name);
  }
  // A key log line in the block that is no key log line: named by the
  // block's byte and the line's place in it, in check and dissect alike.
  std::string bad_line = bytes;
  const std::size_t random_at = kDsb + 16 + std::string("CLIENT_HANDSHAKE_TRAFFIC_SECRET ").size();
  bad_line[random_at] = 'z';
  const std::string capture = write_file(dir + "/line.pcapng", bad_line);
  const std::string expected =
      capture + " (Decryption Secrets Block at byte 108):1:33: client random is not 32 bytes of hex";
  auto r = run_conform({"check", capture, suite, "--out", dir + "/out", "--json", dir + "/r.json"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, expected), r.err);
  r = run_conform({"dissect", capture});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(contains(r.err, expected), r.err);
}

// A size without an upper bound let one typo allocate gigabytes: the
// suite loader refuses it where it is written, before anything runs.
BOOST_AUTO_TEST_CASE(an_out_of_range_scenario_size_is_a_toml_error) {
  const std::string dir = scratch_dir("bad_size");
  const std::string suite = write_file(dir + "/huge.toml", R"([[case]]
id = "huge"
rfc = "9000§4.6"
requirement = "a sender SHOULD: a sanity case"
plugin = "quic"
scenario = "uni-fanout"
params = { frames = 10, payload_bytes = 1000000000 }
no_mutant = "refused before it runs"
  [[case.expect]]
  check = "streams_delivered"
  from = "server"
  dir = "uni"
)");
  auto r = run_conform({"run", suite, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == suite + ":7:41: parameter of scenario 'uni-fanout': 'payload_bytes' = 1000000000 is out of "
                              "range: from 0 to 1048576\n",
             r.err);
  BOOST_TEST(!fs::exists(dir + "/out/huge"));
  // `conform plugins` documents the bound.
  r = run_conform({"plugins"}, ".", kEnv);
  BOOST_TEST(contains(r.out, "payload_bytes (integer) = 80, from 0 to 1048576  bytes per frame"), r.out);

  // The TCP relay's and the external plugin's counts, a check's float
  // parameter: refused where written, not ended as ERROR at run time.
  const std::string others = write_file(dir + "/others.toml", R"([[case]]
id = "tcp"
rfc = "9293§3.8.6"
requirement = "a receiver MUST: a sanity case"
plugin = "tcp_relay"
scenario = "transfers"
params = { transfers = 0, cpus = -2 }
  [[case.expect]]
  check = "transfer_time"
  percentile = 150.0
[[case]]
id = "ext"
rfc = "9000§4.6"
requirement = "a sender SHOULD: a sanity case"
plugin = "external"
scenario = "request-response"
params = { requests = -3 }
server = { initial_max_streams_bidi = -5 }
  [[case.expect]]
  check = "datagrams_within_path_mtu"
  max_bytes = -5
)");
  r = run_conform({"list", others}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  for (const char* line : {":7:24: parameter of scenario 'transfers': 'transfers' = 0 is out of range: from 1 to 1000000",
                           ":7:34: parameter of scenario 'transfers': 'cpus' = -2 is out of range: from 0 to 4096",
                           ":10:16: parameter of check 'transfer_time': 'percentile' = 150.0 is out of range: above 0, "
                           "at most 100",
                           ":17:23: parameter of scenario 'request-response': 'requests' = -3 is out of range: from 1 "
                           "to 100000",
                           ":18:39: knob of plugin 'external': 'initial_max_streams_bidi' = -5 is out of range: from 0 "
                           "to 1152921504606846976",
                           ":21:15: parameter of check 'datagrams_within_path_mtu': 'max_bytes' = -5 is out of range: "
                           "at least -1"})
    BOOST_TEST(contains(r.err, others + line), line << "\n" << r.err);
}

// A report that cannot be written is an error naming it, exit 2; the
// reports written before it stay.
BOOST_AUTO_TEST_CASE(a_report_that_cannot_be_written_is_exit_2, *needs_root()) {
  const std::string dir = scratch_dir("bad_full");
  // A device that refuses every write with ENOSPC, as /dev/full does (1, 7).
  const std::string full = dir + "/full";
  BOOST_TEST_REQUIRE(mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0,
                     "cannot make a device node here: " << std::strerror(errno));
  const std::string suite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/simulated.toml";
  for (const char* option : {"--json", "--html"}) {
    auto r = run_conform({"run", suite, "--filter", "sim/impaired-echo", "--out", dir + "/out", "--junit",
                          dir + "/j.xml", option, full});
    BOOST_TEST(r.exit_code == 2, option << r.out << r.err);
    BOOST_TEST(r.err == full + ": cannot write the report: No space left on device\n", r.err);
    BOOST_TEST(fs::is_character_file(full), "the device was replaced");
    BOOST_TEST(contains(read_file(dir + "/j.xml"), "<testcase "));
    fs::remove(dir + "/j.xml");
  }
}

// An output that is an input, or another output under another spelling,
// is refused before anything runs.
BOOST_AUTO_TEST_CASE(reports_never_overwrite_inputs_or_each_other) {
  const std::string dir = scratch_dir("bad_same");
  const std::string suite = write_file(dir + "/s.toml", read_file(std::string(CONFORM_TEST_DATA_DIR) +
                                                                   "/suites/simulated.toml"));
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/r.json", "--junit", dir + "/./r.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/./r.json: --json and --junit name the same file\n", r.err);
  r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/s.toml"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/s.toml: --json names an input file (" + suite +
                          "): writing the report would overwrite it\n",
             r.err);
  BOOST_TEST(!fs::exists(dir + "/out"));
  // A report in a case folder the run writes: an artifact would overwrite
  // it, or it one. Beside the case folders it is fine.
  const std::string id = "sim/impaired-echo";
  r = run_conform({"run", suite, "--out", dir + "/out", "--json", dir + "/out/" + id + "/client.pcap"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find(": --json: lies in the folder of case '" + id + "'") != std::string::npos, r.err);
  BOOST_TEST(!fs::exists(dir + "/out"));
  // conform check: the capture itself.
  const std::string capture = write_file(dir + "/h.pcap", read_file(kNgtcp2 + "handshake.pcap"));
  r = run_conform({"check", capture, blind_suite(dir), "--out", dir + "/out", "--junit", capture}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == capture + ": --junit names an input file (" + capture +
                          "): writing the report would overwrite it\n",
             r.err);
  BOOST_TEST(read_file(capture) == read_file(kNgtcp2 + "handshake.pcap"));
}

// `--out` (and a report file) inside a suite folder, or that folder itself,
// under any spelling: refused before anything is written, naming both.
BOOST_AUTO_TEST_CASE(outputs_never_land_inside_an_input_folder) {
  const std::string dir = scratch_dir("bad_inside");
  const std::string suites = dir + "/suites";
  write_file(suites + "/s.toml", read_file(std::string(CONFORM_TEST_DATA_DIR) + "/suites/simulated.toml"));
  for (const std::string& out : {suites, suites + "/out", dir + "/./suites/../suites/deep/out"}) {
    auto r = run_conform({"run", suites, "--out", out});
    BOOST_TEST(r.exit_code == 2, out << ": " << r.out << r.err);
    BOOST_TEST(r.err == out + ": --out is inside the input folder " + suites +
                            ": outputs are never written among the inputs\n",
               r.err);
  }
  auto r = run_conform({"run", suites, "--out", dir + "/out", "--json", suites + "/r.json"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == suites + "/r.json: --json is inside the input folder " + suites +
                          ": outputs are never written among the inputs\n",
             r.err);
  // conform check, the suite folder beside a capture.
  const std::string folder = dir + "/check-suites";
  blind_suite(folder);
  r = run_conform({"check", kNgtcp2 + "handshake.pcap", folder, "--out", folder + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == folder + "/out: --out is inside the input folder " + folder +
                          ": outputs are never written among the inputs\n",
             r.err);
  BOOST_TEST(fs::directory_iterator(suites)->path().filename() == "s.toml");
  BOOST_TEST(std::distance(fs::directory_iterator(suites), fs::directory_iterator()) == 1);
  BOOST_TEST(!fs::exists(folder + "/out"));
}

// The same capture twice would give two results of one label: refused,
// naming it and both positions. Two files of one name are told apart.
BOOST_AUTO_TEST_CASE(a_capture_given_twice_is_refused_and_namesakes_are_told_apart) {
  const std::string dir = scratch_dir("bad_twice");
  const std::string suite = blind_suite(dir);
  const std::string capture = write_file(dir + "/a/handshake.pcap", read_file(kNgtcp2 + "handshake.pcap"));
  const std::string keys = kNgtcp2 + "handshake.keys";
  auto r = run_conform({"check", capture, dir + "/a/../a/handshake.pcap", "--keylog", keys, suite, "--out",
                        dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == dir + "/a/../a/handshake.pcap: given twice (inputs 1 and 2): each input is read once\n",
             r.err);
  BOOST_TEST(!fs::exists(dir + "/r.json"));

  r = run_conform({"check", capture, kNgtcp2 + "handshake.pcap", "--keylog", keys, suite, "--out", dir + "/out",
                   "--json", dir + "/r.json"},
                  ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(verdicts(dir + "/r.json") ==
             (std::map<std::string, std::string>{{"blind/streams @ handshake.pcap#1", "PASS"},
                                                 {"blind/padded @ handshake.pcap#1", "PASS"},
                                                 {"blind/streams @ handshake.pcap~2#1", "PASS"},
                                                 {"blind/padded @ handshake.pcap~2#1", "PASS"}}));
  BOOST_TEST(contains(r.out, "  handshake.pcap~2#1  QUIC  "), r.out);
}

// conform-quic refuses what no QUIC stack can send, before it opens a socket.
BOOST_AUTO_TEST_CASE(conform_quic_validates_its_options) {
  const std::string dir = scratch_dir("bad_quic_tool");
  const std::string url = "https://127.0.0.1:1/x";
  struct Bad {
    std::vector<std::string> args;
    std::string option;
  };
  for (const Bad& b : {Bad{{"client", url, "--initial-max-data", "-1"}, "--initial-max-data"},
                       Bad{{"client", url, "--max-idle-timeout-ms", "-5"}, "--max-idle-timeout-ms"},
                       Bad{{"client", url, "--initial-max-stream-data-uni", "4611686018427387904"},
                           "--initial-max-stream-data-uni"},
                       Bad{{"client", url, "--initial-max-streams-bidi", "-1"}, "--initial-max-streams-bidi"},
                       Bad{{"client", url, "-n", "0"}, "-n"},
                       Bad{{"client", url, "--seed", "99999999999999999999999"}, "--seed"},
                       Bad{{"server", "--listen", "127.0.0.1:0", "--cert", "c", "--key", "k",
                            "--max-connections", "18446744073709551616"},
                           "--max-connections"},
                       Bad{{"server", "--listen", "127.0.0.1:0", "--cert", "c", "--key", "k", "--htdocs",
                            dir + "/none"},
                           "--htdocs"}}) {
    auto r = run_program(CONFORM_QUIC_BINARY, b.args);
    BOOST_TEST(r.exit_code == 2, b.option << ": " << r.err);
    BOOST_TEST(contains(r.err, b.option), b.option << ": " << r.err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
