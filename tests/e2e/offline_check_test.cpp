// `conform check` on the committed captures: the suites' expect blocks judge
// captures made elsewhere (ngtcp2's QUIC with key logs, Linux TCP), each
// connection on its own, with no plugin run; every verdict asserted.
#include "support/needs.hpp"
#include "support/support.hpp"

#include "capture/pcap_reader.hpp"
#include "capture/pcap_writer.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <cstring>
#include <filesystem>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kCaptures = std::string(CONFORM_SOURCE_DIR) + "/captures";
const std::string kSuites = std::string(CONFORM_SOURCE_DIR) + "/suites";
// The real plugins: the suites name them, and validation needs their declarations.
const std::vector<std::string> kEnv{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The line of QUIC connection `n` in the sources file of a capture's
// folder `root` (`OUT/@check/FILE`), as written; empty when it has none.
std::string source_line(const std::string& root, std::size_t n) {
  std::istringstream lines(read_file(root + "/connections.jsonl"));
  const std::string prefix = "{\"connection\":" + std::to_string(n) + ",";
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return {};
}

json source_of(const std::string& root, std::size_t n) { return json::parse(source_line(root, n)); }

std::map<std::string, std::string> verdicts(const json& report) {
  std::map<std::string, std::string> out;
  for (const auto& c : report.at("cases")) out[c.at("id")] = c.at("status");
  return out;
}

const json& case_named(const json& report, const std::string& id) {
  for (const auto& c : report.at("cases"))
    if (c.at("id") == id) return c;
  BOOST_FAIL("no case " + id);
  throw;
}

// datagrams_captured cases bounding what one side sent to exactly `count`,
// and to one less (which must fail).
std::string count_cases(const std::string& side, int count) {
  std::string out;
  for (int max : {count, count - 1})
    out += "[[case]]\nid = \"count/" + side + (max == count ? "" : "-one-less") +
           "\"\nrfc = \"9000§12\"\nrequirement = \"what a side sent MUST be in the capture (sanity)\"\n"
           "plugin = \"quic\"\nscenario = \"handshake\"\n  [[case.expect]]\n  check = \"datagrams_captured\"\n"
           "  vantage = \"client\"\n  from = \"" + side + "\"\n  min = " + std::to_string(count) +
           "\n  max = " + std::to_string(max) + "\n\n";
  return out;
}

// "CASE CHECK" of every FAIL instance in `report`, the case without its
// " @ capture#N", with " [LEVEL]" when `with_level`.
std::set<std::string> failed_instances(const json& report, bool with_level) {
  std::set<std::string> out;
  for (const auto& k : report.at("cases"))
    for (const auto& check : k.at("runs")[0].at("checks"))
      if (check.at("verdict") == "FAIL") {
        const std::string id = k.at("id");
        out.insert(id.substr(0, id.find(" @ ")) + " " + check.at("check").get<std::string>() +
                   (with_level ? " [" + check.at("level").get<std::string>() + "]" : ""));
      }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(offline_check_test)

// Datagram counts per side from tshark (`-Y udp.dstport==4433` for the
// client, `udp.srcport==4433` for the server); a GSO record counts once.
BOOST_AUTO_TEST_CASE(every_ngtcp2_capture_is_judged_from_its_handshake) {
  struct Expected {
    const char* capture;
    int client, server;
  };
  for (const Expected e : {Expected{"handshake.pcap", 6, 5}, {"retry.pcap", 7, 5}, {"stream-limit.pcap", 25, 25},
                           {"loss.pcap", 111, 317}, {"key-update.pcap", 37, 296}, {"large.pcap", 226, 2190},
                           {"migration.pcap", 47, 315}, {"gso.pcap", 39, 40}, {"handshake-dsb.pcapng", 6, 5}}) {
    const std::string name = e.capture;
    const std::string dir = scratch_dir("offline_" + name);
    const std::string counts = write_file(dir + "/counts.toml", count_cases("client", e.client) +
                                                                    count_cases("server", e.server));
    std::vector<std::string> args{"check", kCaptures + "/ngtcp2/" + name};
    // The pcapng carries its key log inside.
    if (name.ends_with(".pcap"))
      args.insert(args.end(), {"--keylog", kCaptures + "/ngtcp2/" + fs::path(name).stem().string() + ".keys"});
    args.insert(args.end(), {kSuites + "/rfc9000/handshake.toml", counts, "--filter", "handshake/both-directions",
                             "--filter", "count/*", "--out", dir + "/out", "--json", dir + "/r.json"});
    auto r = run_conform(args, ".", kEnv);
    BOOST_TEST(r.exit_code == 1, name << ": " << r.out << r.err);
    // One connection, whatever the migration did to the client's port.
    BOOST_TEST(contains(r.out, "offline check of 1 capture (1 connection)"), name << ": " << r.out);
    BOOST_TEST(contains(r.out, "  " + name + "#1  QUIC  client 127.0.0.1:"), name << ": " << r.out);
    BOOST_TEST(contains(r.out, " → server 127.0.0.1:4433 (from the client's Initial (frame 1)), "), name);
    const json report = json::parse(read_file(dir + "/r.json"));
    const std::string at = " @ " + name + "#1";
    BOOST_TEST(verdicts(report) == (std::map<std::string, std::string>{{"handshake/both-directions" + at, "PASS"},
                                                                       {"count/client" + at, "PASS"},
                                                                       {"count/client-one-less" + at, "FAIL"},
                                                                       {"count/server" + at, "PASS"},
                                                                       {"count/server-one-less" + at, "FAIL"}}),
               name);
    // The capture's folder holds one file, a line per connection: it refers
    // to the capture, by path and frames, says where it was taken and holds
    // the connection's key log lines. No copy of the capture, and no folder
    // per connection.
    const std::string root = dir + "/out/@check/" + name;
    const json source = source_of(root, 1);
    BOOST_TEST(source.at("connection") == 1, name);
    BOOST_TEST(source.at("capture") == fs::absolute(kCaptures + "/ngtcp2/" + name).string(), name);
    BOOST_TEST(source.at("frames").size() == report.at("offline").at("captures")[0].at("units")[0].at("frames"));
    BOOST_TEST(source.at("frames")[0] == 1, name);
    BOOST_TEST(source.at("vantage") == report.at("offline").at("captures")[0].at("vantage"), name);
    // The dsb capture's keys are in the capture itself: the same lines.
    const std::string keys = fs::path(name).stem().string() == "handshake-dsb" ? "handshake" : fs::path(name).stem().string();
    BOOST_TEST(source.at("key_log") == read_file(kCaptures + "/ngtcp2/" + keys + ".keys"), name);
    BOOST_TEST(std::distance(fs::directory_iterator(root), fs::directory_iterator()) == 1, name);
  }
}

// Chromium moved to a new port when its path degraded (client.pcap and
// client-2.pcap of one interop run; captures/migration holds the server's
// capture) and uses empty connection IDs, so ngtcp2's answers to the new
// port name no connection ID: only the addresses route them (RFC 9000
// §5.2), and only once the client's packet from there has opened. Ground
// truth from tshark, on a copy with the new port written back to the old
// (tshark does not follow the move either): 167 datagrams from the client
// and 158 from the server; the server's bidi limit went from 10
// (initial_max_streams_bidi) to 111, and it raised it to 82 at frame 281,
// on the new path, before the client opened streams up to 81 (client bidi
// stream 324) at frame 284. Before the dissector followed the move,
// max_streams_extended said the client opened a stream beyond the limit
// there: FAIL.
BOOST_AUTO_TEST_CASE(a_client_that_moves_to_a_new_port_is_followed_there) {
  const std::string dir = scratch_dir("offline_port_migration");
  const std::string counts = write_file(dir + "/counts.toml", count_cases("client", 167) + count_cases("server", 158));
  auto r = run_conform({"check", kCaptures + "/migration/chromium-port-migration.pcap", "--keylog",
                        kCaptures + "/migration/chromium-port-migration.keys", kSuites + "/capture", counts, "--filter",
                        "count/*", "--filter", "capture/max-streams-extended", "--out", dir + "/out", "--json",
                        dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(contains(r.out, "offline check of 1 capture (1 connection)"), r.out);
  const json report = json::parse(read_file(dir + "/r.json"));
  const std::string at = " @ chromium-port-migration.pcap#1";
  BOOST_TEST(verdicts(report) == (std::map<std::string, std::string>{{"capture/max-streams-extended" + at, "PASS"},
                                                                     {"count/client" + at, "PASS"},
                                                                     {"count/client-one-less" + at, "FAIL"},
                                                                     {"count/server" + at, "PASS"},
                                                                     {"count/server-one-less" + at, "FAIL"}}),
             r.out);
  bool raised = false;
  for (const auto& check : case_named(report, "capture/max-streams-extended" + at).at("runs")[0].at("checks"))
    raised = raised || contains(check.at("summary").get<std::string>(), "the server bidi limit went 10 → 111");
  BOOST_TEST(raised, r.out);
}

BOOST_AUTO_TEST_CASE(two_connections_are_judged_one_by_one_with_evidence_in_the_original_frames) {
  // handshake.pcap (frames 1-11, client port 55435) then retry.pcap (frames
  // 12-23, client port 38843), concatenated with `mergecap -a`.
  const std::string dir = scratch_dir("offline_two");
  const std::string suite = write_file(dir + "/six.toml", count_cases("client", 6));
  const std::string capture = kCaptures + "/ngtcp2/two-connections.pcap";
  auto r = run_conform({"check", capture, "--keylog", kCaptures + "/ngtcp2/two-connections.keys", suite, "--out",
                        dir + "/out", "--json", dir + "/r.json", "--filter", "count/client"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "offline check of 1 capture (2 connections)"), r.out);
  BOOST_TEST(contains(r.out, "  two-connections.pcap#1  QUIC  client 127.0.0.1:55435 → server 127.0.0.1:4433 "
                             "(from the client's Initial (frame 1)), 11 frames"), r.out);
  BOOST_TEST(contains(r.out, "  two-connections.pcap#2  QUIC  client 127.0.0.1:38843 → server 127.0.0.1:4433 "
                             "(from the client's Initial (frame 12)), 12 frames"), r.out);
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(verdicts(report) == (std::map<std::string, std::string>{{"count/client @ two-connections.pcap#1", "PASS"},
                                                                     {"count/client @ two-connections.pcap#2", "FAIL"}}));
  // Connection 2's client datagrams are frames 12 ... 23 of the capture given.
  const json& second = case_named(report, "count/client @ two-connections.pcap#2");
  const json& evidence = second.at("runs")[0].at("checks")[0].at("evidence");
  BOOST_TEST(evidence[0].at("capture") == capture);
  BOOST_TEST(evidence[0].at("frame") == 12);
  BOOST_TEST(evidence[1].at("frame") == 23);
  // Summaries name the capture judged, not the connection folder's file.
  BOOST_TEST(second.at("runs")[0].at("checks")[0].at("summary") ==
             "two-connections.pcap holds 7 datagrams from client (required 6..6)");
  // Nothing was simulated: no seed anywhere on the console.
  BOOST_TEST(contains(r.out, " · captures, no seed · "), r.out);
  BOOST_TEST(!contains(r.out, "seed 0"), r.out);
  BOOST_TEST(!contains(r.out, "seed 1"), r.out);
  // The failure line replays from the captures, not with a seed.
  BOOST_TEST(contains(r.out, "(replay: conform check " + capture + " --keylog " + kCaptures +
                                 "/ngtcp2/two-connections.keys " + suite + " --filter count/client)"),
             r.out);
  BOOST_TEST(report.at("offline").at("captures")[0].at("units").size() == 2u);
  // Each connection's folder keeps its own 10 lines of the key log, not the
  // capture's 20: --out grows with the capture, not with its square.
  for (const auto& [n, random] : std::vector<std::pair<int, std::string>>{
           {1, "55fe3fd8026123aafd507aab8d58e75ab3579a5b77c29c9fd37373c8259f82c7"},
           {2, "71c691f81878660153ca8b86de98d9b150a0e3c2ceadff22e5b6056cc4d1613e"}}) {
    std::istringstream keys(source_of(dir + "/out/@check/two-connections.pcap", n).at("key_log").get<std::string>());
    int lines = 0;
    for (std::string line; std::getline(keys, line); ++lines) BOOST_TEST(line.find(" " + random + " ") != std::string::npos, line);
    BOOST_TEST(lines == 10, n);
  }
}

// A key log that can be read only once (`--keylog <(...)`, a pipe) serves
// every capture as the same file does: each --keylog is read once.
BOOST_AUTO_TEST_CASE(a_key_log_from_a_pipe_serves_every_capture) {
  const std::string dir = scratch_dir("offline_pipe");
  const std::string keys = kCaptures + "/ngtcp2/two-connections.keys";
  const std::string first = dir + "/first.pcap", second = dir + "/second.pcap";
  fs::copy_file(kCaptures + "/ngtcp2/two-connections.pcap", first);
  fs::copy_file(kCaptures + "/ngtcp2/two-connections.pcap", second);
  auto from_file = run_conform({"check", first, second, "--keylog", keys, "--out", dir + "/file", "--json",
                                dir + "/file.json"},
                               ".", kEnv);
  const std::string command = "'" + std::string(CONFORM_BINARY) + "' check '" + first + "' '" + second +
                              "' --keylog <(cat '" + keys + "') --out '" + dir + "/pipe' --json '" + dir +
                              "/pipe.json'";
  auto from_pipe = run_program("/bin/bash", {"-c", command}, ".", kEnv);
  BOOST_TEST(from_pipe.exit_code == from_file.exit_code, from_pipe.out + from_pipe.err);
  const auto file_verdicts = verdicts(json::parse(read_file(dir + "/file.json")));
  BOOST_TEST(file_verdicts.size() >= 4u);
  BOOST_TEST(std::count_if(file_verdicts.begin(), file_verdicts.end(), [](const auto& v) { return v.second == "PASS"; }) >= 2);
  BOOST_TEST(verdicts(json::parse(read_file(dir + "/pipe.json"))) == file_verdicts, from_pipe.out);
  // An empty path is bad input, not an internal error.
  auto empty = run_conform({"check", first, "--keylog", "", "--out", dir + "/empty"}, ".", kEnv);
  BOOST_TEST(empty.exit_code == 2, empty.out + empty.err);
  BOOST_TEST(contains(empty.err, "--keylog: an empty path names no key log"), empty.err);
}

// The TCP captures' values are in captures/tcp/README.md, from tshark.
BOOST_AUTO_TEST_CASE(tcp_captures_are_judged_from_the_syn) {
  const std::string dir = scratch_dir("offline_tcp");
  auto tcp_case = [](const std::string& id, const std::string& check, const std::string& params) {
    return "[[case]]\nid = \"" + id + "\"\nrfc = \"9293§3.8.6\"\nrequirement = \"SHOULD (bound from tshark)\"\n"
           "plugin = \"tcp_relay\"\nscenario = \"transfers\"\n  [[case.expect]]\n  check = \"" + check + "\"\n" +
           params + "\n";
  };
  const std::string suite = write_file(
      dir + "/tcp.toml",
      tcp_case("tiny/transfer-under-3.1s", "transfer_time", "  max_ms = 3100.0\n") +
          tcp_case("tiny/transfer-under-3s", "transfer_time", "  max_ms = 3000.0\n") +
          tcp_case("tiny/eleven-zero-windows", "zero_window_events", "  by = \"initiator\"\n  max = 11\n") +
          tcp_case("tiny/ten-zero-windows", "zero_window_events", "  by = \"initiator\"\n  max = 10\n") +
          tcp_case("tiny/server-never-zero", "zero_window_events", "  by = \"responder\"\n  max = 0\n"));
  const std::string tiny = kCaptures + "/tcp/linux-tiny-buffer.pcap";
  auto r = run_conform({"check", tiny, suite, kSuites + "/tcp", "--out", dir + "/out", "--json", dir + "/r.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "  linux-tiny-buffer.pcap#1  TCP  client 127.0.0.1:40654 → server 127.0.0.1:44873 "
                             "(from the SYN (frame 1)), 129 frames"), r.out);
  BOOST_TEST(contains(r.out, "  mutants are not applied offline (1 case declares some): they need a plugin run\n"),
             r.out);
  const json report = json::parse(read_file(dir + "/r.json"));
  const std::string at = " @ linux-tiny-buffer.pcap#1";
  // The tiny buffer's transfer stalls: every case of suites/tcp fails on it.
  BOOST_TEST(verdicts(report) ==
             (std::map<std::string, std::string>{{"tiny/transfer-under-3.1s" + at, "PASS"},
                                                 {"tiny/transfer-under-3s" + at, "FAIL"},
                                                 {"tiny/eleven-zero-windows" + at, "PASS"},
                                                 {"tiny/ten-zero-windows" + at, "FAIL"},
                                                 {"tiny/server-never-zero" + at, "PASS"},
                                                 {"loopback-stall/buffers-auto" + at, "FAIL"},
                                                 {"loopback-stall/client-fixed" + at, "FAIL"},
                                                 {"loopback-stall/all-fixed" + at, "FAIL"}}));
  // Evidence names the capture given and tshark's frame numbers: the first
  // zero window the client advertised is frame 71.
  const json& ten = case_named(report, "tiny/ten-zero-windows" + at);
  const json& evidence = ten.at("runs")[0].at("checks")[0].at("evidence");
  BOOST_TEST(evidence[0].at("capture") == tiny);
  BOOST_TEST(evidence[0].at("frame") == 71);
  BOOST_TEST(report.at("offline").at("mutants_not_applied") == json::parse(R"(["loopback-stall/all-fixed"])"));

  // The synthetic capture: one connection beside a stray UDP datagram.
  const std::string synthetic = kCaptures + "/tcp/synthetic.pcap";
  const std::string gaps = write_file(dir + "/gaps.toml",
                                      tcp_case("synthetic/gap-under-480ms", "no_stalls", "  max_gap_ms = 480.0\n") +
                                          tcp_case("synthetic/gap-under-470ms", "no_stalls", "  max_gap_ms = 470.0\n"));
  auto s = run_conform({"check", synthetic, gaps, "--out", dir + "/out2", "--json", dir + "/s.json"}, ".", kEnv);
  BOOST_TEST(contains(s.out, "vantage of " + synthetic + ": path (inferred: cannot tell: no QUIC connection to read it "
                             "from (no TCP check needs it), so taken as on the path)"),
             s.out);
  BOOST_TEST(s.exit_code == 1, s.out + s.err);
  BOOST_TEST(contains(s.out, "  synthetic.pcap#1  TCP  client 10.0.0.1:40000 → server 10.0.0.2:80 (from the SYN (frame 1)), 20 frames"),
             s.out);
  BOOST_TEST(contains(s.out, "  note: synthetic.pcap: 1 UDP datagram of no QUIC connection (first: frame 5, "), s.out);
  BOOST_TEST(verdicts(json::parse(read_file(dir + "/s.json"))) ==
             (std::map<std::string, std::string>{{"synthetic/gap-under-480ms @ synthetic.pcap#1", "PASS"},
                                                 {"synthetic/gap-under-470ms @ synthetic.pcap#1", "FAIL"}}));
}

BOOST_AUTO_TEST_CASE(bad_input_is_exit_2_with_the_file_named) {
  const std::string dir = scratch_dir("offline_bad");
  const std::string suite = kSuites + "/rfc9000";
  auto r = run_conform({"check", suite}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == suite + ": no capture given: name a pcap or pcapng file\n");
  const std::string capture = kCaptures + "/ngtcp2/handshake.pcap";
  r = run_conform({"check", dir + "/none.pcap", suite}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == dir + "/none.pcap: no such capture file\n");
  const std::string text = write_file(dir + "/text.pcap", "not a capture\n");
  r = run_conform({"check", text, suite, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, text + ": cannot read capture: "), r.err);
  // After a good capture: told before the good one is read and judged, and
  // with nothing written (the reading's progress line never begins).
  r = run_conform({"check", capture, text, suite, "--out", dir + "/after-good"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == text + ": cannot read capture: unknown file format\n", r.err);
  BOOST_TEST(r.out == "", r.out);
  BOOST_TEST(!fs::exists(dir + "/after-good"));
  r = run_conform({"check", capture, "--keylog", dir + "/none.keys", suite, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, dir + "/none.keys: "), r.err);
  r = run_conform({"check", capture, suite, "--filter", "nope", "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == suite + ": no case matches --filter nope\n");
  // A capture of conform's fixture: UDP, but no QUIC and no TCP.
  const std::string fixture_suite = std::string(CONFORM_TEST_DATA_DIR) + "/suites/mutants.toml";
  run_conform({"run", fixture_suite, "--filter", "mutant/killed", "--out", dir + "/fixture"});
  const std::string plain = dir + "/fixture/mutant/killed/client.pcap";
  r = run_conform({"check", plain, suite, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err == plain + ": no connection to judge: no QUIC client Initial among 6 UDP datagrams and no TCP "
                              "segment over IPv4\n");
}

// A copy of `from` (classic pcap) keeping only `snap` bytes of each record
// from the `first`-th on, as `tcpdump -s snap` would have.
static std::string with_snap_length(const std::string& from, const std::string& to, std::size_t first, std::uint32_t snap) {
  const std::string in = read_file(from);
  std::string out = in.substr(0, 24);
  std::size_t offset = 24;
  for (std::size_t record = 1; offset + 16 <= in.size(); ++record) {
    std::uint32_t header[4];
    std::memcpy(header, in.data() + offset, 16);
    const std::string data = in.substr(offset + 16, header[2]);
    offset += 16 + header[2];
    if (record >= first) header[2] = std::min(header[2], snap);
    out.append(reinterpret_cast<const char*>(header), 16);
    out += data.substr(0, header[2]);
  }
  return write_file(to, out);
}

BOOST_AUTO_TEST_CASE(a_quic_connection_cut_by_the_snap_length_is_exit_2_not_a_pass) {
  const std::string dir = scratch_dir("offline_snap");
  const std::string cut =
      with_snap_length(kCaptures + "/ngtcp2/handshake.pcap", dir + "/snap100.pcap", 3, 100);
  auto r = run_conform({"check", cut, "--keylog", kCaptures + "/ngtcp2/handshake.keys", "--out", dir + "/out"}, ".",
                       kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == cut + ": frame 3: the snap length cut 6 datagrams of QUIC connection 1 short, and a packet "
                            "cut short cannot be decrypted (its AEAD tag covers all of it), so no check could see "
                            "that connection whole; capture with a snap length of at least the path MTU "
                            "(tcpdump -s 0)\n");
  // Cut from the first record, as `tcpdump -s 100` does (tshark: 8 of the
  // 11 frames are longer than 100 bytes): the client
  // Initial itself is short, so no connection is found, and the error
  // says why.
  const std::string all = with_snap_length(kCaptures + "/ngtcp2/handshake.pcap", dir + "/all100.pcap", 1, 100);
  r = run_conform({"check", all, "--keylog", kCaptures + "/ngtcp2/handshake.keys", "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == all + ": no connection to judge: no QUIC client Initial among 11 UDP datagrams and no TCP "
                            "segment over IPv4; the snap length cut 8 of them short, and an Initial cut short "
                            "cannot be read: capture with a snap length of at least the path MTU (tcpdump -s 0)\n",
             r.err);
}

// A capture that stops 5.203 ms into the client's wait (tshark: frame 2,
// the server's ACK of the ClientHello, at 7.819 ms; frame 3, the client's
// ACK-only Handshake packet, at 13.022 ms; nothing after it in the first
// three records) cannot show whether a probe came within twice the first
// PTO: 2 x (7.819 + 2 x 7.819) = 46.914 ms (RFC 9002 §6.2.1). It was a
// MUST-level FAIL, "the handshake deadlocked".
BOOST_AUTO_TEST_CASE(a_capture_cut_in_the_clients_wait_is_no_deadlock) {
  const std::string dir = scratch_dir("offline_cut_wait");
  const std::string in = read_file(kCaptures + "/ngtcp2/handshake.pcap");
  std::size_t offset = 24;  // the global header, then three records
  for (int record = 0; record < 3; ++record) {
    std::uint32_t captured = 0;
    std::memcpy(&captured, in.data() + offset + 8, 4);
    offset += 16 + captured;
  }
  const std::string cut = write_file(dir + "/three.pcap", in.substr(0, offset));
  auto r = run_conform({"check", cut, "--keylog", kCaptures + "/ngtcp2/handshake.keys", kSuites + "/rfc9000",
                        "--filter", "handshake-loss/anti-deadlock-probe", "--out", dir + "/out"},
                       ".", kEnv);
  BOOST_TEST(contains(r.out, "NOT JUDGED  handshake-loss/anti-deadlock-probe @ three.pcap#1"), r.out);
  BOOST_TEST(contains(r.out, "client_anti_deadlock_probe: cannot judge: the capture ends 5.203 ms into a quiet spell "
                             "of the client's from frame 2 (7.819 ms), within the bound of 46.914 ms (twice the "
                             "first PTO for an RTT of 7.819 ms): it does not show whether a probe came after"),
             r.out);
}

BOOST_AUTO_TEST_CASE(a_check_stopped_by_bad_input_leaves_earlier_results_in_out) {
  const std::string dir = scratch_dir("offline_keeps_out");
  const std::string capture = kCaptures + "/ngtcp2/handshake.pcap";
  const std::string keys = kCaptures + "/ngtcp2/handshake.keys";
  const std::string root = dir + "/out/@check/handshake.pcap";
  auto r = run_conform({"check", capture, "--keylog", keys, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const std::string before = source_line(root, 1);
  BOOST_TEST(!before.empty());
  const std::string bad_keys = write_file(dir + "/bad.keys", "BOGUS_LABEL 00 11\n");
  const std::string corrupt = write_file(dir + "/corrupt.pcap", read_file(capture).substr(0, 24) + std::string(40, '\xff'));
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"check", capture, "--keylog", bad_keys, "--out", dir + "/out"},
           {"check", capture, corrupt, "--keylog", keys, "--out", dir + "/out"}}) {
    r = run_conform(args, ".", kEnv);
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(source_line(root, 1) == before);
  }
}

namespace {

// Each case's status and its checks' verdicts on connection `unit` of a
// check's JSON report, by declared case id.
std::map<std::string, std::string> judged(const json& report, const std::string& unit) {
  std::map<std::string, std::string> out;
  const std::string at = " @ " + unit;
  for (const auto& c : report.at("cases")) {
    const std::string id = c.at("id");
    if (!id.ends_with(at)) continue;
    std::string text = c.at("status").get<std::string>() + ":";
    for (const auto& k : c.at("runs")[0].at("checks"))
      text += " " + k.at("check").get<std::string>() + "=" + k.at("verdict").get<std::string>();
    out[id.substr(0, id.size() - at.size())] = text;
  }
  return out;
}

// `datagrams` written as conform writes captures (raw IPv4, addresses and
// ports kept).
std::string write_udp_capture(const std::string& path, const std::vector<conform::CapturedDatagram>& datagrams) {
  conform::PcapWriter writer(path);
  for (const auto& d : datagrams)
    writer.write_udp(d.time_ns, {d.from.address, d.from.port}, {d.to.address, d.to.port}, d.payload);
  return path;
}

}  // namespace

// Connections are judged as each ends, while others are still open:
// handshake.pcap's connection and retry.pcap's, merged by time with
// retry's moved to start 5 ms after handshake's first datagram, so each is
// open while the other runs (handshake's lasts 32 ms), and retry's cut
// before its last two datagrams (tshark: its CONNECTION_CLOSE is frame 12,
// the last), so it never ends and is judged at the capture's end. Each connection gets the verdicts it gets
// checked alone, cut the same way.
BOOST_AUTO_TEST_CASE(interleaved_connections_and_one_that_never_ends_are_judged_as_alone) {
  const std::string dir = scratch_dir("offline_interleaved");
  auto handshake = conform::read_udp_datagrams(kCaptures + "/ngtcp2/handshake.pcap");
  auto retry = conform::read_udp_datagrams(kCaptures + "/ngtcp2/retry.pcap");
  BOOST_TEST_REQUIRE(retry.size() == 12u);
  retry.resize(10);
  const std::int64_t shift = handshake.front().time_ns + 5'000'000 - retry.front().time_ns;
  for (auto& d : retry) d.time_ns += shift;
  std::vector<conform::CapturedDatagram> merged = handshake;
  merged.insert(merged.end(), retry.begin(), retry.end());
  std::stable_sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  const std::string keys = write_file(dir + "/both.keys", read_file(kCaptures + "/ngtcp2/handshake.keys") +
                                                             read_file(kCaptures + "/ngtcp2/retry.keys"));
  auto check = [&](const std::string& capture, const std::string& name) {
    const auto r = run_conform({"check", capture, "--keylog", keys, "--out", dir + "/out-" + name, "--json",
                                dir + "/" + name + ".json", "-q"},
                               ".", kEnv);
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), name << ": " << r.out + r.err);
    return json::parse(read_file(dir + "/" + name + ".json"));
  };
  const json both = check(write_udp_capture(dir + "/merged.pcap", merged), "merged");
  const json first = check(write_udp_capture(dir + "/handshake.pcap", handshake), "handshake");
  const json second = check(write_udp_capture(dir + "/retry.pcap", retry), "retry");
  // Interleaved: the second connection's first datagram comes before the
  // first's last.
  const auto& units = both.at("offline").at("captures")[0].at("units");
  BOOST_TEST_REQUIRE(units.size() == 2u);
  BOOST_TEST(units[0].at("frames") == handshake.size());
  BOOST_TEST(units[1].at("frames") == retry.size());
  BOOST_TEST(judged(both, "merged.pcap#1").size() >= 6u);
  BOOST_TEST(judged(both, "merged.pcap#1") == judged(first, "handshake.pcap#1"));
  BOOST_TEST(judged(both, "merged.pcap#2") == judged(second, "retry.pcap#1"));
}

// Each connection is judged as it ends, under the vantage the connections
// read so far show; where the whole capture shows another, the capture is
// read again for those connections. A simulated run's server.pcap (a lost
// server flight: its connection judged at the server when it ends), then,
// 100 s later, quic-go-lossy.pcap's connection (a client-side capture whose
// client and server each skipped packets the capture saw): the whole
// capture is on neither endpoint's receive side. Its verdicts are those of
// the same capture checked with that vantage given, which judges every
// connection once, as it ends.
BOOST_AUTO_TEST_CASE(a_connection_judged_under_a_vantage_the_whole_capture_denies_is_judged_again) {
  const std::string dir = scratch_dir("offline_rejudged");
  const std::string suite = kSuites + "/rfc9000";
  const std::string id = "handshake-loss/stale-ack-keeps-backoff";
  const auto ran = run_conform({"run", suite, "--filter", id, "--out", dir + "/run", "-q"}, ".", kEnv);
  BOOST_TEST_REQUIRE(ran.exit_code == 0, ran.out + ran.err);
  const auto first = conform::read_udp_datagrams(dir + "/run/" + id + "/server.pcap");
  auto second = conform::read_udp_datagrams(kCaptures + "/third-party/quic-go-lossy/quic-go-lossy.pcap");
  const std::int64_t shift = first.back().time_ns + 100'000'000'000 - second.front().time_ns;
  for (auto& d : second) d.time_ns += shift;
  std::vector<conform::CapturedDatagram> merged = first;
  merged.insert(merged.end(), second.begin(), second.end());
  const std::string capture = write_udp_capture(dir + "/merged.pcap", merged);
  const std::string keys =
      write_file(dir + "/both.keys", read_file(dir + "/run/" + id + "/keys.log") +
                                         read_file(kCaptures + "/third-party/quic-go-lossy/quic-go-lossy.keys"));
  std::string err;  // of the last check
  auto check = [&](const std::string& name, std::vector<std::string> extra,
                   std::vector<std::string> env = kEnv) {
    std::vector<std::string> args{"check", capture, "--keylog", keys, suite, "--out", dir + "/out-" + name,
                                  "--json", dir + "/" + name + ".json", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_conform(args, ".", env);
    BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), name << ": " << r.out + r.err);
    err = r.err;
    return json::parse(read_file(dir + "/" + name + ".json"));
  };
  const json inferred = check("inferred", {});
  BOOST_TEST(err == "", err);
  const std::string vantage = inferred.at("offline").at("captures")[0].at("vantage");
  BOOST_TEST(vantage == "path");
  const json given = check("given", {"--vantage", vantage});
  const json at_server = check("at_server", {"--vantage", "server"});
  // What each case said of each connection, summaries and evidence included.
  auto said = [](const json& report) {
    std::map<std::string, std::string> out;
    for (const auto& c : report.at("cases")) {
      std::string text = c.at("status").get<std::string>();
      for (const auto& k : c.at("runs")[0].at("checks")) text += "\n" + k.dump();
      out[c.at("id")] = text;
    }
    return out;
  };
  BOOST_TEST_REQUIRE(said(inferred).size() >= 100u);
  BOOST_TEST(said(inferred) == said(given));
  // Where no temporary file can be made, each connection is judged in a
  // second reading, as before there was one reading: the same verdicts.
  auto no_temp = kEnv;
  no_temp.push_back("TMPDIR=" + dir + "/none");
  const json twice = check("twice", {}, no_temp);
  BOOST_TEST(err == "warning: " + dir +
                        "/none: the temporary file of judged records: cannot create it in $TMPDIR: No such file or "
                        "directory: each capture is read twice instead\n",
             err);
  BOOST_TEST(said(twice) == said(given));
  // Judged at the server, as when it ended, the first connection's
  // summaries differ: judging it again is what made them equal.
  auto first_connection = [&](const json& report) {
    auto all = said(report);
    std::erase_if(all, [](const auto& kv) { return !kv.first.ends_with(" @ merged.pcap#1"); });
    return all;
  };
  BOOST_TEST(first_connection(given).size() >= 50u);
  BOOST_TEST(first_connection(at_server) != first_connection(given));
}

// The progress line: on a terminal (script(1) gives the check one), a line
// on stderr per reading, rewritten in place and cleared before the results;
// into a pipe, nothing.
BOOST_AUTO_TEST_CASE(a_progress_line_on_a_terminal_only, *needs({"script"})) {
  const std::string dir = scratch_dir("offline_progress");
  const std::string capture = kCaptures + "/ngtcp2/two-connections.pcap";
  const std::string command = "CONFORM_PLUGIN_PATH=" + std::string(CONFORM_PLUGIN_DIR) + " " + CONFORM_BINARY +
                              " check " + capture + " --keylog " + kCaptures + "/ngtcp2/two-connections.keys" +
                              " --out " + dir + "/tty > " + dir + "/stdout.txt";
  const auto tty = run_program("/usr/bin/script", {"-qec", command, "/dev/null"});
  BOOST_TEST(tty.exit_code == 0, tty.out + tty.err);
  // One reading: each connection judged as it ends.
  BOOST_TEST(contains(tty.out, "\r\033[Kjudging two-connections.pcap: 0.0 MB of 0.0 MB (0%), 0 connections open, "
                               "0 judged"),
             tty.out);
  BOOST_TEST(!contains(tty.out, "splitting"), tty.out);
  BOOST_TEST(!contains(tty.out, "judging again"), tty.out);
  BOOST_TEST(contains(tty.out, "\r\033[K"), tty.out);
  BOOST_TEST(contains(read_file(dir + "/stdout.txt"), "offline check of 1 capture (2 connections)"));
  const auto piped = run_conform({"check", capture, "--keylog", kCaptures + "/ngtcp2/two-connections.keys", "--out",
                                  dir + "/pipe"},
                                 ".", kEnv);
  BOOST_TEST(piped.exit_code == 0, piped.out + piped.err);
  BOOST_TEST(!contains(piped.err, "splitting"), piped.err);
  BOOST_TEST(!contains(piped.err, "judging"), piped.err);
}

// A capture checked again under the same name after it was damaged mid-file
// (record 3, inside its one connection, made to claim 1 GB): nothing ended
// before the damage, so nothing is judged and the earlier folder stays.
// And a capture replaced at its path after the check: the HTML page says
// its view is not of that capture rather than showing another's datagrams.
BOOST_AUTO_TEST_CASE(a_capture_damaged_or_replaced_after_a_check) {
  const std::string dir = scratch_dir("offline_damaged_later");
  const std::string keys = kCaptures + "/ngtcp2/handshake.keys";
  const std::string bytes = read_file(kCaptures + "/ngtcp2/handshake.pcap");
  const std::string capture = write_file(dir + "/x.pcap", bytes);
  auto r = run_conform({"check", capture, "--keylog", keys, "--out", dir + "/out", "--json", dir + "/r.json"}, ".",
                       kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const std::string source = dir + "/out/@check/x.pcap/connections.jsonl";
  const std::string before = read_file(source);
  BOOST_TEST(!before.empty());
  std::size_t at = 24;  // pcap: a file header, then 16 bytes a record with its captured length third
  for (int record = 1; record < 3; ++record) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at + 8);
    at += 16 + (p[0] | p[1] << 8 | p[2] << 16 | std::size_t{p[3]} << 24);
  }
  std::string damaged = bytes;
  damaged[at + 11] = 0x40;
  write_file(capture, damaged);
  r = run_conform({"check", capture, "--keylog", keys, "--out", dir + "/out"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "(a corrupt record: nothing was judged)"), r.err);
  BOOST_TEST(read_file(source) == before);
  // Replaced by another capture: the page's view names the mismatch.
  write_file(capture, read_file(kCaptures + "/ngtcp2/stream-limit.pcap"));
  r = run_conform({"report", dir + "/r.json", "--html", dir + "/later.html"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(read_file(dir + "/later.html"), "not the capture conform check read: "));
}

// Two key logs holding the same lines (a copy, or one concatenated into
// another): a connection's source holds each line once.
BOOST_AUTO_TEST_CASE(key_log_lines_given_twice_are_kept_once) {
  const std::string dir = scratch_dir("offline_keys_twice");
  const std::string keys = kCaptures + "/ngtcp2/retry.keys";
  const std::string copy = write_file(dir + "/copy.keys", read_file(keys));
  const auto r = run_conform({"check", kCaptures + "/ngtcp2/retry.pcap", "--keylog", keys, "--keylog", copy, "--out",
                              dir + "/out", "-q"},
                             ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(source_of(dir + "/out/@check/retry.pcap", 1).at("key_log") ==
             read_file(keys));
}

// The folders refer to the captures; --write-failing-pcaps copies out the
// records of the connections a case failed on, and only those. stream-limit
// fails streams_blocked_sent (see the next test); two-connections fails
// nothing.
BOOST_AUTO_TEST_CASE(write_failing_pcaps_copies_the_records_of_failing_connections_only) {
  const std::string dir = scratch_dir("offline_failing_pcaps");
  const std::string failing = kCaptures + "/ngtcp2/stream-limit.pcap";
  auto r = run_conform({"check", kCaptures + "/ngtcp2/two-connections.pcap", failing, "--keylog",
                        kCaptures + "/ngtcp2/two-connections.keys", "--keylog", kCaptures + "/ngtcp2/stream-limit.keys",
                        "--out", dir + "/out", "--write-failing-pcaps"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "wrote connection.pcap and connection.keys for 1 failing connection "
                             "(--write-failing-pcaps)\n"),
             r.out);
  const std::string written = dir + "/out/@check/stream-limit.pcap/connection-1/connection.pcap";
  // The capture holds that one connection: its 50 records, byte for byte.
  const auto copy = conform::read_udp_datagrams(written), original = conform::read_udp_datagrams(failing);
  BOOST_TEST(copy.size() == 50u);
  BOOST_TEST(copy.size() == original.size());
  for (std::size_t i = 0; i < std::min(copy.size(), original.size()); ++i) {
    BOOST_TEST(copy[i].payload == original[i].payload, "frame " << i + 1);
    BOOST_TEST(copy[i].time_ns == original[i].time_ns, "frame " << i + 1);
  }
  // Its key log lines beside it: the stream-limit key log's, all of them
  // (one connection).
  BOOST_TEST(read_file(dir + "/out/@check/stream-limit.pcap/connection-1/connection.keys") ==
             read_file(kCaptures + "/ngtcp2/stream-limit.keys"));
  for (const char* unit : {"connection-1", "connection-2"})
    BOOST_TEST(!fs::exists(dir + "/out/@check/two-connections.pcap/" + unit + "/connection.pcap"), unit);
  // Without the option nothing is copied.
  r = run_conform({"check", failing, "--keylog", kCaptures + "/ngtcp2/stream-limit.keys", "--out", dir + "/again"},
                  ".", kEnv);
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(!contains(r.out, "wrote connection.pcap"), r.out);
  BOOST_TEST(!fs::exists(dir + "/again/@check/stream-limit.pcap/connection-1/connection.pcap"));
}

// The default suite on ngtcp2's stream-limit capture. Ground truth from
// tshark: the client opens 40 bidi streams (`-Y "udp.dstport == 4433"`, ids
// with `quic.stream.stream_id % 4 == 0`) and sends no STREAMS_BLOCKED
// (`quic.frame_type == 0x16 || quic.frame_type == 0x17`: none), so it misses
// RFC 9000 §4.6's SHOULD; it never re-sends CRYPTO, and nothing arrives
// early, so those cases are NOT EXERCISED. `--fail-on must` lets the SHOULD
// through.
BOOST_AUTO_TEST_CASE(states_and_levels_of_the_default_suite_and_fail_on) {
  const std::string dir = scratch_dir("offline_levels");
  const std::vector<std::string> args{"check", kCaptures + "/ngtcp2/stream-limit.pcap", "--keylog",
                                      kCaptures + "/ngtcp2/stream-limit.keys", "--out", dir + "/out"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> a = args;
    a.insert(a.end(), more.begin(), more.end());
    return run_conform(a, ".", kEnv);
  };
  auto r = with({"--json", dir + "/r.json"});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  const std::string at = " @ stream-limit.pcap#1";
  const json report = json::parse(read_file(dir + "/r.json"));
  BOOST_TEST(verdicts(report) == (std::map<std::string, std::string>{{"capture/max-streams-extended" + at, "PASS"},
                                                                     {"capture/stream-limits-within-bound" + at, "PASS"},
                                                                     {"capture/streams-blocked-sent" + at, "FAIL"},
                                                                     {"capture/blocked-frames-current" + at, "NOT EXERCISED"},
                                                                     {"capture/pto-probes-coalesced" + at, "NOT EXERCISED"},
                                                                     {"capture/packets-before-keys-buffered" + at,
                                                                      "NOT EXERCISED"}}));
  BOOST_TEST(contains(r.out, "streams_blocked_sent [SHOULD]: bidi streams: at the limit 4 from frame 4"), r.out);
  BOOST_TEST(contains(r.out, "2 passed, 1 failed, 3 not exercised"), r.out);
  const auto& checks = case_named(report, "capture/streams-blocked-sent" + at).at("runs")[0].at("checks");
  BOOST_TEST(checks[0].at("verdict") == "NOT EXERCISED");  // by=client dir=uni: never at its uni limit
  BOOST_TEST(checks[1].at("check") == "streams_blocked_sent");
  BOOST_TEST(checks[1].at("params").at("dir") == "bidi");
  BOOST_TEST(checks[1].at("verdict") == "FAIL");
  BOOST_TEST(checks[1].at("level") == "SHOULD");
  for (const auto& check : case_named(report, "capture/blocked-frames-current" + at).at("runs")[0].at("checks"))
    BOOST_TEST(check.at("verdict") == "NOT EXERCISED");  // blocked_frames_not_early: no blocked frame
  BOOST_TEST(with({"--fail-on", "should"}).exit_code == 1);
  r = with({"--fail-on", "must"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  r = with({"--fail-on", "MUST"});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
}

// The RFC suite replayed on clean captures of real stacks: cases whose
// expectation rests on their scenario are NOT APPLICABLE, HTTP/3's streams
// that never end are not lost, and what remains FAILs only where the stack
// really deviates. Those deviations come from tshark's reading of each
// capture, not from conform: the quinn captures' facts.txt count no
// STREAMS_BLOCKED frame (types 0x16, 0x17) while the client opened 20
// bidi streams at a server limit of 5 (quinn 0.9) or 2 (quinn 0.11), and
// ngtcp2's client in stream-limit.pcap opens 40 requests at a limit of 4
// with none (captures/README.md): RFC 9000 §4.6, "SHOULD send a
// STREAMS_BLOCKED frame". In key-update.pcap the client takes 19.5 ms
// after the server's whole flight to send its Finished, processing, not
// waiting: no anti-deadlock probe was due (RFC 9002 §6.2.2.1).
BOOST_AUTO_TEST_CASE(the_rfc_suite_on_clean_captures_fails_only_real_deviations) {
  struct Capture {
    std::string pcap, keys;
    std::set<std::string> fails;  // "case check [LEVEL]"
  };
  // quinn and ngtcp2's stream-limit.pcap wait at the bidi limit without
  // STREAMS_BLOCKED: both cases that ask for it say so.
  const std::set<std::string> blocked = {"max-streams-bidi/requests streams_blocked_sent [SHOULD]",
                                         "streams-blocked/held-by-a-late-server streams_blocked_sent [SHOULD]"};
  std::vector<Capture> captures;
  for (const std::string stack : {"chromium", "firefox", "lsquic", "quiche", "quinn-0.11", "quinn-0.9"})
    captures.push_back({"third-party/" + stack + "/" + stack + ".pcap", "third-party/" + stack + "/" + stack + ".keys",
                        stack.starts_with("quinn") ? blocked : std::set<std::string>{}});
  for (const std::string name : {"handshake", "retry", "loss", "key-update", "large", "migration", "gso", "two-connections"})
    captures.push_back({"ngtcp2/" + name + ".pcap", "ngtcp2/" + name + ".keys", {}});
  captures.push_back({"ngtcp2/stream-limit.pcap", "ngtcp2/stream-limit.keys", blocked});
  for (const std::string name : {"max-streams-bidi-requests", "streams-blocked-publish"})
    captures.push_back({"conform/" + name + ".pcap", "conform/" + name + ".keys", {}});
  for (const auto& c : captures) {
    const std::string dir = scratch_dir("offline_rfc_" + fs::path(c.pcap).stem().string());
    // Only FAILs matter here: what a capture cannot show (NOT JUDGED, as
    // loss.pcap's probes from the path) has tests of its own.
    auto r = run_conform({"check", kCaptures + "/" + c.pcap, "--keylog", kCaptures + "/" + c.keys, kSuites + "/rfc9000",
                          "--out", dir + "/out", "--json", dir + "/r.json", "--junit", dir + "/r.xml", "--fail-on",
                          "any,not-judged=ok"},
                         ".", kEnv);
    BOOST_TEST(r.exit_code == (c.fails.empty() ? 0 : 1), c.pcap << ": " << r.out << r.err);
    const json report = json::parse(read_file(dir + "/r.json"));
    BOOST_TEST(failed_instances(report, true) == c.fails, c.pcap << ": " << r.out);
    // The cases that cannot apply, listed once with what they need.
    const std::size_t units = report.at("offline").at("captures")[0].at("units").size();
    BOOST_TEST(report.at("totals").at("not_applicable") == 9 * units, c.pcap);
    BOOST_TEST(contains(r.out, "NOT APPLICABLE to captures made elsewhere, on every connection (9 cases; an expect "
                               "whose bounds are your own, for any capture, says applies_offline = true):\n"
                               "  flow-control/violation-answered  connection_closed_with: needs the case's induced "
                               "fault: error = \"FLOW_CONTROL_ERROR\"\n"),
               c.pcap << ": " << r.out);
    BOOST_TEST(contains(r.out, "  pq-table/x25519-jumbo  handshake_time: needs a bound of the case's simulated path: "
                               "max_ms = 9.0, min_ms = 7.75\n"),
               c.pcap);
    BOOST_TEST(!contains(r.out, "NOT APPLICABLE  "), c.pcap);  // no line per connection without -v
    BOOST_TEST(contains(read_file(dir + "/r.xml"),
                        "<skipped message=\"NOT APPLICABLE: connection_closed_with: needs the case&apos;s induced "
                        "fault: error = &quot;STREAM_LIMIT_ERROR&quot;\">"),
               c.pcap);
  }
}

// tshark on handshake.pcap: ALPN h3; the server's only unidirectional
// streams are 3, 7 and 11, whose first bytes 00, 02 and 03 make them
// HTTP/3's control, QPACK encoder and QPACK decoder streams, which are never
// closed (RFC 9114 §6.2.1, RFC 9204 §4.2).
BOOST_AUTO_TEST_CASE(http3_streams_that_never_end_are_left_out_of_delivery) {
  const std::string dir = scratch_dir("offline_h3_streams");
  auto r = run_conform({"check", kCaptures + "/ngtcp2/handshake.pcap", "--keylog", kCaptures + "/ngtcp2/handshake.keys",
                        kSuites + "/rfc9000/stream_limits.toml", "--filter", "max-streams-uni/fanout-frames",
                        "--out", dir + "/out", "-v"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, "      NOT EXERCISED streams_delivered: the server sent no uni stream (expected from "
                             "opened in handshake.pcap; left out 3 HTTP/3 streams that never end (1 QPACK decoder, "
                             "1 QPACK encoder, 1 control))\n"),
             r.out);
  BOOST_TEST(contains(r.out, "1 passed, 0 failed\n"), r.out);  // its other checks held
}

// The mutants' captures still fail the checks that apply offline, whatever
// else of the suite cannot apply (captures/README.md: each mutant breaks
// one behaviour).
BOOST_AUTO_TEST_CASE(the_rfc_suite_still_fails_the_mutants_captures) {
  const std::map<std::string, std::set<std::string>> expected{
      {"max-streams-bidi-requests-no-max-streams",
       {"max-streams-bidi/limit-zero max_streams_extended", "max-streams-bidi/requests max_streams_extended",
        "stream-credit/lost-reset-completes max_streams_extended", "stream-credit/rejected-streams max_streams_extended"}},
      {"streams-blocked-publish-no-max-streams",
       {"max-streams-uni/raised-with-full-cwnd max_streams_extended", "streams-blocked/publish max_streams_extended"}},
      {"streams-blocked-publish-no-streams-blocked",
       {"streams-blocked/every-new-limit streams_blocked_sent", "streams-blocked/peer-waits-for-it streams_blocked_sent",
        "streams-blocked/publish streams_blocked_sent"}}};
  for (const auto& [name, want] : expected) {
    const std::string dir = scratch_dir("offline_rfc_mutant_" + name);
    auto r = run_conform({"check", kCaptures + "/conform/" + name + ".pcap", "--keylog",
                          kCaptures + "/conform/" + name + ".keys", kSuites + "/rfc9000", "--out", dir + "/out",
                          "--json", dir + "/r.json"},
                         ".", kEnv);
    BOOST_TEST(r.exit_code == 1, name << ": " << r.out << r.err);
    const json report = json::parse(read_file(dir + "/r.json"));
    BOOST_TEST(failed_instances(report, false) == want, name << ": " << r.out);
  }
}

// Without its key log, handshake.pcap shows only its Initial packets:
// most of the suite is NOT JUDGED, counted apart from FAIL. Whether that
// fails the gate is `--fail-on`'s choice.
BOOST_AUTO_TEST_CASE(not_judged_is_counted_apart_and_fails_unless_the_gate_says_ok) {
  const std::string dir = scratch_dir("offline_blind_gate");
  auto with = [&](const std::vector<std::string>& more) {
    std::vector<std::string> a{"check", kCaptures + "/ngtcp2/handshake.pcap", kSuites + "/rfc9000", "--out",
                               dir + "/out", "-q", "--json", dir + "/r.json"};
    a.insert(a.end(), more.begin(), more.end());
    return run_conform(a, ".", kEnv);
  };
  auto r = with({});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "\n4 passed, 0 failed, 70 not judged, 9 not applicable\n"), r.out);
  const json totals = json::parse(read_file(dir + "/r.json")).at("totals");
  BOOST_TEST(totals.at("failed") == 0);
  BOOST_TEST(totals.at("not_judged") == 70);
  BOOST_TEST(with({"--fail-on", "must,not-judged=fail"}).exit_code == 1);
  r = with({"--fail-on", "any,not-judged=ok"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  r = with({"--fail-on", "any,not-judged"});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "--fail-on: 'any,not-judged': expected must, should or any"), r.err);
  // A report of `conform check`, with every state, serves as a baseline:
  // cases that passed with the keys and are NOT JUDGED without them are
  // regressions, unless the gate says NOT JUDGED is ok.
  const std::string base = dir + "/base.json";
  auto keyed = run_conform({"check", kCaptures + "/ngtcp2/handshake.pcap", "--keylog",
                            kCaptures + "/ngtcp2/handshake.keys", kSuites + "/rfc9000", "--out", dir + "/keyed", "-q",
                            "--json", base},
                           ".", kEnv);
  BOOST_TEST(keyed.exit_code == 0, keyed.out + keyed.err);
  r = with({"--baseline", base});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "  REGRESSION  datagram-size/within-path-mtu @ handshake.pcap#1  PASS → NOT JUDGED\n"), r.out);
  r = with({"--baseline", base, "--fail-on", "any,not-judged=ok"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, ": 0 regressions, 0 new failures, 0 known failures, 0 fixed\n"), r.out);
  // A report written before the states were counted apart (NOT EXERCISED in
  // `skipped`) is still read as it was written.
  const std::string legacy = dir + "/legacy.json";
  r = run_conform({"check", kCaptures + "/ngtcp2/stream-limit.pcap", "--keylog", kCaptures + "/ngtcp2/stream-limit.keys",
                   "--out", dir + "/legacy", "-q", "--json", legacy},
                  ".", kEnv);
  json old = json::parse(read_file(legacy));
  old.at("totals")["skipped"] = old.at("totals").at("not_exercised");
  old.at("totals").erase("not_exercised");
  write_file(legacy, old.dump());
  r = run_conform({"report", legacy, "--html", dir + "/legacy.html"}, ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(!contains(r.err, "totals"), r.err);
}

// suites/rfc9000 holds QUIC cases only (handshake/both-directions counts UDP
// datagrams): a capture of TCP alone gives none a connection to judge.
BOOST_AUTO_TEST_CASE(the_rfc_suite_judges_no_tcp_connection) {
  const std::string dir = scratch_dir("offline_rfc_tcp");
  auto r = run_conform({"check", kCaptures + "/tcp/synthetic.pcap", kSuites + "/rfc9000", "--out", dir + "/out"}, ".",
                       kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "no chosen case judges what the captures hold (TCP connections only)"), r.err);
}

// A gate that must not be green having judged nothing of what it asks: the
// default suite on handshake.pcap exercises five of its six behaviours
// not at all (tshark: no MAX_STREAMS, no STREAMS_BLOCKED nor other blocked
// frame, no probe, no packet early); only the stream limits of the
// transport parameters, within 2^60, pass.
BOOST_AUTO_TEST_CASE(not_exercised_fails_when_the_gate_says_so) {
  const std::string dir = scratch_dir("offline_nothing_exercised");
  std::vector<std::string> args{"check", kCaptures + "/ngtcp2/handshake.pcap", "--keylog",
                                kCaptures + "/ngtcp2/handshake.keys", "--out", dir + "/out", "-q"};
  auto r = run_conform(args, ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, "1 passed, 0 failed, 5 not exercised\n"), r.out);
  args.insert(args.end(), {"--fail-on", "any,not-exercised=fail"});
  BOOST_TEST(run_conform(args, ".", kEnv).exit_code == 1);
  args.back() = "must,not-exercised=fail,not-judged=ok";
  BOOST_TEST(run_conform(args, ".", kEnv).exit_code == 1);
  args.back() = "must,not-exercised=fail,not-exercised=ok";
  BOOST_TEST(run_conform(args, ".", kEnv).exit_code == 2);
}

// Where each capture was taken: inferred from its ACKs and said per capture
// (the console, the JSON), or given with --vantage, for all captures or for
// one by name; a wrong value or a name of no capture is exit 2 before
// anything is written.
BOOST_AUTO_TEST_CASE(vantage_is_inferred_per_capture_and_given_with_vantage) {
  const std::string dir = scratch_dir("offline_vantage");
  const std::string loss = kCaptures + "/ngtcp2/loss.pcap", conform = kCaptures + "/conform/streams-blocked-publish.pcap";
  const std::vector<std::string> keys{"--keylog", kCaptures + "/ngtcp2/loss.keys", "--keylog",
                                      kCaptures + "/conform/streams-blocked-publish.keys"};
  auto check = [&](std::vector<std::string> more, const std::string& out) {
    std::vector<std::string> args{"check", loss, conform};
    args.insert(args.end(), keys.begin(), keys.end());
    args.insert(args.end(), more.begin(), more.end());
    args.insert(args.end(), {"--out", dir + "/" + out, "--json", dir + "/" + out + ".json"});
    return run_conform(args, ".", kEnv);
  };
  auto vantages = [&](const std::string& out) {
    std::vector<std::string> v;
    const json report = json::parse(read_file(dir + "/" + out + ".json"));
    for (const auto& c : report.at("offline").at("captures"))
      v.push_back(c.at("vantage").get<std::string>() + " " + c.at("vantage_from").get<std::string>().substr(0, 8));
    return v;
  };
  auto r = check({}, "inferred");
  BOOST_TEST(contains(r.out, "vantage of " + loss + ": path (inferred: every datagram went between two ports of "
                                                     "127.0.0.1, so both endpoints ran on the machine that recorded "
                                                     "them; the client's fastest ACK came 0.033 ms"),
             r.out);
  BOOST_TEST(contains(r.out, "the client never acknowledged 14 packets the capture saw (the first at frame 30)"), r.out);
  BOOST_TEST(contains(r.out, "(offload): so on neither endpoint's receive side)"), r.out);
  BOOST_TEST(contains(r.out, "vantage of " + conform + ": client (inferred: "), r.out);
  BOOST_TEST(vantages("inferred") == (std::vector<std::string>{"path inferred", "client inferred"}),
             boost::test_tools::per_element());

  check({"--vantage", "server", "--vantage", "streams-blocked-publish.pcap=client"}, "given");
  BOOST_TEST(vantages("given") == (std::vector<std::string>{"server given wi", "client given wi"}),
             boost::test_tools::per_element());
  BOOST_TEST(source_of(dir + "/given/@check/loss.pcap", 1).at("vantage") ==
             "server");
  // By path as well as by file name, however spelled; the replay line keeps it.
  r = check({"--vantage", kCaptures + "/ngtcp2/../ngtcp2/loss.pcap=both"}, "by-path");
  BOOST_TEST(vantages("by-path") == (std::vector<std::string>{"both given wi", "client inferred"}),
             boost::test_tools::per_element());
  BOOST_TEST(contains(r.out, "--vantage " + kCaptures + "/ngtcp2/../ngtcp2/loss.pcap=both"), r.out);
  // Two values for one capture, or for all, are refused, not settled by order.
  for (const auto& [twice, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--vantage", "client", "--vantage", "server"}, "given twice for all captures: client and server"},
           {{"--vantage", "loss.pcap=client", "--vantage", loss + "=server"}, loss + " given two vantages: client and server"}}) {
    r = check(twice, "bad");
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(contains(r.err, says), r.err);
  }

  for (const auto& [bad, says] : std::vector<std::pair<std::string, std::string>>{
           {"middle", "'middle' is not a vantage: one of client, server, path, both"},
           {"loss.pcap=", "'' is not a vantage: one of client, server, path, both"},
           {"other.pcap=client", "'other.pcap' names no capture given"},
           {"=client", "'=client' names no capture before '='"}}) {
    r = check({"--vantage", bad}, "bad");
    BOOST_TEST(r.exit_code == 2, r.out + r.err);
    BOOST_TEST(contains(r.err, says), r.err);
    BOOST_TEST(!fs::exists(dir + "/bad"));
  }
  // Given an endpoint's view the capture's signs deny: said, not refused.
  r = check({"--vantage", "server"}, "denied");
  BOOST_TEST(r.exit_code != 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "warning: " + loss + ": --vantage says server, but its signs say path: "), r.err);
  BOOST_TEST(contains(r.err, "warning: " + conform + ": --vantage says server, but its signs say client: "), r.err);
  BOOST_TEST(!contains(check({"--vantage", "path"}, "cautious").err, "--vantage says"));
  // Two captures of one file name: the console labels the second
  // "loss.pcap~2", and so may --vantage; the bare name is refused.
  const std::string twin = dir + "/twin/loss.pcap";
  fs::create_directories(dir + "/twin");
  fs::copy_file(loss, twin, fs::copy_options::overwrite_existing);
  auto twins = [&](const std::string& vantage, const std::string& out) {
    return run_conform({"check", loss, twin, "--keylog", kCaptures + "/ngtcp2/loss.keys", "--vantage", vantage,
                        "--out", dir + "/" + out, "--json", dir + "/" + out + ".json"},
                       ".", kEnv);
  };
  r = twins("loss.pcap=both", "twins-bad");
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  // Each named by what names it alone: the first by its path.
  BOOST_TEST(r.err == "--vantage: 'loss.pcap' names 2 captures given: name one by its path or as the console labels "
                      "it (" + loss + ", loss.pcap~2)\n",
             r.err);
  r = twins("loss.pcap~2=both", "twins");
  BOOST_TEST(contains(r.out, "loss.pcap~2#1  QUIC"), r.out);
  BOOST_TEST(vantages("twins") == (std::vector<std::string>{"path inferred", "both given wi"}),
             boost::test_tools::per_element());
  // A capture that is itself named loss.pcap~2 keeps that label; the second
  // loss.pcap becomes loss.pcap~3: no two captures share a label or folder.
  const std::string named = dir + "/named/loss.pcap~2";
  fs::create_directories(dir + "/named");
  fs::copy_file(loss, named, fs::copy_options::overwrite_existing);
  r = run_conform({"check", loss, twin, named, "--keylog", kCaptures + "/ngtcp2/loss.keys", "--out", dir + "/three",
                   "--vantage", "loss.pcap~3=both", "-q", "--json", dir + "/three.json"},
                  ".", kEnv);
  BOOST_TEST(vantages("three") == (std::vector<std::string>{"path inferred", "both given wi", "path inferred"}),
             boost::test_tools::per_element());
  for (const char* label : {"loss.pcap", "loss.pcap~2", "loss.pcap~3"})
    BOOST_TEST(!source_line(dir + "/three/@check/" + label, 1).empty(), label);

  // A capture that is not there, a bad vantage and an empty key log: all
  // named at once.
  r = run_conform({"check", dir + "/none.pcap", "--vantage", "middle", "--keylog", "", "--out", dir + "/bad"}, ".",
                  kEnv);
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == dir + "/none.pcap: no such capture file\n--vantage: 'middle' is not a vantage: one of client, "
                            "server, path, both, for all captures, or CAPTURE=VANTAGE for one\n--keylog: an empty path "
                            "names no key log\n",
             r.err);

  // A missing value: the next option is not taken for it.
  r = check({"--vantage", "--out", dir + "/swallowed"}, "bad");
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(contains(r.err, "--vantage: '--out' is an option, not a value: --vantage needs its value first"), r.err);

  // Every wrong option is named at once, one line each.
  r = check({"--vantage", "middle", "--vantage", "other.pcap=client", "--vantage", "=client"}, "bad");
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err == "--vantage: 'middle' is not a vantage: one of client, server, path, both, for all captures, or "
                      "CAPTURE=VANTAGE for one\n--vantage: 'other.pcap' names no capture given\n--vantage: '=client' "
                      "names no capture before '='\n",
             r.err);
}

// The two false alarms of issue 33, on the committed captures. loss.pcap
// is taken on the loopback both ngtcp2 programs ran on, but each drops 5 %
// of what it receives after the capture (--rx-loss): the capture cannot
// show that the client's 1-RTT packet 1 (frame 4, tshark) reached the
// server, so the default suite's early-packets case is NOT JUDGED, and
// judged as FAIL only when told the capture is at both endpoints. In
// key-update.pcap the client's 19.5 ms before its Finished is processing
// from wherever the capture is said to be taken: never a MUST failure.
BOOST_AUTO_TEST_CASE(verdicts_need_the_vantage_that_shows_them) {
  const std::string dir = scratch_dir("offline_vantage_verdicts");
  auto loss = [&](std::vector<std::string> more) {
    std::vector<std::string> args{"check", kCaptures + "/ngtcp2/loss.pcap", "--keylog", kCaptures + "/ngtcp2/loss.keys",
                                  "--filter", "capture/packets-before-keys-buffered", "--out", dir + "/out"};
    args.insert(args.end(), more.begin(), more.end());
    return run_conform(args, ".", kEnv);
  };
  auto r = loss({});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);  // NOT JUDGED fails the gate unless --fail-on says not-judged=ok
  BOOST_TEST(loss({"--fail-on", "must,not-judged=ok"}).exit_code == 0);
  BOOST_TEST(contains(r.out, "NOT JUDGED  capture/packets-before-keys-buffered @ loss.pcap#1"), r.out);
  BOOST_TEST(contains(r.out, "server_buffers_early_packets: cannot judge: needs the server's receive side; loss.pcap "
                             "is judged as taken on the path between the endpoints: 1-RTT packet 1 of the client (frame 4, "
                             "1020.874 ms) came before the server could have its keys and was never acknowledged: it "
                             "may have been lost past the capture point  (replay"),
             r.out);
  r = loss({"--vantage", "both"});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(contains(r.out, "FAIL        capture/packets-before-keys-buffered @ loss.pcap#1"), r.out);

  for (const std::string v : {"both", "client", "server", "path"}) {
    r = run_conform({"check", kCaptures + "/ngtcp2/key-update.pcap", "--keylog", kCaptures + "/ngtcp2/key-update.keys",
                     kSuites + "/rfc9000", "--filter", "handshake-loss/anti-deadlock-probe", "--vantage", v, "--out",
                     dir + "/ku-" + v},
                    ".", kEnv);
    BOOST_TEST(r.exit_code == 0, v << ": " << r.out << r.err);
    BOOST_TEST(contains(r.out, "NOT EXERCISED handshake-loss/anti-deadlock-probe @ key-update.pcap#1"), r.out);
  }
}

// A simulated run's server.pcap, judged as a capture made elsewhere: the
// server acknowledges at once, the client a 10 ms round trip later, so it
// is placed at the server, as the run recorded it.
BOOST_AUTO_TEST_CASE(a_servers_capture_is_placed_at_the_server) {
  const std::string dir = scratch_dir("offline_vantage_server");
  auto r = run_conform({"run", kSuites + "/rfc9000/stream_limits.toml", "--filter", "max-streams-bidi/requests",
                        "--out", dir + "/run", "-q", "--json", dir + "/run.json"},
                       ".", kEnv);
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const json run = json::parse(read_file(dir + "/run.json"));
  std::string recorded;
  for (const auto& c : run.at("cases")[0].at("runs")[0].at("captures"))
    if (c.at("file") == "server.pcap") recorded = c.at("vantage");
  BOOST_TEST(recorded == "server");
  const std::string folder = dir + "/run/max-streams-bidi/requests";
  r = run_conform({"check", folder + "/server.pcap", "--keylog", folder + "/keys.log", "--out", dir + "/check"}, ".",
                  kEnv);
  BOOST_TEST(contains(r.out, "server.pcap: server (inferred: the client's fastest ACK came 10.000 ms after the packet "
                             "it acknowledged passed the capture; the server's fastest ACK came 0.000 ms after"),
             r.out);
}

BOOST_AUTO_TEST_SUITE_END()
