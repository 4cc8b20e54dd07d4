// TCP flow analysis on captures/tcp/synthetic.pcap, a hand-made connection
// whose values are known by construction (captures/tcp/synthesize.py, where
// each frame's comment says what it is) and which tshark's own analysis
// agrees with (captures/tcp/README.md).
#include "capture/tcp_segment_reader.hpp"
#include "dissect/tcp/flow_analysis.hpp"
#include "dissect/tcp/sequence_space.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace conform;
using namespace conform::tcp;

namespace {

const std::string kSynthetic = std::string(CONFORM_SOURCE_DIR) + "/captures/tcp/synthetic.pcap";
constexpr std::int64_t kBase = 1'700'000'000'000'000'000;  // frame 1's time, ns

std::vector<std::uint64_t> frames(const std::vector<FrameRef>& refs) {
  std::vector<std::uint64_t> out;
  for (const auto& r : refs) out.push_back(r.frame);
  return out;
}

// The advertised window (bytes) at `frame`, or -1 when that frame sets none.
std::int64_t window_at(const Direction& d, std::uint64_t frame) {
  for (const auto& w : d.windows)
    if (w.at.frame == frame) return static_cast<std::int64_t>(w.bytes);
  return -1;
}

using Frames = std::vector<std::uint64_t>;

}  // namespace

BOOST_AUTO_TEST_SUITE(tcp_flow_analysis_test)

BOOST_AUTO_TEST_CASE(the_reader_keeps_frame_numbers_and_skips_what_is_not_tcp) {
  const auto segments = read_tcp_segments(kSynthetic);
  BOOST_TEST(segments.size() == 20u);  // 21 frames, frame 5 is UDP
  BOOST_TEST(segments[3].frame == 4u);
  BOOST_TEST(segments[4].frame == 6u);
  BOOST_TEST(segments[3].payload_bytes == 100u);
  BOOST_TEST(segments[3].time_ns == kBase + 10'000'000);
  BOOST_TEST(segments[0].window_scale.value() == 7);
  BOOST_TEST(segments[1].window_scale.value() == 2);
  BOOST_TEST(!segments[2].window_scale.has_value());
}

BOOST_AUTO_TEST_CASE(window_scaling_comes_from_the_handshake) {
  const auto flows = analyze_tcp(read_tcp_segments(kSynthetic));
  BOOST_TEST_REQUIRE(flows.size() == 1u);
  const Flow& f = flows[0];
  BOOST_TEST(f.name() == "flow 1 (10.0.0.1:40000 -> 10.0.0.2:80)");
  BOOST_TEST(f.handshake_seen);
  BOOST_TEST(f.dir[0].offered_shift == 7);
  BOOST_TEST(f.dir[1].window_shift == 2);
  // SYN-ACK windows are never scaled; later ones are.
  BOOST_TEST(window_at(f.dir[1], 2) == 65535);
  BOOST_TEST(window_at(f.dir[0], 3) == 512 << 7);
  BOOST_TEST(window_at(f.dir[1], 6) == 1000 << 2);
  BOOST_TEST(window_at(f.dir[0], 13) == 32768);
  BOOST_TEST(window_at(f.dir[0], 1) == -1);  // a SYN without ACK advertises nothing to judge
  BOOST_TEST(f.dir[0].windows.size() == 9u);
}

BOOST_AUTO_TEST_CASE(zero_windows_and_probes) {
  const Flow f = analyze_tcp(read_tcp_segments(kSynthetic)).at(0);
  // Frame 19 is a FIN with window 0: not a zero-window advertisement.
  BOOST_TEST(frames(f.dir[0].zero_windows) == (Frames{10, 12}));
  BOOST_TEST_REQUIRE(f.dir[0].zero_window_episodes.size() == 1u);
  BOOST_TEST(f.dir[0].zero_window_episodes[0].start.frame == 10u);
  BOOST_TEST(f.dir[0].zero_window_episodes[0].end.frame == 13u);  // the window opens
  BOOST_TEST(f.dir[0].zero_window_episodes[0].ns() == 477'000'000);
  BOOST_TEST(frames(f.dir[1].zero_window_probes) == (Frames{11}));
  BOOST_TEST(f.dir[1].zero_windows.empty());
}

BOOST_AUTO_TEST_CASE(retransmissions_and_out_of_order_segments) {
  const Flow f = analyze_tcp(read_tcp_segments(kSynthetic)).at(0);
  BOOST_TEST(frames(f.dir[1].retransmissions) == (Frames{15}));
  BOOST_TEST(frames(f.dir[1].out_of_order) == (Frames{9}));
  BOOST_TEST(frames(f.dir[1].after_missing) == (Frames{8}));
  BOOST_TEST(f.dir[1].data_segments == 6u);
  BOOST_TEST(f.dir[1].data_bytes == 4010u);
  BOOST_TEST(f.dir[0].data_bytes == 150u);
  BOOST_TEST(f.dir[0].retransmissions.empty());
}

BOOST_AUTO_TEST_CASE(transfers_are_timed_from_first_request_byte_to_last_response_segment) {
  const Flow f = analyze_tcp(read_tcp_segments(kSynthetic)).at(0);
  BOOST_TEST_REQUIRE(f.transfers.size() == 2u);
  const Transfer& t1 = f.transfers[0];
  BOOST_TEST(t1.first_request.frame == 4u);
  BOOST_TEST(t1.last_response.frame == 15u);  // the retransmission ends it
  BOOST_TEST(t1.request_bytes == 100u);
  BOOST_TEST(t1.response_bytes == 4000u);
  BOOST_TEST(t1.duration_ns() == 492'000'000);
  BOOST_TEST(t1.longest_gap.from.frame == 9u);
  BOOST_TEST(t1.longest_gap.to.frame == 14u);
  BOOST_TEST(t1.longest_gap.ns() == 479'000'000);
  const Transfer& t2 = f.transfers[1];
  BOOST_TEST(t2.first_request.frame == 17u);
  BOOST_TEST(t2.last_response.frame == 18u);
  BOOST_TEST(t2.duration_ns() == 1'000'000);
}

BOOST_AUTO_TEST_CASE(sequence_numbers_unwrap_across_2_to_the_32) {
  SequenceSpace s;
  BOOST_TEST(s.unwrap(0xfffffff0u) == 0u);
  BOOST_TEST(s.unwrap(0x00000010u) == 0x20u);       // wrapped forwards
  BOOST_TEST(s.unwrap(0xfffffff8u) == 0x8u);        // a little back, before the wrap
  BOOST_TEST(s.add(0, 10).repeated == 0u);
  const auto again = s.add(5, 20);
  BOOST_TEST(again.repeated == 5u);
  BOOST_TEST(s.add(30, 40).after_hole);
  const auto fill = s.add(20, 30);
  BOOST_TEST(fill.fills_hole);
  BOOST_TEST(fill.repeated == 0u);
  BOOST_TEST(s.add(0, 40).repeated == 40u);         // everything seen, ranges merged
}

BOOST_AUTO_TEST_CASE(a_capture_without_handshake_reads_windows_unscaled) {
  auto segments = read_tcp_segments(kSynthetic);
  segments.erase(segments.begin(), segments.begin() + 3);  // drop SYN, SYN-ACK, ACK
  const auto flows = analyze_tcp(segments);
  BOOST_TEST_REQUIRE(flows.size() == 1u);
  BOOST_TEST(!flows[0].handshake_seen);
  BOOST_TEST(flows[0].dir[0].from.port == 40000);  // the first sender initiates
  BOOST_TEST(window_at(flows[0].dir[0], 13) == 256);
}

// A real Linux capture (captures/tcp/linux-tiny-buffer.pcap): the suite's
// mutant, a 4 KiB client buffer with a reader sleeping 300 ms before each
// read, captured on lo by the tcp_relay plugin. Expected values are
// tshark 4.0's analysis of the same file (captures/tcp/README.md).
BOOST_AUTO_TEST_CASE(a_linux_capture_agrees_with_tshark) {
  const auto flows =
      analyze_tcp(read_tcp_segments(std::string(CONFORM_SOURCE_DIR) + "/captures/tcp/linux-tiny-buffer.pcap"));
  BOOST_TEST_REQUIRE(flows.size() == 1u);
  const Flow& f = flows[0];
  BOOST_TEST(f.name() == "flow 1 (127.0.0.1:40654 -> 127.0.0.1:44873)");
  BOOST_TEST(f.dir[0].window_shift == 0);  // SO_RCVBUF 4096: no scaling needed
  BOOST_TEST(f.dir[1].window_shift == 5);
  BOOST_TEST(window_at(f.dir[1], 5) == 1178720);  // 36835 << 5
  BOOST_TEST(window_at(f.dir[0], 40) == 4096);
  BOOST_TEST(frames(f.dir[0].zero_windows) ==
             (Frames{71, 73, 79, 85, 90, 95, 100, 105, 110, 115, 120, 125}));
  BOOST_TEST(f.dir[0].zero_window_episodes.size() == 11u);  // 71 and 73 are one: nothing opened between
  BOOST_TEST(f.dir[0].zero_window_episodes[0].end.frame == 74u);
  BOOST_TEST(frames(f.dir[1].zero_window_probes) == (Frames{72}));  // tshark: "keep-alive"
  BOOST_TEST(frames(f.dir[1].retransmissions) == (Frames{76, 82}));
  BOOST_TEST(f.dir[1].out_of_order.empty());
  BOOST_TEST_REQUIRE(f.transfers.size() == 1u);
  const Transfer& t = f.transfers[0];
  BOOST_TEST(t.first_request.frame == 4u);
  BOOST_TEST(t.last_response.frame == 124u);
  BOOST_TEST(t.request_bytes == 2097152u);
  BOOST_TEST(t.response_bytes == 65536u);
  BOOST_TEST(t.duration_ns() == 3'054'993'880);
  // Frame 70 (the last answer bytes before the window shut) to frame 75.
  BOOST_TEST(t.longest_gap.ns() >= 298'033'693);
}

BOOST_AUTO_TEST_SUITE_END()
