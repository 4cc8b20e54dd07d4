// The TCP checks (transfer_time, no_stalls, zero_window_events,
// receive_window_floor) on captures/tcp/synthetic.pcap, whose transfers,
// gaps, zero windows and windows are known by construction: each check
// passes and fails where the hand-checked values say, with evidence naming
// the frames.
#include "support/builtin_check.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace conform;
namespace fs = std::filesystem;

namespace {

// A case folder whose loopback.pcap is the synthetic capture.
const std::string& case_dir() {
  static const std::string dir = [] {
    std::string d = test::scratch_dir("tcp_checks_case");
    fs::copy_file(std::string(CONFORM_SOURCE_DIR) + "/captures/tcp/synthetic.pcap", d + "/loopback.pcap");
    return d;
  }();
  return dir;
}

CheckResult run_check(const std::string& name, ValueMap params, const std::string& dir = case_dir()) {
  return test::evaluate_check(name, dir, std::move(params));
}

std::vector<std::uint64_t> evidence_frames(const CheckResult& r) {
  std::vector<std::uint64_t> out;
  for (const auto& e : r.evidence) out.push_back(e.frame);
  return out;
}

using Frames = std::vector<std::uint64_t>;

}  // namespace

BOOST_AUTO_TEST_SUITE(tcp_checks_test)

BOOST_AUTO_TEST_CASE(transfer_time_bounds_the_slowest_and_a_percentile) {
  auto r = run_check("transfer_time", {{"max_ms", 100.0}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "2 transfers (0 unanswered, required >= 1): slowest 492.000 ms (bound 100 ms), "
                 "p99 492.000 ms (bound none)",
             r.summary);
  BOOST_TEST(evidence_frames(r) == (Frames{4}));
  BOOST_TEST(r.evidence[0].capture == "loopback.pcap");
  BOOST_TEST(r.evidence[0].time_ns == 10'000'000);
  BOOST_TEST(r.evidence[0].text.find("ending at frame 15") != std::string::npos, r.evidence[0].text);

  BOOST_TEST((run_check("transfer_time", {{"max_ms", 500.0}}).verdict == Verdict::pass));
  BOOST_TEST((run_check("transfer_time", {{"percentile", 50.0}, {"percentile_ms", 2.0}}).verdict == Verdict::pass));
  BOOST_TEST((run_check("transfer_time", {{"percentile", 51.0}, {"percentile_ms", 2.0}}).verdict == Verdict::fail));
  BOOST_TEST((run_check("transfer_time", {{"min_transfers", std::int64_t{3}}}).verdict == Verdict::fail));
}

BOOST_AUTO_TEST_CASE(no_stalls_names_the_gap) {
  auto r = run_check("no_stalls", {{"max_gap_ms", 200.0}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "1 of 2 transfers stalled longer than 200.000 ms; longest gap 479.000 ms "
                 "(flow 1 (10.0.0.1:40000 -> 10.0.0.2:80))",
             r.summary);
  BOOST_TEST(evidence_frames(r) == (Frames{9}));
  BOOST_TEST(r.evidence[0].text.find("until frame 14") != std::string::npos, r.evidence[0].text);
  BOOST_TEST((run_check("no_stalls", {{"max_gap_ms", 480.0}}).verdict == Verdict::pass));
}

BOOST_AUTO_TEST_CASE(zero_window_events_count_episodes_per_side) {
  auto r = run_check("zero_window_events", {});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "1 zero-window episodes (required <= 0): 2 zero-window segments, 1 probes of them",
             r.summary);
  BOOST_TEST(evidence_frames(r) == (Frames{10}));
  BOOST_TEST((run_check("zero_window_events", {{"max", std::int64_t{1}}}).verdict == Verdict::pass));
  // The episode held 477 ms (frames 10 to 13).
  BOOST_TEST((run_check("zero_window_events", {{"longer_than_ms", 477.0}}).verdict == Verdict::pass));
  auto held = run_check("zero_window_events", {{"longer_than_ms", 476.0}});
  BOOST_TEST((held.verdict == Verdict::fail));
  BOOST_TEST(held.summary ==
                 "1 zero-window episodes longer than 476.000 ms (of 1) (required <= 0): 2 "
                 "zero-window segments, 1 probes of them",
             held.summary);
  BOOST_TEST(held.evidence[0].text.find("for 477.000 ms, until frame 13") != std::string::npos,
             held.evidence[0].text);
  BOOST_TEST((run_check("zero_window_events", {{"by", std::string("responder")}}).verdict == Verdict::pass));
}

BOOST_AUTO_TEST_CASE(receive_window_floor_judges_windows_during_transfers) {
  auto r = run_check("receive_window_floor", {{"min_bytes", std::int64_t{4000}}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary ==
                 "2 of 13 windows advertised during transfers are below 4000 bytes; lowest 0 bytes "
                 "(flow 1 (10.0.0.1:40000 -> 10.0.0.2:80))",
             r.summary);
  BOOST_TEST(evidence_frames(r) == (Frames{10, 12}));
  // Each transfer's largest window: 65536 (frames 4 and 17), 4000 for the responder.
  auto peaks = run_check("receive_window_floor", {{"min_bytes", std::int64_t{65536}},
                                                  {"statistic", std::string("transfer_peak")}});
  BOOST_TEST((peaks.verdict == Verdict::fail));
  BOOST_TEST(peaks.summary ==
                 "2 of 4 transfer peak windows are below 65536 bytes; lowest 4000 bytes "
                 "(flow 1 (10.0.0.1:40000 -> 10.0.0.2:80))",
             peaks.summary);
  BOOST_TEST((run_check("receive_window_floor", {{"min_bytes", std::int64_t{65536}},
                                                {"statistic", std::string("transfer_peak")},
                                                {"by", std::string("initiator")}})
                 .verdict == Verdict::pass));
  BOOST_TEST((run_check("receive_window_floor",
                       {{"min_bytes", std::int64_t{4000}}, {"by", std::string("responder")}})
                 .verdict == Verdict::pass));
}

BOOST_AUTO_TEST_CASE(a_missing_capture_fails_every_check_saying_why) {
  const std::string empty = test::scratch_dir("tcp_checks_empty");
  for (const char* name : {"transfer_time", "no_stalls", "zero_window_events", "receive_window_floor"}) {
    auto r = run_check(name, {{"min_bytes", std::int64_t{1}}}, empty);
    BOOST_TEST((r.verdict == Verdict::fail), name);
    BOOST_TEST(r.summary.rfind("loopback.pcap: cannot read capture", 0) == 0u, r.summary);
  }
}

BOOST_AUTO_TEST_SUITE_END()
