// The dissector against tshark on captures of a third-party stack (ngtcp2's
// gtlsclient and gtlsserver, made by scripts/make-reference-captures.sh):
// per datagram, the header forms, long packet types, packet numbers, key
// phases, frame types, STREAM IDs, MAX_STREAMS and STREAMS_BLOCKED values
// must equal tshark's, field by field.
#include "capture/pcap_reader.hpp"
#include "dissect/dissector.hpp"
#include "support/build_paths.hpp"

#include <boost/test/unit_test.hpp>
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace conform;
using namespace conform::dissect;

namespace {

const std::string kDir = std::string(CONFORM_SOURCE_DIR) + "/captures/ngtcp2/";

// One datagram as tshark's -T fields line has it: each column is the
// comma-joined values of every QUIC packet in the datagram.
struct Row {
  std::string header_form, long_packet_type, packet_number, key_phase, frame_type, stream_id,
      max_streams, streams_blocked, decryption_failed;
};

std::map<std::uint64_t, Row> read_tsv(const std::string& path) {
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  std::map<std::uint64_t, Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) f.push_back(cell);
    f.resize(10);
    rows[std::stoull(f[0])] = {f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]};
  }
  return rows;
}

struct Joiner {
  std::string text;
  template <class T>
  void add(const T& v) {
    if (!text.empty()) text += ',';
    text += fmt::format("{}", v);
  }
};

Row row_of(const Datagram& d) {
  Joiner form, type, pn, phase, frames, streams, max_streams, blocked, failed;
  for (const Packet& p : d.packets) {
    const bool is_long = p.type != PacketType::one_rtt;
    form.add(is_long ? 1 : 0);
    if (is_long && p.type != PacketType::version_negotiation) {
      static const std::map<PacketType, int> kTypes = {{PacketType::initial, 0}, {PacketType::zero_rtt, 1},
                                                       {PacketType::handshake, 2}, {PacketType::retry, 3}};
      if (auto it = kTypes.find(p.type); it != kTypes.end()) type.add(it->second);
    }
    if (p.packet_number) pn.add(*p.packet_number);
    if (p.key_phase) phase.add(*p.key_phase);
    if (p.undecryptable == Undecryptable::authentication_failed) failed.add(1);
    for (const Frame& f : p.frames) {
      if (auto t = frame_type(f)) frames.add(*t);
      if (const auto* s = std::get_if<StreamFrame>(&f)) streams.add(s->stream_id);
      if (const auto* m = std::get_if<MaxStreamsFrame>(&f)) max_streams.add(m->maximum);
      if (const auto* b = std::get_if<StreamsBlockedFrame>(&f)) blocked.add(b->limit);
    }
  }
  return {form.text, type.text, pn.text, phase.text, frames.text, streams.text, max_streams.text,
          blocked.text, failed.text};
}

// Compares a capture with its .tsv; returns the timeline for more checks.
Timeline compare_with_tshark(const std::string& name) {
  const KeyLog keys = read_key_log(kDir + name + ".keys");
  BOOST_TEST(keys.problems.empty());
  const CaptureContents capture = read_capture(kDir + name + ".pcap");
  BOOST_TEST(!capture.summary.damage.has_value());
  Timeline t = dissect::dissect(capture.datagrams, keys);
  BOOST_TEST(t.unattributed.empty());
  const auto expected = read_tsv(kDir + name + ".tsv");
  std::size_t compared = 0;
  for (const Connection& c : t.connections) {
    BOOST_TEST(c.secrets_found);
    for (const Datagram& d : c.datagrams) {
      auto it = expected.find(d.frame);
      BOOST_REQUIRE_MESSAGE(it != expected.end(), name << ": frame " << d.frame << " not in the .tsv");
      const Row got = row_of(d);
      const Row& want = it->second;
      const std::string where = fmt::format("{} frame {}: ", name, d.frame);
      BOOST_TEST(got.header_form == want.header_form, where << "header_form");
      BOOST_TEST(got.long_packet_type == want.long_packet_type, where << "long_packet_type");
      BOOST_TEST(got.packet_number == want.packet_number, where << "packet_number");
      BOOST_TEST(got.key_phase == want.key_phase, where << "key_phase");
      BOOST_TEST(got.frame_type == want.frame_type, where << "frame_type");
      BOOST_TEST(got.stream_id == want.stream_id, where << "stream_id");
      BOOST_TEST(got.max_streams == want.max_streams, where << "max_streams");
      BOOST_TEST(got.streams_blocked == want.streams_blocked, where << "streams_blocked");
      BOOST_TEST(got.decryption_failed == want.decryption_failed, where << "decryption_failed");
      ++compared;
    }
  }
  BOOST_TEST(compared == expected.size(), name << ": every datagram tshark saw is in the timeline");
  return t;
}

template <class F>
std::size_t count_frames(const Timeline& t) {
  std::size_t n = 0;
  for (const auto& c : t.connections)
    for (const auto& d : c.datagrams)
      for (const auto& p : d.packets)
        for (const auto& f : p.frames) n += std::holds_alternative<F>(f);
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reference_captures_test)

BOOST_AUTO_TEST_CASE(handshake) {
  const Timeline t = compare_with_tshark("handshake");
  BOOST_TEST(t.connections.size() == 1u);
  BOOST_TEST(count_frames<HandshakeDoneFrame>(t) == 1u);
}

BOOST_AUTO_TEST_CASE(retry) {
  const Timeline t = compare_with_tshark("retry");
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  std::size_t retries = 0;
  for (const auto& d : t.connections[0].datagrams)
    for (const auto& p : d.packets)
      if (p.type == PacketType::retry) {
        ++retries;
        BOOST_TEST(p.extras().retry_integrity_ok.value_or(false));
      }
  BOOST_TEST(retries == 1u);
}

BOOST_AUTO_TEST_CASE(stream_limit) {
  const Timeline t = compare_with_tshark("stream-limit");
  BOOST_TEST(count_frames<MaxStreamsFrame>(t) > 0u);
}

BOOST_AUTO_TEST_CASE(loss) { compare_with_tshark("loss"); }

BOOST_AUTO_TEST_CASE(key_update) {
  const Timeline t = compare_with_tshark("key-update");
  unsigned highest = 0;
  for (const auto& d : t.connections.at(0).datagrams)
    for (const auto& p : d.packets) highest = std::max(highest, p.key_generation);
  BOOST_TEST(highest >= 1u, "the capture holds a key update");
}

BOOST_AUTO_TEST_CASE(large) { compare_with_tshark("large"); }

// gtlsclient --change-local-addr: the client moves to a new port mid-transfer;
// the packets on the new path stay in the same connection (found by their
// connection IDs), with PATH_CHALLENGE and PATH_RESPONSE.
BOOST_AUTO_TEST_CASE(migration) {
  const Timeline t = compare_with_tshark("migration");
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  std::set<std::uint16_t> client_ports;
  for (const auto& d : t.connections[0].datagrams)
    client_ports.insert(d.direction == Direction::client_to_server ? d.from.port : d.to.port);
  BOOST_TEST(client_ports.size() >= 2u);
  BOOST_TEST(count_frames<PathChallengeFrame>(t) > 0u);
  BOOST_TEST(count_frames<PathResponseFrame>(t) > 0u);
}

// gtlsserver's default UDP GSO on loopback: records of up to ~40 KB that
// tshark cannot decrypt (it takes each as one packet); the dissector splits
// them into their 1200-byte datagrams and every packet opens.
BOOST_AUTO_TEST_CASE(gso_batches_are_split_into_datagrams) {
  const KeyLog keys = read_key_log(kDir + "gso.keys");
  const Timeline t = dissect::dissect(read_capture(kDir + "gso.pcap").datagrams, keys);
  BOOST_REQUIRE_EQUAL(t.connections.size(), 1u);
  std::size_t split = 0, undecryptable = 0;
  std::optional<std::uint64_t> last_server_pn;
  for (const auto& d : t.connections[0].datagrams) {
    if (d.gso) {
      ++split;
      BOOST_TEST(d.gso->count > 1u);
      BOOST_TEST(d.size <= d.gso->segment_size);
    }
    for (const auto& p : d.packets) {
      undecryptable += p.undecryptable.has_value();
      if (d.direction == Direction::server_to_client && p.type == PacketType::one_rtt && p.packet_number) {
        if (last_server_pn) BOOST_TEST(*p.packet_number > *last_server_pn, "frame " << d.frame);
        last_server_pn = p.packet_number;
      }
    }
  }
  BOOST_TEST(split > 10u);
  BOOST_TEST(undecryptable == 0u);
}

// Two captures played as one (each shifted to start together, merged by
// time) must give the same two timelines as each alone: connections are
// told apart by connection IDs and ports, and each finds its own secrets.
BOOST_AUTO_TEST_CASE(several_connections_in_one_capture) {
  KeyLog keys;
  std::vector<CapturedDatagram> merged;
  std::vector<Timeline> alone;
  for (const char* name : {"handshake", "retry", "stream-limit"}) {
    const KeyLog k = read_key_log(kDir + name + ".keys");
    merge_key_log(keys, k);
    auto datagrams = read_capture(kDir + std::string(name) + ".pcap").datagrams;
    alone.push_back(dissect::dissect(datagrams, k));
    const std::int64_t t0 = datagrams.front().time_ns;
    for (auto& d : datagrams) d.time_ns -= t0;
    merged.insert(merged.end(), datagrams.begin(), datagrams.end());
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  const Timeline t = dissect::dissect(merged, keys);
  BOOST_TEST(t.unattributed.empty());
  BOOST_REQUIRE_EQUAL(t.connections.size(), alone.size());
  for (const Connection& c : t.connections) {
    const auto it = std::find_if(alone.begin(), alone.end(), [&](const Timeline& a) {
      return a.connections.at(0).original_dcid == c.original_dcid;
    });
    BOOST_REQUIRE(it != alone.end());
    const Connection& want = it->connections[0];
    BOOST_REQUIRE_EQUAL(c.datagrams.size(), want.datagrams.size());
    for (std::size_t i = 0; i < c.datagrams.size(); ++i) {
      BOOST_TEST(row_of(c.datagrams[i]).frame_type == row_of(want.datagrams[i]).frame_type);
      BOOST_TEST(row_of(c.datagrams[i]).packet_number == row_of(want.datagrams[i]).packet_number);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
