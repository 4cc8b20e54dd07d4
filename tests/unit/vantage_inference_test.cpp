// Where a capture was taken, inferred from its ACKs (offline/vantage_inference),
// against how every committed capture was made: each `NAME.vantage`
// beside `NAME.pcap` says so (written by the scripts that made it).
#include "dissect/key_log.hpp"
#include "offline/capture_units.hpp"
#include "offline/offline_check.hpp"
#include "offline/vantage_inference.hpp"
#include "common/input_error.hpp"
#include "check_timeline_builder.hpp"
#include "support/build_paths.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace conform;
using namespace conform::test;
namespace fs = std::filesystem;

namespace {

struct Recorded {
  fs::path capture;
  Vantage vantage;
};

std::vector<Recorded> recorded_vantages() {
  std::vector<Recorded> out;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CONFORM_SOURCE_DIR) / "captures")) {
    if (entry.path().extension() != ".vantage") continue;
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);
    const auto v = parse_vantage(first);
    BOOST_REQUIRE_MESSAGE(v, entry.path() << ": first line '" << first << "' is not a vantage");
    fs::path capture = fs::path(entry.path()).replace_extension(".pcap");
    if (!fs::exists(capture)) capture.replace_extension(".pcapng");
    BOOST_REQUIRE_MESSAGE(fs::exists(capture), entry.path() << " is beside no capture");
    out.push_back({capture, *v});
  }
  return out;
}

// What `conform check` infers of `capture`: its QUIC connections' signs,
// and its TCP segments' hosts.
VantageInference infer(const fs::path& capture) {
  std::vector<KeyLogFile> keylogs;
  if (fs::path keys = fs::path(capture).replace_extension(".keys"); fs::exists(keys))
    keylogs.push_back({keys.string(), dissect::read_key_log_text(keys.string())});
  CaptureKeyText text;
  std::string sources;
  const auto keys = capture_keys(capture.string(), keylogs, text, sources);
  const auto read = read_for_check(capture.string(), std::make_shared<const dissect::KeyLog>(keys));
  if (!read.summary.not_udp) return read.survey.infer();
  const auto split = split_capture(capture.string(), read, text, scratch_dir("vantage_" + capture.stem().string()), {},
                                   std::nullopt, [](std::size_t) { return true; });
  VantageInference inferred;
  inferred.vantage = split.vantage;
  inferred.ambiguous = split.vantage_ambiguous;
  inferred.reason = split.vantage_from;
  return inferred;
}

// Captures whose signs leave the answer open: unanswered-handshake.pcap
// is on one host, but nothing answered, so no ACK shows what reached the
// server; synthetic.pcap is TCP between two addresses, made by hand. (A
// relay capture of two slow endpoints is another kind:
// offloaded_checksums_place_the_capture_on_the_senders_machine.)
const std::set<std::string> kAmbiguous = {"unanswered-handshake.pcap", "synthetic.pcap"};

}  // namespace

BOOST_AUTO_TEST_SUITE(vantage_inference_test)

BOOST_AUTO_TEST_CASE(every_committed_capture_is_placed_where_it_was_taken) {
  const auto recorded = recorded_vantages();
  BOOST_TEST(recorded.size() >= 35u);
  // Every capture says where it was taken: none goes untested.
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CONFORM_SOURCE_DIR) / "captures")) {
    const auto ext = entry.path().extension();
    if (ext != ".pcap" && ext != ".pcapng") continue;
    BOOST_TEST(fs::exists(fs::path(entry.path()).replace_extension(".vantage")), entry.path() << " has no .vantage");
  }
  for (const auto& r : recorded) {
    const auto inferred = infer(r.capture);
    const std::string name = r.capture.filename().string();
    BOOST_TEST_CONTEXT(r.capture.string() << ": " << inferred.reason) {
      BOOST_TEST(inferred.ambiguous == kAmbiguous.contains(name));
      BOOST_TEST(to_string(inferred.vantage) == to_string(r.vantage));
    }
  }
}

// loss.pcap: on one loopback, but each end drops what it receives after the
// capture; the ACKs that skip what the capture saw say so. The server's
// first skipped is the client's 1-RTT packet 1 at frame 4, below every
// range of the server's later ACKs (no ACK ever covers it).
BOOST_AUTO_TEST_CASE(packets_lost_past_the_capture_point_place_it_off_both_endpoints) {
  const auto inferred = infer(fs::path(CONFORM_SOURCE_DIR) / "captures/ngtcp2/loss.pcap");
  BOOST_TEST(to_string(inferred.vantage) == "path");
  BOOST_TEST(inferred.client.skipped == 14u);
  BOOST_TEST(inferred.client.first_skipped_frame == 30u);
  BOOST_TEST(inferred.server.skipped == 7u);
  BOOST_TEST(inferred.server.first_skipped_frame == 4u);
}

// conform's simulated client.pcap: the client answers at once, the server
// a 10 ms round trip later.
BOOST_AUTO_TEST_CASE(a_simulated_clients_capture_is_at_the_client) {
  const auto inferred = infer(fs::path(CONFORM_SOURCE_DIR) / "captures/conform/max-streams-bidi-requests.pcap");
  BOOST_TEST(to_string(inferred.vantage) == "client");
  BOOST_TEST(*inferred.client.reaction_ns == 0);
  BOOST_TEST(*inferred.server.reaction_ns == 10'000'000);
  BOOST_TEST(inferred.reason ==
             "the client's fastest ACK came 0.000 ms after the packet it acknowledged passed the capture; the "
             "server's fastest ACK came 10.000 ms after the packet it acknowledged passed the capture: so at the client's "
             "host");
}

// Two endpoints 127.0.0.1 and 127.0.0.2 that each take 10 ms to
// acknowledge: a capture on the path shows as much. When every datagram of
// the client carries a checksum left for the card, the capture was taken
// on the client's machine, and says so.
BOOST_AUTO_TEST_CASE(offloaded_checksums_place_the_capture_on_the_senders_machine) {
  auto slow_pair = [](bool client_offloads) {
    test::TimelineBuilder b;
    b.send(Side::client, 0, {test::initial(0, {test::crypto(0, 300)})});
    b.send(Side::server, 10 * test::kMs, {test::initial(0, {test::ack(0, 0), test::crypto(0, 90)})});
    b.send(Side::client, 20 * test::kMs, {test::initial(1, {test::ack(0, 0)})});
    for (auto& d : b.connection().datagrams) d.checksum_offloaded = client_offloads && d.from == b.connection().client;
    return infer_vantage(b.timeline());
  };
  const auto unsure = slow_pair(false);
  BOOST_TEST(to_string(unsure.vantage) == "path");
  BOOST_TEST(unsure.ambiguous);
  const auto inferred = slow_pair(true);
  BOOST_TEST(to_string(inferred.vantage) == "client");
  BOOST_TEST(!inferred.ambiguous);
  BOOST_TEST(inferred.client.offloaded == 2u);
  BOOST_TEST(inferred.reason ==
             "the client's fastest ACK came 10.000 ms after the packet it acknowledged passed the capture; each of the "
             "client's 2 datagrams carries a UDP checksum left for the network card to finish (offload); the server's "
             "fastest ACK came 10.000 ms after the packet it acknowledged passed the capture: so at the client's host");
}

// The same slow pair seen where routers had lowered the TTLs: of the
// server's datagrams only (57: 7 routers), the capture may still be at a
// slow client; of both (the client's 60), it is on the path, and the
// signs say so.
BOOST_AUTO_TEST_CASE(lowered_ttls_place_the_capture_off_the_senders_machine) {
  auto slow_pair = [](std::uint8_t client_ttl, std::uint8_t server_ttl) {
    test::TimelineBuilder b;
    b.send(Side::client, 0, {test::initial(0, {test::crypto(0, 300)})});
    b.send(Side::server, 10 * test::kMs, {test::initial(0, {test::ack(0, 0), test::crypto(0, 90)})});
    b.send(Side::client, 20 * test::kMs, {test::initial(1, {test::ack(0, 0)})});
    for (auto& d : b.connection().datagrams) d.ttl = d.from == b.connection().client ? client_ttl : server_ttl;
    return infer_vantage(b.timeline());
  };
  const auto one_side = slow_pair(64, 57);
  BOOST_TEST(to_string(one_side.vantage) == "path");
  BOOST_TEST(one_side.ambiguous);
  BOOST_TEST(one_side.server.fewest_hops == 7u);
  const auto between = slow_pair(60, 57);
  BOOST_TEST(to_string(between.vantage) == "path");
  BOOST_TEST(!between.ambiguous);
  BOOST_TEST(between.reason ==
             "the client's fastest ACK came 10.000 ms after the packet it acknowledged passed the capture; each of the "
             "client's 2 datagrams passed at least 4 routers before the capture (its TTL or Hop Limit lowered); the "
             "server's fastest ACK came 10.000 ms after the packet it acknowledged passed the capture; each of the "
             "server's 1 datagram passed at least 7 routers before the capture (its TTL or Hop Limit lowered): so on "
             "neither endpoint's receive side");
  // Lowered TTLs on datagrams whose checksums were left for the card: no
  // capture shows both, so the signs are not trusted.
  test::TimelineBuilder b;
  b.send(Side::client, 0, {test::initial(0, {test::crypto(0, 300)})});
  b.send(Side::server, 0, {test::initial(0, {test::ack(0, 0), test::crypto(0, 90)})});
  b.send(Side::client, 10 * test::kMs, {test::initial(1, {test::ack(0, 0)})});
  for (auto& d : b.connection().datagrams) {
    d.ttl = d.from == b.connection().client ? 60 : 64;
    d.checksum_offloaded = d.from == b.connection().client;
  }
  const auto disagreeing = infer_vantage(b.timeline());
  BOOST_TEST(to_string(disagreeing.vantage) == "path");  // not the server, whose ACK came at once
  BOOST_TEST(disagreeing.ambiguous);
  BOOST_TEST(disagreeing.reason.starts_with("cannot tell, the signs disagree, so taken as on the path: "),
             disagreeing.reason);
  // A TTL at a sender's initial value (64, 128, 255) says nothing.
  BOOST_TEST(slow_pair(128, 255).ambiguous);
}

// handshake.pcap: gtlsclient and gtlsserver on one loopback, each slow to
// acknowledge; both ran on the machine that recorded them.
BOOST_AUTO_TEST_CASE(one_address_at_both_ends_places_the_capture_at_both) {
  const auto inferred = infer(fs::path(CONFORM_SOURCE_DIR) / "captures/ngtcp2/handshake.pcap");
  BOOST_TEST(to_string(inferred.vantage) == "both");
  BOOST_TEST(!inferred.ambiguous);
  BOOST_TEST(inferred.one_host.value_or("") == "127.0.0.1");
  BOOST_TEST(inferred.reason.starts_with("every datagram went between two ports of 127.0.0.1, so both endpoints ran "
                                         "on the machine that recorded them; the client's fastest ACK came 3.550 ms"));
}

// A run's folder: each capture where conform's runs take it, by name,
// unless the folder's vantage file says where all were taken (conform
// check writes one per connection); a vantage file that names none is an
// error naming it.
BOOST_AUTO_TEST_CASE(a_folders_captures_are_placed_by_name_or_by_its_vantage_file) {
  const fs::path folder = conform::test::scratch_dir("vantage_by_name");
  for (const char* name : {"server.pcap", "client.pcap", "client-2.pcap", "loopback.pcap", "tap.pcap"})
    std::ofstream(folder / name) << "";
  std::vector<std::string> seen;
  for (const auto& [file, v] : capture_vantages(folder.string())) seen.push_back(file + " " + std::string(to_string(v)));
  BOOST_TEST(seen == (std::vector<std::string>{"client-2.pcap client", "client.pcap client", "loopback.pcap both",
                                               "server.pcap server", "tap.pcap path"}),
             boost::test_tools::per_element());
  std::ofstream(folder / "vantage") << "path\n";
  for (const auto& [file, v] : capture_vantages(folder.string())) BOOST_TEST(to_string(v) == "path", file);
  std::ofstream(folder / "vantage") << "middle\n";
  BOOST_CHECK_THROW(capture_vantages(folder.string()), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
