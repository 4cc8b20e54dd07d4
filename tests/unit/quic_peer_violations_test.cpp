// Peer violations answered with the right CONNECTION_CLOSE code (RFC 9000
// §11, §20.1): a client made to misbehave through the tamper_payload hook
// and the respect_peer_* knobs, and the server's reaction.
#include <boost/test/unit_test.hpp>

#include "unit/quic_pair.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

// Appends `frames` once to the next packet of `space` sent after `armed`.
struct Injector {
  bool armed = false;
  Space space = Space::application;
  Bytes frames;
  void operator()(Space s, Bytes& payload) {
    if (!armed || s != space) return;
    armed = false;
    payload.insert(payload.end(), frames.begin(), frames.end());
  }
};

Bytes encode(std::initializer_list<Frame> frames) {
  Bytes out;
  Writer w(out);
  for (const Frame& f : frames) encode_frame(w, f);
  return out;
}

// Runs a handshake, injects `frames` from the client in `space`, and
// returns how the server closed (code, frame type).
std::pair<uint64_t, uint64_t> server_verdict(Bytes frames, Space space = Space::application,
                                              bool arm_before_handshake = false) {
  auto injector = std::make_shared<Injector>();
  injector->space = space;
  injector->frames = std::move(frames);
  Config c = Pair::client_config();
  c.tamper_payload = [injector](Space s, Bytes& payload) { (*injector)(s, payload); };
  injector->armed = arm_before_handshake;
  Pair p(c);
  p.drive();
  if (!arm_before_handshake) {
    injector->armed = true;
    auto id = p.client->open_stream(Dir::bidi);  // something to send
    BOOST_REQUIRE(id.ok());
    BOOST_TEST(p.client->write(id.value(), Bytes(10, 1)).ok());
    p.drive();
  }
  BOOST_REQUIRE(p.server->close_reason());
  BOOST_TEST(!p.server->close_reason()->by_peer);
  // The client heard the same verdict.
  BOOST_REQUIRE(p.client->close_reason());
  BOOST_TEST(p.client->close_reason()->by_peer);
  BOOST_TEST(p.client->close_reason()->error.code == p.server->close_reason()->error.code);
  return {p.server->close_reason()->error.code, p.server->close_reason()->error.frame_type};
}

constexpr uint64_t code(TransportErrorCode c) { return static_cast<uint64_t>(c); }

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_peer_violations_test)

BOOST_AUTO_TEST_CASE(unknown_frame_type_is_frame_encoding_error) {
  const auto [c, type] = server_verdict(Bytes{0x40, 0xff});
  BOOST_TEST(c == code(TransportErrorCode::frame_encoding_error));
  BOOST_TEST(type == 0xffu);
}

BOOST_AUTO_TEST_CASE(truncated_frame_is_frame_encoding_error) {
  const auto [c, type] = server_verdict(Bytes{0x11, 0x00});  // MAX_STREAM_DATA without maximum
  BOOST_TEST(c == code(TransportErrorCode::frame_encoding_error));
  BOOST_TEST(type == frame_type::max_stream_data);
}

BOOST_AUTO_TEST_CASE(handshake_done_from_a_client_is_protocol_violation) {
  const auto [c, type] = server_verdict(encode({HandshakeDoneFrame{}}));
  BOOST_TEST(c == code(TransportErrorCode::protocol_violation));
  BOOST_TEST(type == frame_type::handshake_done);
}

BOOST_AUTO_TEST_CASE(stream_frame_in_an_initial_is_protocol_violation) {
  const Bytes data(4, 0);
  const auto [c, type] =
      server_verdict(encode({StreamFrame{0, 0, data, false}}), Space::initial, true);
  BOOST_TEST(c == code(TransportErrorCode::protocol_violation));
}

BOOST_AUTO_TEST_CASE(data_on_an_unopened_server_stream_is_stream_state_error) {
  const Bytes data(4, 0);
  const auto [c, type] = server_verdict(encode({StreamFrame{3, 0, data, false}}));  // server uni 0
  BOOST_TEST(c == code(TransportErrorCode::stream_state_error));
}

BOOST_AUTO_TEST_CASE(max_stream_data_for_a_receive_only_stream_is_stream_state_error) {
  // Stream 2 is the client's uni stream: receive-only for the server.
  const auto [c, type] = server_verdict(encode({MaxStreamDataFrame{2, 1000}}));
  BOOST_TEST(c == code(TransportErrorCode::stream_state_error));
  BOOST_TEST(type == frame_type::max_stream_data);
}

BOOST_AUTO_TEST_CASE(changed_final_size_is_final_size_error) {
  const Bytes data(10, 0);
  const auto [c, type] = server_verdict(
      encode({StreamFrame{4, 0, data, true}, ResetStreamFrame{4, 0, 5}}));
  BOOST_TEST(c == code(TransportErrorCode::final_size_error));
}

BOOST_AUTO_TEST_CASE(ack_of_an_unsent_packet_is_protocol_violation) {
  AckFrame ack;
  ack.ranges = {{1000, 1000}};
  const auto [c, type] = server_verdict(encode({ack}));
  BOOST_TEST(c == code(TransportErrorCode::protocol_violation));
}

BOOST_AUTO_TEST_CASE(ignoring_flow_control_is_flow_control_error) {
  Config c = Pair::client_config();
  c.initial_max_data = 1000;
  Config s = Pair::server_config();
  s.respect_peer_flow_control = false;
  Pair p(c, s);
  p.drive();
  auto id = p.server->open_stream(Dir::uni).value();
  BOOST_TEST(p.server->write(id, Bytes(3000, 1)).ok());
  p.drive();
  BOOST_REQUIRE(p.client->close_reason());
  BOOST_TEST(p.client->close_reason()->error.code == code(TransportErrorCode::flow_control_error));
  BOOST_REQUIRE(p.server->close_reason());
  BOOST_TEST(p.server->close_reason()->by_peer);
}

BOOST_AUTO_TEST_CASE(random_frames_in_valid_packets_close_cleanly_or_pass) {
  // Structure-aware fuzzing: random frames inside authenticated 1-RTT
  // packets reach every frame handler (ASan+UBSan run this too). The server
  // either ignores them or closes with a transport error; it never crashes.
  static constexpr uint8_t kTypes[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0b,
                                       0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
                                       0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x21};
  uint64_t x = 0x853c49e6748fea9bull;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  int closed = 0;
  for (int i = 0; i < 120; ++i) {
    auto injector = std::make_shared<Injector>();
    injector->frames.push_back(kTypes[next() % std::size(kTypes)]);
    const size_t len = next() % 24;
    for (size_t k = 0; k < len; ++k) {
      // Small values most of the time, so stream ids and offsets are plausible.
      const uint64_t r = next();
      injector->frames.push_back(static_cast<uint8_t>(r % 4 ? r % 16 : r >> 8));
    }
    Config c = Pair::client_config();
    c.tamper_payload = [injector](Space s, Bytes& payload) { (*injector)(s, payload); };
    Pair p(c);
    p.drive();
    injector->armed = true;
    auto id = p.client->open_stream(Dir::bidi);
    BOOST_REQUIRE(id.ok());
    BOOST_TEST(p.client->write(id.value(), Bytes(10, 1)).ok());
    p.drive();
    if (auto reason = p.server->close_reason(); reason && !reason->by_peer) {  // not an injected CONNECTION_CLOSE
      ++closed;
      const uint64_t code = reason->error.code;
      BOOST_TEST((code >= 0x03 && code <= 0x0a), "code " << code);
    }
  }
  BOOST_TEST(closed > 0);
}

BOOST_AUTO_TEST_SUITE_END()
