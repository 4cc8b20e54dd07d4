// Loss recovery end to end on the in-memory path (quic_sim_path.hpp): the
// server's first flight lost and recovered by PTO (RFC 9002 §6.2), probe
// datagrams that coalesce Initial and Handshake and advance through CRYPTO
// (§6.2.4), client packet buffering (RFC 9001 §5.7), the MTU policy, and
// STREAM data surviving random loss with NewReno (§7).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <optional>

#include "codec/packet_header.hpp"
#include "unit/quic_pair.hpp"
#include "recovery/congestion.hpp"
#include "unit/quic_sim_path.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

LinkSpec link_ms(int64_t one_way_ms) {
  LinkSpec l;
  l.one_way_delay = Duration::millis(one_way_ms);
  return l;
}

/// The long-header packet types of a datagram, in order (RFC 9000 §12.2).
std::vector<PacketType> packet_types(const Bytes& d) {
  std::vector<PacketType> out;
  for (size_t off = 0; off < d.size();) {
    const auto h = parse_packet_header(ByteView(d).subspan(off), 8);
    if (!h) break;
    out.push_back(h->type);
    off += h->length;
  }
  return out;
}

/// CRYPTO frames one side sent: (space, offset, length) in order.
struct CryptoSent {
  Space space;
  uint64_t offset;
  size_t len;
};

void trace_crypto(Config& c, std::vector<CryptoSent>& out) {
  c.frame_trace = [&out](TraceDir dir, Space s, const Frame& f) {
    if (const auto* cf = std::get_if<CryptoFrame>(&f); cf && dir == TraceDir::sent)
      out.push_back({s, cf->offset, cf->data.size()});
  };
}

/// Drops every datagram the server sends before `until` (its first flight).
void drop_server_until(SimPath& p, Instant until) {
  p.drop = [&p, until](bool from_client, size_t, const Bytes&) { return !from_client && p.now < until; };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_loss_recovery_test)

BOOST_AUTO_TEST_CASE(lossless_handshake_takes_two_round_trips) {
  // Initial at 0, server flight at 5, client Finished at 10, HANDSHAKE_DONE
  // back at 20 ms: nothing probed, lost or buffered.
  SimPath p(Pair::client_config(), Pair::server_config(), link_ms(5), link_ms(5));
  const auto t = p.handshake_time();
  BOOST_REQUIRE(t.has_value());
  BOOST_TEST(t->ns == Duration::millis(20).ns);
  BOOST_TEST(p.client().stats().probe_datagrams == 0u);
  BOOST_TEST(p.server().stats().probe_datagrams == 0u);
  BOOST_TEST(p.client().stats().packets_lost == 0u);
  BOOST_TEST(p.client().stats().packets_buffered == 0u);
  BOOST_TEST(p.client().recovery().rtt().smoothed().ns == Duration::millis(10).ns);
}

// The server_flight_delay_ms script: the server sends nothing, its ACK of
// the ClientHello included, until 100 ms after the Initial reached it (at
// 5 ms), so the handshake takes 100 ms longer; a client whose first PTO
// (3 x 10 ms) comes before that probes meanwhile, and nothing is lost.
BOOST_AUTO_TEST_CASE(a_held_server_flight_leaves_after_its_delay) {
  for (const int64_t initial_rtt_ms : {333, 10}) {
    Config client = Pair::client_config(), server = Pair::server_config();
    client.initial_rtt_ms = static_cast<uint64_t>(initial_rtt_ms);
    server.server_flight_delay_ms = 100;
    SimPath p(client, server, link_ms(5), link_ms(5));
    const auto t = p.handshake_time();
    BOOST_TEST_REQUIRE(t.has_value());
    BOOST_TEST(t->ns == Duration::millis(120).ns, initial_rtt_ms);
    BOOST_TEST(p.server().stats().probe_datagrams == 0u);
    BOOST_TEST((p.client().stats().probe_datagrams > 0) == (initial_rtt_ms == 10), initial_rtt_ms);
    BOOST_TEST(p.client().stats().packets_lost == 0u);
  }
}

BOOST_AUTO_TEST_CASE(keys_and_recovery_state_are_discarded_on_time) {
  // RFC 9001 §4.9: the client drops Initial once it sends Handshake, the
  // server once it receives Handshake; Handshake goes at confirmation. No
  // frame is sent in a space after that, and recovery forgets its packets.
  Pair p;
  p.drive();
  BOOST_REQUIRE(p.client->handshake_confirmed());
  for (bool server : {false, true}) {
    bool handshake_sent = false, handshake_received = false, done_received = false;
    for (const Traced& t : p.traced) {
      if (t.server != server) continue;
      if (t.dir == TraceDir::sent && t.space == Space::initial)
        BOOST_TEST((server ? !handshake_received : !handshake_sent), "Initial sent after its keys went");
      if (t.dir == TraceDir::sent && t.space == Space::handshake) {
        BOOST_TEST(!done_received);
        handshake_sent = true;
      }
      if (t.dir == TraceDir::received && t.space == Space::handshake) handshake_received = true;
      if (t.dir == TraceDir::received && t.type == frame_type::handshake_done) done_received = true;
    }
    Connection& c = server ? *p.server : *p.client;
    BOOST_TEST(c.recovery().ack_eliciting_in_flight(Space::initial) == 0u);
    BOOST_TEST(c.recovery().ack_eliciting_in_flight(Space::handshake) == 0u);
  }
}

BOOST_AUTO_TEST_CASE(lost_server_flight_is_recovered_by_pto) {
  // The server's flight (sent at 5 ms) is lost. Its PTO, with no RTT sample,
  // is 333 + 4 * 166.5 = 999 ms (§6.2.1): probes at 1004 ms reach the client
  // at 1009, its Finished the server at 1014, HANDSHAKE_DONE the client at
  // 1019 ms. The client's own PTO (999 ms) only repeats its Initial.
  SimPath p(Pair::client_config(), Pair::server_config(), link_ms(5), link_ms(5));
  drop_server_until(p, p.now + Duration::millis(6));
  const auto t = p.handshake_time();
  BOOST_REQUIRE(t.has_value());
  BOOST_TEST(t->ns == Duration::millis(1019).ns);
  BOOST_TEST(p.server().stats().probe_datagrams >= 1u);
  BOOST_TEST(p.server().stats().probe_datagrams <= 2u);
}

BOOST_AUTO_TEST_CASE(initial_rtt_scales_the_first_pto) {
  Config c = Pair::client_config(), s = Pair::server_config();
  c.initial_rtt_ms = s.initial_rtt_ms = 10;  // PTO = 10 + 4 * 5 = 30 ms
  SimPath p(c, s, link_ms(5), link_ms(5));
  drop_server_until(p, p.now + Duration::millis(6));
  const auto t = p.handshake_time();
  BOOST_REQUIRE(t.has_value());
  BOOST_TEST(t->ns == Duration::millis(20 + 30).ns);
}

BOOST_AUTO_TEST_CASE(probe_datagram_coalesces_initial_and_handshake) {
  for (bool coalescing : {true, false}) {
    Config s = Pair::server_config();
    s.probe_coalescing = coalescing;
    SimPath p(Pair::client_config(), s, link_ms(5), link_ms(5));
    p.keep_bytes = true;
    const Instant flight_end = p.now + Duration::millis(6);
    drop_server_until(p, flight_end);
    BOOST_REQUIRE(p.handshake_time().has_value());
    // The first two server datagrams after the lost flight are the probes.
    std::vector<std::vector<PacketType>> probes;
    for (const PathRecord& r : p.log)
      if (!r.from_client && r.sent >= flight_end && probes.size() < 2) probes.push_back(packet_types(r.bytes));
    BOOST_REQUIRE(probes.size() == 2u);
    if (coalescing) {
      const std::vector<PacketType> both = {PacketType::initial, PacketType::handshake};
      BOOST_TEST((probes[0] == both), "first probe: Initial + Handshake");
    } else {
      BOOST_TEST((probes[0] == std::vector<PacketType>{PacketType::initial}));
      BOOST_TEST((probes[1] == std::vector<PacketType>{PacketType::handshake}));
    }
  }
}

BOOST_AUTO_TEST_CASE(successive_probes_advance_through_crypto) {
  // CECPQ2's ServerHello does not fit one 1200-byte probe: the second probe
  // carries the rest; with the fault it starts at offset 0 again.
  for (bool fault : {false, true}) {
    Config c = Pair::client_config(), s = Pair::server_config();
    c.tls_groups = s.tls_groups = TlsGroups::cecpq2;
    s.probe_restart_crypto_at_zero = fault;
    std::vector<CryptoSent> sent;
    trace_crypto(s, sent);
    SimPath p(c, s, link_ms(5), link_ms(5));
    const Instant flight_end = p.now + Duration::millis(6);
    drop_server_until(p, flight_end);
    p.run(flight_end, nullptr);
    uint64_t initial_len = 0;
    for (const CryptoSent& cs : sent)
      if (cs.space == Space::initial) initial_len = std::max<uint64_t>(initial_len, cs.offset + cs.len);
    BOOST_TEST(initial_len > 1125u);  // more than a probe carries
    const size_t before = sent.size();
    p.run(p.now + Duration::millis(1000), nullptr);  // the first PTO (999 ms)
    std::vector<CryptoSent> initial_probes;
    for (size_t i = before; i < sent.size(); ++i)
      if (sent[i].space == Space::initial) initial_probes.push_back(sent[i]);
    BOOST_REQUIRE(initial_probes.size() >= 2u);
    BOOST_TEST(initial_probes[0].offset == 0u);
    if (fault) {
      BOOST_TEST(initial_probes[1].offset == 0u);
    } else {
      BOOST_TEST(initial_probes[1].offset == initial_probes[0].len);
      BOOST_TEST(initial_probes[1].offset + initial_probes[1].len == initial_len);
    }
  }
}

BOOST_AUTO_TEST_CASE(client_packet_buffering_shortens_the_handshake) {
  // The server's first datagram (most of the CECPQ2 ServerHello) is lost;
  // the next one, the ServerHello's tail and the Handshake packet, arrives.
  // The client ACKs the tail, the server declares the first Initial lost
  // by time threshold and sends it again: the client gets its Handshake
  // keys one RTT later. A buffering client holds the Handshake packet by
  // then; one that dropped it waits for the server's Handshake PTO.
  std::map<bool, Duration> time;
  std::map<bool, uint64_t> buffered;
  for (bool buffering : {false, true}) {
    Config c = Pair::client_config(), s = Pair::server_config();
    c.tls_groups = s.tls_groups = TlsGroups::cecpq2;
    c.client_packet_buffering = buffering;
    SimPath p(c, s, link_ms(5), link_ms(5));
    p.drop = [](bool from_client, size_t n, const Bytes& d) {
      return !from_client && n == 0 && packet_types(d).front() == PacketType::initial;
    };
    const auto t = p.handshake_time();
    BOOST_REQUIRE(t.has_value());
    time[buffering] = *t;
    buffered[buffering] = p.client().stats().packets_buffered;
  }
  BOOST_TEST(buffered[false] == 0u);
  BOOST_TEST(buffered[true] > 0u);
  BOOST_TEST_MESSAGE("handshake ms without/with buffering: " << time[false].as_millis() << " / "
                                                             << time[true].as_millis());
  BOOST_TEST(time[true].ns + Duration::millis(10).ns <= time[false].ns);  // at least one RTT saved
}

BOOST_AUTO_TEST_CASE(server_buffers_one_rtt_before_the_client_finished) {
  // The client's Finished datagram is lost; its 1-RTT STREAM data arrives
  // before the server has 1-RTT keys. Buffered, the data is read as soon as
  // the Finished probe (client PTO, 10 + 4 * 5 = 30 ms after it) arrives;
  // dropped, it waits for its own loss recovery.
  std::map<bool, Duration> time;
  std::map<bool, uint64_t> buffered;
  for (bool buffering : {false, true}) {
    Config s = Pair::server_config();
    s.client_packet_buffering = buffering;
    SimPath p(Pair::client_config(), s, link_ms(5), link_ms(5));
    const Instant start = p.now;
    std::optional<StreamId> id;
    p.step = [&] {
      if (id || !p.client().handshake_complete()) return;
      id = p.client().open_stream(Dir::uni).value();
      BOOST_REQUIRE(p.client().write(*id, Bytes(3000, 1)).ok());
      BOOST_REQUIRE(p.client().finish(*id).ok());
    };
    // The client's second datagram with a long header carries its Finished.
    p.drop = [](bool from_client, size_t n, const Bytes& d) { return from_client && n == 1 && (d[0] & 0x80); };
    bool done = false;
    BOOST_REQUIRE(p.run(start + Duration::seconds(5), [&] {
      uint8_t buf[4096];
      while (id && !done) {
        auto r = p.server().read(*id, buf);
        if (!r.ok() || (r.value().bytes == 0 && !r.value().fin)) break;
        done = r.value().fin;
      }
      return done;
    }));
    time[buffering] = p.now - start;
    buffered[buffering] = p.server().stats().packets_buffered;
  }
  BOOST_TEST(buffered[false] == 0u);
  BOOST_TEST(buffered[true] > 0u);
  BOOST_TEST(time[true].ns + Duration::millis(10).ns <= time[false].ns);
}

BOOST_AUTO_TEST_CASE(first_flight_above_path_mtu_falls_back_to_base_mtu) {
  Config c = Pair::client_config(), s = Pair::server_config();
  c.initial_mtu = s.initial_mtu = 8940;
  c.base_mtu = s.base_mtu = 1450;
  c.max_udp_payload_size = s.max_udp_payload_size = 8940;
  c.initial_rtt_ms = s.initial_rtt_ms = 1;
  LinkSpec l = link_ms(5);
  l.mtu = 1500;
  SimPath p(c, s, l, l);
  BOOST_REQUIRE(p.handshake_time().has_value());
  BOOST_REQUIRE(!p.log.empty());
  BOOST_TEST(p.log.front().size == 8940u);  // the first flight, padded to initial_mtu
  BOOST_TEST(!p.log.front().delivered);
  BOOST_TEST(p.client().max_datagram_size() == 1450u);
  BOOST_TEST(p.server().max_datagram_size() == 1450u);
  // Only datagrams above the path MTU were lost (both first flights), and
  // once the handshake completed nothing larger than base_mtu was sent.
  for (const PathRecord& r : p.log) BOOST_TEST((r.delivered || r.size > 1500u));
  const size_t n = p.log.size();
  BOOST_REQUIRE(n >= 3u);
  for (size_t i = n - 3; i < n; ++i) BOOST_TEST(p.log[i].size <= 1450u);
}

BOOST_AUTO_TEST_CASE(stream_data_survives_random_loss) {
  // 300 KB over a lossy 10 ms path: lost STREAM frames are sent again,
  // NewReno halves its window on each congestion event (§7.3.2).
  Config c = Pair::client_config(), s = Pair::server_config();
  LinkSpec l = link_ms(5);
  l.loss = 0.03;
  SimPath p(c, s, l, l, 42);
  BOOST_REQUIRE(p.handshake_time().has_value());
  const size_t total = 300'000;
  Bytes payload(total);
  for (size_t i = 0; i < total; ++i) payload[i] = static_cast<uint8_t>(i * 7 + 3);
  auto id = p.server().open_stream(Dir::uni);
  BOOST_REQUIRE(id.ok());
  BOOST_REQUIRE(p.server().write(id.value(), payload).ok());
  BOOST_REQUIRE(p.server().finish(id.value()).ok());
  Bytes got;
  bool fin = false;
  p.step = [&] {
    uint8_t buf[16384];
    while (!fin) {
      auto r = p.client().read(id.value(), buf);
      if (!r.ok() || (r.value().bytes == 0 && !r.value().fin)) break;
      got.insert(got.end(), buf, buf + r.value().bytes);
      fin = r.value().fin;
    }
  };
  BOOST_REQUIRE(p.run(p.now + Duration::seconds(60), [&] { return fin; }));
  BOOST_TEST((got == payload));
  BOOST_TEST(p.server().stats().packets_lost > 0u);
  BOOST_TEST(dynamic_cast<const NewReno&>(p.server().recovery().congestion()).ssthresh() <
             std::numeric_limits<uint64_t>::max());
}

// The ack_probes script: with the server's flight lost for 100 ms, the
// client's PTO probes re-send its ClientHello (nothing new to the server).
// By default the server's ACKs report them; with ack_probes = false they
// leave them out, reporting the first Initial alone, while still answering
// each probe with an ACK.
BOOST_AUTO_TEST_CASE(ack_probes_false_leaves_the_peers_probes_out_of_its_acks) {
  auto largest_initial_acks = [](bool ack_probes) {
    Config client = Pair::client_config(), server = Pair::server_config();
    client.initial_rtt_ms = 10;
    server.ack_probes = ack_probes;
    std::vector<uint64_t> largest;
    server.frame_trace = [&largest](TraceDir dir, Space s, const Frame& f) {
      if (const auto* a = std::get_if<AckFrame>(&f); a && dir == TraceDir::sent && s == Space::initial)
        largest.push_back(a->largest());
    };
    SimPath p(client, server, link_ms(5), link_ms(5));
    drop_server_until(p, p.now + Duration::millis(100));
    BOOST_TEST(p.handshake_time().has_value());
    BOOST_TEST(p.client().stats().probe_datagrams > 0u);
    return largest;
  };
  const auto reported = largest_initial_acks(true), left_out = largest_initial_acks(false);
  BOOST_TEST(*std::max_element(reported.begin(), reported.end()) > 0u);
  BOOST_TEST(left_out.size() > 1u);
  BOOST_TEST(*std::max_element(left_out.begin(), left_out.end()) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
