// Fuzzes the in-house QUIC connection after its handshake: a client and a
// server complete a handshake in memory, then the input is a script of
// records, each either frames the client sends in a real 1-RTT packet (its
// keys, its packet numbers: the server must parse and judge them), a raw
// datagram to the server or to the client, or a jump of the clock. Any
// outcome but a crash is fine; a connection that closed must say why
// (RFC 9000 §10.2: an error code in CONNECTION_CLOSE, never a crash).
#include <cstdint>
#include <memory>
#include <vector>

#include "connection/connection.hpp"

namespace {

using namespace conform::quic;

enum Record : uint8_t { protected_frames = 0, raw_to_server = 1, raw_to_client = 2, advance = 3 };

struct Pair {
  std::unique_ptr<Connection> client, server;
  Instant now = Instant::from_nanos(1'000'000'000);
  const Bytes* tamper = nullptr;  ///< the next client 1-RTT payload, when set

  bool start() {
    static const auto cert = TestCertificate::generate("localhost", 1);
    Config c;
    c.tamper_payload = [this](Space s, Bytes& payload) {
      if (s == Space::application && tamper) payload = *std::exchange(tamper, nullptr);
    };
    Config s;
    s.is_server = true;
    s.certificate = cert;
    s.initial_max_streams_bidi = 4;  // small limits: the fuzzer reaches them
    s.initial_max_data = 4096;
    s.initial_max_stream_data_bidi_remote = 1024;
    auto cc = Connection::connect(c, now);
    auto sc = Connection::accept(s, now);
    if (!cc || !sc) return false;
    client = std::move(cc.value());
    server = std::move(sc.value());
    exchange(50);
    return client->handshake_confirmed() && server->handshake_complete();
  }

  void exchange(int rounds) {
    for (int i = 0; i < rounds; ++i) {
      bool any = false;
      now = now + Duration::millis(1);
      for (int n = 0; n < 64; ++n) {
        auto d = client->poll_transmit(now);
        if (!d) break;
        server->handle_datagram(now, *d);
        any = true;
      }
      for (int n = 0; n < 64; ++n) {
        auto d = server->poll_transmit(now);
        if (!d) break;
        client->handle_datagram(now, *d);
        any = true;
      }
      while (client->poll_event()) {}
      while (server->poll_event()) {}
      if (!any) return;
    }
  }

  void advance_clock(Duration d) {
    now = now + d;
    if (client->next_timeout() <= now) client->handle_timeout(now);
    if (server->next_timeout() <= now) server->handle_timeout(now);
  }

  // Makes the client send one 1-RTT packet whose frames are `payload`.
  void send_protected(const Bytes& payload) {
    if (client->state() != ConnectionState::established) return;
    auto id = client->open_stream(Dir::uni);
    if (!id) return;  // at the limit: nothing to carry the payload
    tamper = &payload;
    (void)client->write(id.value(), Bytes{0x2a});
    if (auto d = client->poll_transmit(now)) server->handle_datagram(now, *d);
    tamper = nullptr;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Pair p;
  if (!p.start()) __builtin_trap();  // the handshake itself must work
  size_t at = 0;
  while (at + 3 <= size) {
    const uint8_t kind = data[at] % 4;
    const size_t len = std::min<size_t>((size_t{data[at + 1]} << 8 | data[at + 2]), size - at - 3);
    const Bytes record(data + at + 3, data + at + 3 + len);
    at += 3 + len;
    switch (kind) {
      case protected_frames: p.send_protected(record); break;
      case raw_to_server: p.server->handle_datagram(p.now, record); break;
      case raw_to_client: p.client->handle_datagram(p.now, record); break;
      case advance: p.advance_clock(Duration::millis(len * 10 + 1)); break;
    }
    p.exchange(5);
  }
  for (Connection* c : {p.client.get(), p.server.get()})
    if (c->state() != ConnectionState::established && c->state() != ConnectionState::handshaking &&
        !c->close_reason())
      __builtin_trap();  // closed without a reason
  return 0;
}
