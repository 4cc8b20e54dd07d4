// The sans-IO connection end to end in memory: the TLS 1.3 handshake with
// transport parameters, ALPN and key log (RFC 9001), Initial padding (RFC
// 9000 §14.1), HANDSHAKE_DONE, streams in both directions, resets, close,
// and malformed datagrams.
#include <boost/test/unit_test.hpp>

#include <map>

#include "codec/packet_header.hpp"
#include "unit/quic_pair.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

bool has_line(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) return true;
  return false;
}

Bytes pattern(size_t n) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(i * 31 + 7);
  return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_connection_test)

BOOST_AUTO_TEST_CASE(handshake_completes_and_is_confirmed) {
  Pair p;
  p.drive();
  BOOST_TEST(p.client->handshake_complete());
  BOOST_TEST(p.server->handshake_complete());
  BOOST_TEST(p.client->handshake_confirmed());  // HANDSHAKE_DONE arrived
  BOOST_TEST(p.client->alpn() == "conform");
  BOOST_TEST(p.server->alpn() == "conform");
  BOOST_REQUIRE(p.client->peer_params());
  BOOST_TEST(p.client->peer_params()->initial_max_streams_uni == 100u);
  BOOST_TEST(p.sent_values(true, frame_type::handshake_done).size() == 1u);
  // §14.1: the client's first datagram is padded to 1200 bytes.
  BOOST_REQUIRE(!p.client_datagrams.empty());
  BOOST_TEST(p.client_datagrams.front().size() == 1200u);
  // Every datagram of the client that holds an Initial is at least 1200.
  for (const Bytes& d : p.client_datagrams)
    if (d[0] & 0x80 && ((d[0] >> 4) & 3) == 0) BOOST_TEST(d.size() >= 1200u);
  // NSS key log lines for both handshake and 1-RTT secrets.
  for (const char* label : {"CLIENT_HANDSHAKE_TRAFFIC_SECRET ", "SERVER_HANDSHAKE_TRAFFIC_SECRET ",
                            "CLIENT_TRAFFIC_SECRET_0 ", "SERVER_TRAFFIC_SECRET_0 "})
    BOOST_TEST(has_line(p.keylog, label), label);
}

BOOST_AUTO_TEST_CASE(handshake_survives_a_lost_client_initial) {
  // RFC 9002 §6.2.4: the PTO probe elicits an ACK, which declares the first
  // Initial lost; its CRYPTO data goes out again.
  Pair p;
  p.drop = [](bool from_client, size_t n) { return from_client && n == 0; };
  p.drive();
  BOOST_TEST(!p.client->handshake_complete());
  BOOST_TEST((p.client->next_timeout() < p.now + Duration::seconds(2)));
  p.advance(Duration::seconds(3));
  BOOST_TEST(p.client->handshake_confirmed());
  BOOST_TEST(p.server->handshake_complete());
}

BOOST_AUTO_TEST_CASE(handshake_survives_a_lost_server_flight) {
  Pair p;
  p.drop = [](bool from_client, size_t n) { return !from_client && n == 0; };
  p.drive();
  p.advance(Duration::seconds(5));
  BOOST_TEST(p.client->handshake_confirmed());
  BOOST_TEST(p.server->handshake_complete());
}

BOOST_AUTO_TEST_CASE(server_respects_the_amplification_limit) {
  // RFC 9000 §8.1: until the client's address is validated the server sends
  // at most three times what it received, even while probing.
  Pair p;
  p.drop = [](bool from_client, size_t n) { return from_client && n > 0; };
  p.drive();
  p.advance(Duration::seconds(20));
  BOOST_TEST(p.server->stats().bytes_sent > 0u);
  BOOST_TEST(p.server->stats().bytes_sent <= 3 * p.server->stats().bytes_received);
  BOOST_TEST(!p.server->handshake_complete());
}

BOOST_AUTO_TEST_CASE(a_padded_certificate_fills_the_amplification_limit) {
  // certificate_padding_bytes: a 6000-byte extension makes the certificate
  // (and the Handshake flight) that much larger, beyond the 3 x 1200 bytes
  // a server may send before the client's address is validated (RFC 9000
  // §8.1): the first flight stops at the limit, the handshake completes
  // once the client's Handshake packets arrive.
  const size_t plain = TestCertificate::generate("localhost", 7)->der().size();
  Config s = Pair::server_config();
  s.certificate = TestCertificate::generate("localhost", 7, 6000);
  BOOST_REQUIRE(s.certificate);
  BOOST_TEST(s.certificate->der().size() >= plain + 6000);
  Pair p(Pair::client_config(), s);
  p.drive(2);  // the ClientHello over, the server's first flight back
  size_t first_flight = 0;
  for (const Bytes& d : p.server_datagrams) first_flight += d.size();
  BOOST_TEST(p.client_datagrams.front().size() == 1200u);
  // 1200 + 1189 + 1189: the 22 bytes left of 3 x 1200 are too few for a packet.
  BOOST_TEST(first_flight == 3578u);
  p.drive();
  BOOST_TEST(p.client->handshake_confirmed());
  BOOST_TEST(p.server->stats().bytes_sent > 6000u);
}

BOOST_AUTO_TEST_CASE(handshake_completes_through_retry) {
  Config s = Pair::server_config();
  s.retry = true;
  Pair p(Pair::client_config(), s);
  p.drive();
  BOOST_TEST(p.client->handshake_confirmed());
  BOOST_TEST(p.server->handshake_complete());
  BOOST_REQUIRE(!p.server_datagrams.empty());
  BOOST_TEST((p.server_datagrams.front()[0] & 0xf0) == 0xf0);  // a Retry came first
  BOOST_REQUIRE(p.client->peer_params());
  BOOST_TEST(p.client->peer_params()->retry_source_connection_id.has_value());
  BOOST_TEST(p.client_datagrams.size() >= 2u);
  BOOST_TEST(p.client_datagrams[1].size() >= 1200u);  // the second Initial, with the token
}

BOOST_AUTO_TEST_CASE(handshake_works_with_every_tls_group) {
  for (TlsGroups g : {TlsGroups::x25519, TlsGroups::p256, TlsGroups::cecpq2}) {
    Config c = Pair::client_config();
    c.tls_groups = g;
    Config s = Pair::server_config();
    s.tls_groups = g;
    Pair p(c, s);
    p.drive();
    BOOST_TEST(p.client->handshake_confirmed());
    BOOST_TEST(p.server->handshake_complete());
    if (g == TlsGroups::cecpq2) BOOST_TEST(p.client_datagrams.size() >= 2u);  // ClientHello > 1 packet
  }
}

BOOST_AUTO_TEST_CASE(alpn_mismatch_is_a_crypto_error) {
  Config c = Pair::client_config();
  c.alpn = {"h3"};
  Pair p(c);
  p.drive();
  BOOST_TEST(!p.client->handshake_complete());
  BOOST_REQUIRE(p.client->close_reason());
  // 0x100 + no_application_protocol (120), RFC 9001 §8.1.
  BOOST_TEST(p.client->close_reason()->error.code == 0x100u + 120);
  BOOST_TEST(p.client->close_reason()->by_peer);
}

BOOST_AUTO_TEST_CASE(bidi_stream_delivers_in_both_directions) {
  Pair p;
  p.drive();
  auto id = p.client->open_stream(Dir::bidi);
  BOOST_REQUIRE(id.ok());
  BOOST_TEST(id.value() == 0u);
  const Bytes request = pattern(300'000);  // over the 256 KiB stream window
  BOOST_TEST(p.client->write(id.value(), request).value() == request.size());
  BOOST_TEST(p.client->finish(id.value()).ok());
  std::map<StreamId, Bytes> partial_s, partial_c;
  std::vector<std::pair<StreamId, Bytes>> got;
  for (int i = 0; i < 200 && got.empty(); ++i) {
    p.drive();
    got = read_all(*p.server, p.server_events, partial_s);
  }
  BOOST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].first == 0u);
  BOOST_TEST((got[0].second == request));
  BOOST_TEST(!p.sent_values(true, frame_type::max_stream_data).empty());
  // Echo back on the same stream.
  BOOST_TEST(p.server->write(0, got[0].second).ok());
  BOOST_TEST(p.server->finish(0).ok());
  std::vector<std::pair<StreamId, Bytes>> echoed;
  for (int i = 0; i < 200 && echoed.empty(); ++i) {
    p.drive();
    echoed = read_all(*p.client, p.client_events, partial_c);
  }
  BOOST_REQUIRE(echoed.size() == 1u);
  BOOST_TEST((echoed[0].second == request));
  p.drive();
  BOOST_TEST(p.client->open_streams() == 0u);  // both sides done: forgotten
  BOOST_TEST(p.server->open_streams() == 0u);
}

// The max_streams_held_behind_cwnd fault (quicly#551): a raise that falls
// due when nothing else is to be sent (the server reads the client's
// streams after acknowledging them) leaves in no packet of its own; the
// client's STREAMS_BLOCKED makes an ACK due, and the raise goes with it.
// The correct stack sends it at once.
BOOST_AUTO_TEST_CASE(a_max_streams_held_behind_the_window_leaves_only_beside_other_frames) {
  for (const bool fault : {false, true}) {
    Config server = Pair::server_config();
    server.initial_max_streams_uni = 2;
    server.max_streams_held_behind_cwnd = fault;
    Pair p(Pair::client_config(), server);
    p.drive();
    for (int i = 0; i < 2; ++i) {
      auto id = p.client->open_stream(Dir::uni);
      BOOST_REQUIRE(id.ok());
      BOOST_TEST(p.client->write(id.value(), pattern(10)).ok());
      BOOST_TEST(p.client->finish(id.value()).ok());
    }
    p.drive();  // arrived and acknowledged, not yet read
    BOOST_TEST(p.sent_values(true, frame_type::max_streams_uni).empty());
    std::map<StreamId, Bytes> partial;
    BOOST_TEST(read_all(*p.server, p.server_events, partial).size() == 2u);  // read: the raise falls due
    p.drive();
    BOOST_TEST(p.sent_values(true, frame_type::max_streams_uni) == (fault ? std::vector<uint64_t>{}
                                                                          : std::vector<uint64_t>{4}),
               "fault " << fault);
    if (!fault) continue;
    BOOST_TEST(!p.client->open_stream(Dir::uni).ok());  // at the limit: says STREAMS_BLOCKED 2
    p.drive();
    BOOST_TEST(p.sent_values(false, frame_type::streams_blocked_uni) == std::vector<uint64_t>{2});
    BOOST_TEST(p.sent_values(true, frame_type::max_streams_uni) == std::vector<uint64_t>{4});
  }
}

BOOST_AUTO_TEST_CASE(key_updates_keep_data_flowing) {
  // RFC 9001 §6: the client starts a key update after 20 packets once the
  // previous one was acknowledged; the server follows each time. Data sent
  // in ten bursts crosses several phases intact.
  Config c = Pair::client_config();
  c.key_update_interval_packets = 20;
  Pair p(c);
  p.drive();
  auto id = p.client->open_stream(Dir::bidi).value();
  const Bytes data = pattern(300'000);
  std::map<StreamId, Bytes> partial;
  std::vector<std::pair<StreamId, Bytes>> got;
  for (size_t burst = 0; burst < 10; ++burst) {
    BOOST_TEST(p.client->write(id, ByteView(data).subspan(burst * 30'000, 30'000)).ok());
    if (burst == 9) BOOST_TEST(p.client->finish(id).ok());
    p.drive();
    auto done = read_all(*p.server, p.server_events, partial);
    got.insert(got.end(), done.begin(), done.end());
  }
  for (int i = 0; i < 20 && got.empty(); ++i) {
    p.drive();
    got = read_all(*p.server, p.server_events, partial);
  }
  BOOST_REQUIRE(got.size() == 1u);
  BOOST_TEST((got[0].second == data));
  BOOST_TEST(p.client->stats().key_updates >= 5u);
  BOOST_TEST(p.server->stats().key_updates == p.client->stats().key_updates);
  BOOST_TEST(!p.client->is_closed());
  BOOST_TEST(!p.server->is_closed());
}

BOOST_AUTO_TEST_CASE(stream_calls_report_their_errors) {
  Pair p;
  auto early = p.client->open_stream(Dir::uni);
  BOOST_TEST((!early.ok() && early.error() == StreamError::not_connected));
  p.drive();
  auto uni = p.client->open_stream(Dir::uni).value();
  uint8_t buf[8];
  BOOST_TEST((p.client->read(uni, buf).error() == StreamError::wrong_direction));
  BOOST_TEST((p.client->write(99, Bytes{1}).error() == StreamError::unknown_stream));
  BOOST_TEST(p.client->finish(uni).ok());
  BOOST_TEST((p.client->write(uni, Bytes{1}).error() == StreamError::finished));
}

BOOST_AUTO_TEST_CASE(reset_and_stop_sending_reach_the_peer) {
  Pair p;
  p.drive();
  auto id = p.client->open_stream(Dir::bidi).value();
  BOOST_TEST(p.client->write(id, pattern(10)).ok());
  p.drive();
  BOOST_TEST(p.client->reset(id, 42).ok());
  BOOST_TEST(p.client->stop_sending(id, 43).ok());
  p.drive();
  bool reset = false, stopped = false;
  for (const Event& e : p.server_events) {
    if (auto* r = std::get_if<StreamReset>(&e)) reset = r->id == id && r->error_code == 42;
    if (auto* s = std::get_if<StreamStopped>(&e)) stopped = s->id == id && s->error_code == 43;
  }
  BOOST_TEST(reset);
  BOOST_TEST(stopped);
  uint8_t buf[16];
  BOOST_TEST((p.server->read(id, buf).error() == StreamError::reset_by_peer));
  p.drive();
  // The server answered STOP_SENDING with RESET_STREAM(43) (§3.5).
  bool answered = false;
  for (const Event& e : p.client_events)
    if (auto* r = std::get_if<StreamReset>(&e)) answered = r->error_code == 43;
  BOOST_TEST(answered);
}

BOOST_AUTO_TEST_CASE(application_close_reaches_the_peer_and_both_end) {
  Pair p;
  p.drive();
  p.client->close(p.now, 7, "done");
  p.drive();
  BOOST_REQUIRE(p.server->close_reason());
  BOOST_TEST(p.server->close_reason()->by_peer);
  BOOST_TEST(p.server->close_reason()->application);
  BOOST_TEST(p.server->close_reason()->error.code == 7u);
  BOOST_TEST(p.server->close_reason()->error.reason == "done");
  p.advance(Duration::seconds(10));
  BOOST_TEST(p.client->is_closed());
  BOOST_TEST(p.server->is_closed());
}

BOOST_AUTO_TEST_CASE(idle_timeout_closes_silently) {
  Config c = Pair::client_config();
  c.max_idle_timeout_ms = 2'000;
  Pair p(c);
  p.drive();
  const size_t sent = p.client_datagrams.size();
  p.advance(Duration::seconds(3));
  BOOST_TEST(p.client->is_closed());
  BOOST_TEST(p.server->is_closed());  // the smaller value applies to both (§10.1)
  BOOST_TEST(p.client_datagrams.size() == sent);
}

// RFC 9000 §10.1: the idle timeout is at least three PTOs, whatever the
// transport parameters say, so a slow path does not time out between probes.
BOOST_AUTO_TEST_CASE(idle_timeout_is_at_least_three_ptos) {
  Config c = Pair::client_config();
  c.max_idle_timeout_ms = 1;
  Pair p(c);
  p.drive();
  BOOST_REQUIRE(p.client->handshake_complete());
  // The PTO is at least max_ack_delay (25 ms) beyond the RTT: three of them
  // are more than 60 ms.
  p.advance(Duration::millis(60));
  BOOST_TEST(!p.client->is_closed());
  BOOST_TEST(!p.server->is_closed());
  p.advance(Duration::seconds(5));
  BOOST_TEST(p.client->is_closed());
  BOOST_TEST(p.server->is_closed());
}

// The largest max_idle_timeout a varint holds (2^62 - 1 ms) means no idle
// timeout in practice; it must not wrap the clock into a short one.
BOOST_AUTO_TEST_CASE(the_largest_idle_timeout_is_none) {
  Config c = Pair::client_config();
  c.max_idle_timeout_ms = (uint64_t{1} << 62) - 1;
  Config s = Pair::server_config();
  s.max_idle_timeout_ms = 0;
  Pair p(c, s);
  p.drive();
  p.advance(Duration::seconds(100));
  BOOST_TEST(!p.client->is_closed());
  BOOST_TEST(!p.server->is_closed());
}

// RFC 9000 §10.1: sending restarts the idle timer only for the first
// ack-eliciting packet since one was received; a client probing a path that
// loses everything closes one idle timeout after its first Initial, not one
// after its last probe.
BOOST_AUTO_TEST_CASE(probes_into_a_dead_path_do_not_hold_the_idle_timer) {
  Config c = Pair::client_config();
  c.max_idle_timeout_ms = 30'000;
  Pair p(c);
  p.drop = [](bool, size_t) { return true; };
  p.drive();
  p.advance(Duration::millis(29'900));
  BOOST_TEST(!p.client->is_closed());
  BOOST_TEST(p.client_datagrams.size() > 3u, "the client probed: " << p.client_datagrams.size() << " datagrams");
  p.advance(Duration::millis(200));
  BOOST_TEST(p.client->is_closed());
  BOOST_REQUIRE(p.client->close_reason());
  BOOST_TEST(p.client->close_reason()->error.reason == "idle timeout");
}

BOOST_AUTO_TEST_CASE(malformed_datagrams_never_crash) {
  Pair p;
  p.drive();
  uint64_t x = 0x2545f4914f6cdd1dull;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  const Bytes valid = p.client_datagrams.back();
  for (int i = 0; i < 3000; ++i) {
    Bytes d;
    if (i % 3 == 0) {
      d = valid;  // a real datagram with bytes flipped
      for (int k = 0; k < 3; ++k) d[next() % d.size()] ^= static_cast<uint8_t>(next());
    } else {
      d.resize(next() % 1500);
      for (auto& b : d) b = static_cast<uint8_t>(next());
      if (!d.empty() && i % 2) d[0] = static_cast<uint8_t>(0x40 | (d[0] & 0x3f));  // short header
    }
    p.server->handle_datagram(p.now, d);
    p.client->handle_datagram(p.now, d);
  }
  BOOST_TEST(!p.server->is_closed());  // authentication rejects all of it
  BOOST_TEST(!p.client->is_closed());
  BOOST_TEST(p.server->stats().packets_dropped > 0u);
}

BOOST_AUTO_TEST_CASE(same_seed_gives_the_same_timeline) {
  // ARCHITECTURE.md principle 3: TLS randomness changes bytes, but sizes,
  // packet numbers and frames of a run depend only on its seed.
  auto run = [] {
    Pair p;
    p.drive();
    auto id = p.client->open_stream(Dir::uni).value();
    BOOST_TEST(p.client->write(id, Bytes(5000, 3)).ok());
    BOOST_TEST(p.client->finish(id).ok());
    p.drive();
    std::vector<size_t> sizes;
    for (const Bytes& d : p.client_datagrams) sizes.push_back(d.size());
    for (const Bytes& d : p.server_datagrams) sizes.push_back(d.size());
    std::vector<uint64_t> frames;
    for (const Traced& t : p.traced) frames.push_back(t.type << 8 | t.value << 2 | (t.server ? 1 : 0));
    return std::make_pair(sizes, frames);
  };
  const auto a = run();
  const auto b = run();
  BOOST_TEST(a.first == b.first, boost::test_tools::per_element());
  BOOST_TEST(a.second == b.second, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_version_gets_version_negotiation) {
  Config s = Pair::server_config();
  auto server = std::move(Connection::accept(s, Instant{}).value());
  Bytes d(1200, 0);
  const uint8_t head[] = {0xc0, 0x1a, 0x2a, 0x3a, 0x4a, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 9};
  std::copy(std::begin(head), std::end(head), d.begin());
  server->handle_datagram(Instant{}, d);
  auto vn = server->poll_transmit(Instant{});
  BOOST_REQUIRE(vn);
  auto h = parse_packet_header(*vn, 0);
  BOOST_REQUIRE(h);
  BOOST_TEST((h->type == PacketType::version_negotiation));
  BOOST_TEST(h->dcid.len == 1u);  // the client's SCID
  BOOST_TEST(h->versions.size() == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
