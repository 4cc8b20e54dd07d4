// `conform run` on a plugin that plays its scenario over the simulated
// network: impairments from the suite's `network` table shape both captures
// (exact frames and virtual timestamps), the same seed gives the same bytes,
// the virtual-time budget ends a stuck run as TIMEOUT, the loopback relay
// applies the same table to real sockets, and a bad table is an input error
// before anything runs.
#include "capture/pcap_reader.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace conform;
using namespace conform::test;

namespace {

constexpr std::int64_t kMs = 1'000'000;

std::string suite(const char* name) { return std::string(CONFORM_TEST_DATA_DIR) + "/suites/" + name; }

struct Frame {
  std::int64_t time_ns;
  bool from_client;
  int tag;
  bool operator==(const Frame&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Frame& f) {
  return os << "{" << f.time_ns << ", " << (f.from_client ? "client" : "server") << ", " << f.tag << "}";
}

std::vector<Frame> frames(const std::string& pcap) {
  std::vector<Frame> out;
  for (const auto& d : read_udp_datagrams(pcap))
    out.push_back({d.time_ns, d.from.address == kClientAddress, d.payload.empty() ? -1 : d.payload[0]});
  return out;
}

}  // namespace

BOOST_TEST_DONT_PRINT_LOG_VALUE(std::vector<Frame>)

BOOST_AUTO_TEST_SUITE(simulated_network_test)

BOOST_AUTO_TEST_CASE(impairments_shape_both_captures_and_the_seed_replays_them) {
  const std::string dir = scratch_dir("simulated");
  auto r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/impaired-echo", "--seed", "5",
                        "--out", dir + "/a"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("PASS        sim/impaired-echo") != std::string::npos, r.out);

  // One way is 20 ms. The client sends 1..5 at 0..4 ms; its 2nd is dropped.
  // The server echoes 1, 3, 4, 5 on arrival; its 1st echo is duplicated and
  // its 3rd (of 4) held back 2.5 ms, behind the 4th.
  const std::string run_dir = dir + "/a/sim/impaired-echo";
  const std::vector<Frame> at_server = {
      {20 * kMs, true, 1},  {20 * kMs, false, 1}, {22 * kMs, true, 3}, {22 * kMs, false, 3},
      {23 * kMs, true, 4},  {23 * kMs, false, 4}, {24 * kMs, true, 5}, {24 * kMs, false, 5}};
  const std::vector<Frame> at_client = {
      {0, true, 1},          {1 * kMs, true, 2},    {2 * kMs, true, 3},  {3 * kMs, true, 4},
      {4 * kMs, true, 5},    {40 * kMs, false, 1},  {40 * kMs, false, 1}, {42 * kMs, false, 3},
      {44 * kMs, false, 5},  {45'500'000, false, 4}};
  const auto server_frames = frames(run_dir + "/server.pcap");
  const auto client_frames = frames(run_dir + "/client.pcap");
  BOOST_TEST(server_frames == at_server, boost::test_tools::per_element());
  BOOST_TEST(client_frames == at_client, boost::test_tools::per_element());
  BOOST_TEST(read_file(run_dir + "/log.txt").find("network: sent 9, arrived 9, lost 1") !=
                 std::string::npos,
             read_file(run_dir + "/log.txt"));

  // A second run with the same seed writes the same bytes.
  r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/impaired-echo", "--seed", "5",
                   "--out", dir + "/b"});
  BOOST_TEST(r.exit_code == 0);
  for (const char* f : {"/client.pcap", "/server.pcap"})
    BOOST_TEST((read_file(run_dir + f) == read_file(dir + "/b/sim/impaired-echo" + f)), f);
}

BOOST_AUTO_TEST_CASE(random_impairments_replay_by_seed_across_processes) {
  const std::string dir = scratch_dir("simulated_random");
  // Two runs with seed 3 (out a, b), one with seed 4 (out c), each in a
  // process of its own.
  for (auto [seed, out] : {std::pair{"3", "/a"}, std::pair{"3", "/b"}, std::pair{"4", "/c"}}) {
    auto r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/random", "--seed", seed,
                          "--out", dir + out});
    BOOST_TEST(r.exit_code == 0, r.out + r.err);
  }
  for (const char* f : {"/sim/random/client.pcap", "/sim/random/server.pcap"}) {
    const std::string a = read_file(dir + "/a" + f), b = read_file(dir + "/b" + f),
                      other = read_file(dir + "/c" + f);
    BOOST_TEST(a.size() > 100'000u, f);
    BOOST_TEST((a == b), f);
    BOOST_TEST((a != other), f);
  }
}

BOOST_AUTO_TEST_CASE(several_clients_each_get_a_path_and_a_capture) {
  const std::string dir = scratch_dir("simulated_fan_in");
  auto r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/fan-in", "--out", dir});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  const std::string run_dir = dir + "/sim/fan-in";
  // Each client sends 2 (tags 1, 2) at 0 and 1 ms; client-2's first is dropped
  // on its own path only. One way is 5 ms.
  auto answers = [&](const char* vantage) {
    std::vector<std::int64_t> times;
    for (const auto& f : frames(run_dir + "/" + vantage + ".pcap"))
      if (!f.from_client) times.push_back(f.time_ns);
    return times;
  };
  BOOST_TEST(answers("client") == (std::vector<std::int64_t>{10 * kMs, 11 * kMs}));
  BOOST_TEST(answers("client-2") == (std::vector<std::int64_t>{11 * kMs}));
  BOOST_TEST(answers("client-3") == (std::vector<std::int64_t>{10 * kMs, 11 * kMs}));
  // The server tells its clients apart by port: 40000, 40001, 40002.
  std::vector<int> ports;
  for (const auto& d : read_udp_datagrams(run_dir + "/server.pcap"))
    if (d.from.address == kClientAddress) ports.push_back(d.from.port);
  BOOST_TEST(ports == (std::vector<int>{40000, 40002, 40000, 40001, 40002}));
}

BOOST_AUTO_TEST_CASE(a_network_mutant_kills_the_check_it_breaks) {
  // The mutant drops the server's 2nd answer (there is no Handshake to
  // drop: that selector matches nothing), so the count check fails on it.
  const std::string dir = scratch_dir("simulated_mutant");
  auto r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/mutant-drops", "--out", dir,
                        "--json", dir + "/report.json"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("PASS        sim/mutant-drops") != std::string::npos, r.out);
  auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  BOOST_TEST(report["cases"][0]["mutants"][0]["killed"] == true, report.dump(2));
}

BOOST_AUTO_TEST_CASE(the_virtual_time_budget_turns_a_stuck_run_into_timeout) {
  const std::string dir = scratch_dir("simulated_stuck");
  auto r = run_conform({"run", suite("simulated.toml"), "--filter", "sim/stuck", "--out", dir + "/out",
                        "--json", dir + "/report.json"});
  BOOST_TEST(r.exit_code == 1, r.out + r.err);
  BOOST_TEST(r.out.find("TIMEOUT     sim/stuck") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("no end within the virtual-time budget of 100 ms") != std::string::npos, r.out);
  auto report = nlohmann::json::parse(read_file(dir + "/report.json"));
  BOOST_TEST(report["cases"][0]["status"] == "TIMEOUT");
}

BOOST_AUTO_TEST_CASE(the_loopback_relay_applies_the_table_to_real_sockets) {
  const std::string dir = scratch_dir("relayed");
  auto r = run_conform({"run", suite("simulated.toml"), "--filter", "relay/*", "--out", dir + "/out"});
  BOOST_TEST(r.exit_code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("PASS        relay/echo-with-drops") != std::string::npos, r.out);
  const std::string run_dir = dir + "/out/relay/echo-with-drops";
  std::vector<int> sent, answered;
  for (const auto& f : frames(run_dir + "/client.pcap")) (f.from_client ? sent : answered).push_back(f.tag);
  BOOST_TEST(sent == (std::vector<int>{1, 2, 3, 4, 5}));
  BOOST_TEST(answered == (std::vector<int>{3, 4, 5}));
  const std::string log = read_file(run_dir + "/log.txt");
  BOOST_TEST(log.find("relay: sent 9, arrived 7, lost 2") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(a_bad_network_table_is_an_input_error_at_its_key) {
  auto r = run_conform({"run", suite("bad_network.toml"), "--out", scratch_dir("bad_network")});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  BOOST_TEST(r.err.find("bad_network.toml:11:25: network setting 'loss_rate' = 1.5 is out of range: from 0 to 1") !=
                 std::string::npos,
             r.err);
  BOOST_TEST(r.err.find("bad_network.toml:11:37: network.drop 'clinet:1': sender must be client") != std::string::npos,
             r.err);
}

BOOST_AUTO_TEST_CASE(a_matrix_or_mutant_value_no_run_can_use_is_exit_2_at_the_value) {
  const std::string dir = scratch_dir("bad_matrix");
  auto r = run_conform({"run", suite("bad_matrix.toml"), "--out", dir + "/out"});
  BOOST_TEST(r.exit_code == 2, r.out + r.err);
  const std::vector<std::string> want = {
      "bad_matrix.toml:12:40: matrix value of 'network.loss_rate' = 1.5 is out of range: from 0 to 1",
      "bad_matrix.toml:12:78: network.drop 'client:0': the datagram number must be an integer from 1",
      "bad_matrix.toml:17:25: network.reorder 'server:x': unknown part 'x'; accepted parts: <sender>, <n>,",
  };
  for (const auto& line : want) BOOST_TEST(r.err.find(line) != std::string::npos, line << "\n" << r.err);
  // Nothing ran: the refusal comes before the first case.
  BOOST_TEST(!std::filesystem::exists(dir + "/out/sim"), r.out);
}

BOOST_AUTO_TEST_CASE(conform_plugins_lists_the_network_keys_with_units) {
  auto r = run_conform({"plugins"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("network (a case's `network` table, for every plugin):") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("  budget_ms (float, ms) = 60000.0, above 0, at most 1000000000  virtual time") !=
                 std::string::npos,
             r.out);
  BOOST_TEST(r.out.find("  drop (array of strings) = []") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_SUITE_END()
