// `conform run suites/tcp` as CI runs it (as root, so the relay can capture
// on lo): every case is judged from its capture, and every mutant (a tiny
// fixed buffer with a slow reader) is killed: each TCP check fails on it.
// Without capture privilege the cases are UNSUPPORTED, never passed; a bad
// buffer setting is an ERROR naming it.
#include "support/needs.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace conform::test;

namespace {

// Runs the one-file suite `toml` (written to <scratch>/case.toml) with the
// build's plugins, one case at a time, artifacts in <scratch>/out.
CommandResult run_suite_text(const std::string& scratch, const std::string& toml) {
  const std::string suite = write_file(scratch + "/case.toml", toml);
  return run_conform({"run", suite, "-j", "1", "--out", scratch + "/out"}, ".",
                     {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tcp_suite_test)

BOOST_AUTO_TEST_CASE(every_mutant_is_killed, *needs_root()) {
  const std::string dir = scratch_dir("tcp_suite");
  const std::string suite = std::string(CONFORM_SOURCE_DIR) + "/suites/tcp";
  auto r = run_conform({"run", suite, "-j", "1", "--out", dir + "/out", "--json", dir + "/report.json"}, ".",
                       {std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR});
  auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  std::size_t mutants = 0;
  for (const auto& c : report["cases"]) {
    BOOST_TEST(c["status"] != "UNSUPPORTED", c["id"]);
    BOOST_TEST(c["status"] != "ERROR", c["id"] << ": " << c["headline"]);
    for (const auto& m : c["mutants"]) {
      ++mutants;
      BOOST_TEST(m["killed"] == true, c["id"] << " survived " << m["label"] << ": " << m["survived"]);
      for (const auto& check : m["run"]["checks"])
        BOOST_TEST(check["verdict"] == "FAIL", c["id"] << ": " << check["check"] << " passed on the mutant");
    }
  }
  BOOST_TEST(mutants >= 1u);
  BOOST_TEST((r.exit_code == 0 || r.exit_code == 1), r.out << r.err);
}

BOOST_AUTO_TEST_CASE(without_capture_privilege_every_case_is_unsupported_never_passed, *needs_root()) {
  const std::string dir = scratch_dir("tcp_suite_unprivileged");
  std::filesystem::permissions(dir, std::filesystem::perms::all);
  const std::string suite = std::string(CONFORM_SOURCE_DIR) + "/suites/tcp";
  // Without CAP_NET_RAW (and CAP_NET_ADMIN): libpcap cannot open lo. Still
  // root otherwise, so a checkout under a folder only root may enter (a
  // `mktemp -d`, mode 700) stays reachable, as it would not for nobody.
  const std::string command = "setpriv --bounding-set=-net_raw,-net_admin --inh-caps=-all env CONFORM_PLUGIN_PATH=" +
                              std::string(CONFORM_PLUGIN_DIR) + " " + CONFORM_BINARY + " run " + suite +
                              " --filter 'loopback-stall/all-fixed*' --out " + dir + "/out > " + dir +
                              "/stdout 2>&1";
  const int status = std::system(command.c_str());
  BOOST_TEST(WEXITSTATUS(status) == 0);
  const std::string out = read_file(dir + "/stdout");
  BOOST_TEST(out.find("UNSUPPORTED loopback-stall/all-fixed[leg=direct]") != std::string::npos, out);
  BOOST_TEST(out.find("no privilege to capture on lo") != std::string::npos, out);
  BOOST_TEST(out.find("PASS") == std::string::npos, out);
  BOOST_TEST(out.find("0 passed, 0 failed, 3 skipped") != std::string::npos, out);
}

BOOST_AUTO_TEST_CASE(a_buffer_that_is_neither_auto_nor_bytes_is_an_error_naming_it) {
  auto r = run_suite_text(scratch_dir("tcp_suite_bad_buffer"), R"([[case]]
id = "bad-buffer"
rfc = "9293§3.8.6"
requirement = "a receiver MUST avoid small windows"
plugin = "tcp_relay"
scenario = "transfers"
client = { rcvbuf = "lots" }
  [[case.expect]]
  check = "no_stalls"
)");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.find("ERROR       bad-buffer") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("client.rcvbuf = \"lots\": expected \"auto\" or a positive number of bytes") !=
                 std::string::npos,
             r.out);
}

BOOST_AUTO_TEST_CASE(the_relay_forwards_every_byte_spliced_or_copied_in_odd_pieces, *needs_root()) {
  const std::string dir = scratch_dir("tcp_relay_forwarding");
  // 1000-byte pieces: neither a page nor a segment, so splice's pipe and
  // copy's buffer both end pieces mid-segment; 3 answers of 300,001 bytes
  // and a 70,001-byte request must each arrive whole.
  auto r = run_suite_text(dir, R"([[case]]
id = "forwarding"
rfc = "9293§3.8"
requirement = "a relay MUST deliver every byte in order"
plugin = "tcp_relay"
scenario = "transfers"
params = { leg = "relay", request_bytes = 70001, response_bytes = 300001, piece_bytes = 1000, transfers = 3 }
matrix = { forwarding = ["splice", "copy"] }
  [[case.expect]]
  check = "transfer_time"
  min_transfers = 3
)");
  BOOST_TEST(r.exit_code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("PASS        forwarding[forwarding=splice]") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASS        forwarding[forwarding=copy]") != std::string::npos, r.out);
  BOOST_TEST(read_file(dir + "/out/forwarding[forwarding=splice]/log.txt").find("3 transfers: median") !=
                 std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_piece_no_pipe_can_hold_is_an_error_naming_it) {
  auto r = run_suite_text(scratch_dir("tcp_relay_huge_piece"), R"([[case]]
id = "huge-piece"
rfc = "9293§3.8"
requirement = "a relay MUST deliver every byte in order"
plugin = "tcp_relay"
scenario = "transfers"
params = { leg = "relay", piece_bytes = 4294967296 }
  [[case.expect]]
  check = "no_stalls"
)");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.find("ERROR       huge-piece") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("relay: piece_bytes = 4294967296: a pipe cannot hold that much here") !=
                 std::string::npos,
             r.out);
}

BOOST_AUTO_TEST_SUITE_END()
