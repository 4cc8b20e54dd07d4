// The QUIC checks on real captures of ngtcp2's examples (captures/ngtcp2/),
// read through the case folder and the capture cache as `conform run` does.
// Values from tshark: in handshake.pcap the client's one Initial datagram
// holds 1200 bytes, its Finished leaves in frame 4 22.497 ms after its
// first Initial, HANDSHAKE_DONE arrives in frame 9 at 31.316 ms, the
// largest datagram is frame 7's 1444 bytes, the only close is an
// application CONNECTION_CLOSE (frame 10); in stream-limit.pcap the server
// raises MAX_STREAMS from 4 to 40 in 9 steps and the client never sends
// STREAMS_BLOCKED.
#include "check/quic/support/capture_facts.hpp"
#include "support/builtin_check.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace conform;
namespace fs = std::filesystem;

namespace {

// A case folder holding the capture as both vantage points (a capture on
// loopback sees both ends alike) and its key log.
std::string case_folder(const std::string& name, const std::string& capture) {
  const std::string dir = test::scratch_dir(name);
  const std::string src = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/" + capture;
  fs::copy_file(src + ".pcap", dir + "/client.pcap");
  fs::copy_file(src + ".pcap", dir + "/server.pcap");
  fs::copy_file(src + ".keys", dir + "/keys.log");
  return dir;
}

CheckResult evaluate(const std::string& dir, const std::string& name, ValueMap params = {}) {
  return test::evaluate_check(name, dir, std::move(params));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_checks_capture_test)

BOOST_AUTO_TEST_CASE(ngtcp2_handshake_is_judged_from_one_dissection_per_capture) {
  const std::string dir = case_folder("quic_checks_handshake", "handshake");
  const std::size_t before = quic_checks::captures_dissected();

  auto r = evaluate(dir, "client_initial_padded");
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "1 datagrams carrying Initial packets, the smallest 1200 bytes", r.summary);

  r = evaluate(dir, "handshake_time", {{"max_ms", 25.0}});
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "handshake complete after 22.497 ms (bound ≤ 25 ms)", r.summary);
  BOOST_TEST_REQUIRE(r.evidence.size() == 2u);
  BOOST_TEST(r.evidence[1].capture == "client.pcap");
  BOOST_TEST(r.evidence[1].frame == 4u);
  BOOST_TEST(r.evidence[1].time_ns == 22'497'000);
  r = evaluate(dir, "handshake_time", {{"until", "confirmed"}, {"max_ms", 25.0}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "handshake confirmed after 31.316 ms (bound ≤ 25 ms)", r.summary);
  BOOST_TEST(r.evidence[1].frame == 9u);

  r = evaluate(dir, "datagrams_within_path_mtu");
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "client.pcap: 6 datagrams, the largest 1444 bytes (limit 1472 bytes (default network mtu "
                          "1500)); server.pcap: 5 datagrams, the largest 1406 bytes (limit 1472 bytes (default "
                          "network mtu 1500))",
             r.summary);
  r = evaluate(dir, "datagrams_within_path_mtu", {{"max_bytes", std::int64_t{1400}}, {"by", "client"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary == "frame 5 (22.572 ms): a datagram of 1406 bytes, above 1400 (limit 1400 bytes (parameter "
                          "max_bytes)) (and 1 more)",
             r.summary);

  r = evaluate(dir, "no_connection_error");
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "0 transport CONNECTION_CLOSE frames, none with an error", r.summary);

  // Five checks, two captures: each dissected once.
  BOOST_TEST(quic_checks::captures_dissected() - before == 2u);
  evaluate(dir, "initial_keys_discarded");
  BOOST_TEST(quic_checks::captures_dissected() - before == 2u);
}

BOOST_AUTO_TEST_CASE(ngtcp2_stream_limit) {
  const std::string dir = case_folder("quic_checks_stream_limit", "stream-limit");
  auto r = evaluate(dir, "max_streams_extended", {{"by", "server"}, {"dir", "bidi"}});
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "the server bidi limit went 4 → 40 in 9 MAX_STREAMS; the client wanted 40 (opened 40); it "
                          "reached a limit 9 times, the longest wait for more 6.959 ms",
             r.summary);
  r = evaluate(dir, "streams_delivered", {{"from", "client"}, {"dir", "bidi"}});
  BOOST_TEST((r.verdict == Verdict::pass));
  BOOST_TEST(r.summary == "received=40/40 missing=[] (expected from opened in client.pcap)", r.summary);
  r = evaluate(dir, "streams_blocked_sent", {{"by", "client"}, {"dir", "bidi"}});
  BOOST_TEST((r.verdict == Verdict::fail));
  BOOST_TEST(r.summary.rfind("bidi streams: at the limit 4 from frame 4 (", 0) == 0, r.summary);
  BOOST_TEST(r.summary.find("no STREAMS_BLOCKED 4 sent (and 8 more)") != std::string::npos, r.summary);
}

BOOST_AUTO_TEST_CASE(ngtcp2_loss) {
  const std::string dir = case_folder("quic_checks_loss", "loss");
  auto r = evaluate(dir, "handshake_time");
  BOOST_TEST(r.summary == "handshake complete after 2021.273 ms (bound none)", r.summary);
  r = evaluate(dir, "client_initial_padded");
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
  r = evaluate(dir, "no_connection_error");
  BOOST_TEST((r.verdict == Verdict::pass), r.summary);
}

BOOST_AUTO_TEST_SUITE_END()
