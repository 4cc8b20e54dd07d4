// `handshake`: the client connects, both sides exchange no stream data, and
// the client closes (application error 0) `linger_ms` after the handshake
// is confirmed (RFC 9001 §4.1.2: HANDSHAKE_DONE received).
#include "scenarios/scenario.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

class HandshakeClient final : public Application {
 public:
  explicit HandshakeClient(Duration linger) : linger_(linger) {}
  void on_event(Instant, Connection&, const Event&) override {}
  void poll(Instant now, Connection& c) override {
    if (closed_ || !c.handshake_confirmed()) return;
    if (close_at_.is_never()) {
      confirmed_at_ = now;
      close_at_ = now + linger_;
    }
    if (now < close_at_) return;
    c.close(now, 0, "handshake over");
    closed_ = true;
  }
  Instant wake_at() const override { return closed_ ? Instant::never() : close_at_; }
  std::string summary() const override {
    if (close_at_.is_never()) return "handshake not confirmed";
    return "handshake confirmed at " + std::to_string(confirmed_at_.ns / 1000) + " us" +
           (closed_ ? ", then closed" : "");
  }

 private:
  Duration linger_;
  Instant confirmed_at_, close_at_ = Instant::never();
  bool closed_ = false;
};

class Handshake final : public Scenario {
 public:
  Handshake(Duration linger, size_t clients) : Scenario(clients), linger_(linger) {}
  std::unique_ptr<Application> client_app(size_t) override {
    return std::make_unique<HandshakeClient>(linger_);
  }
  std::unique_ptr<Application> server_app(size_t) override { return std::make_unique<StreamReader>(); }

 private:
  Duration linger_;
};

}  // namespace

ScenarioEntry handshake_scenario() {
  return {{"handshake",
           "the client connects, nothing is exchanged on streams, the client closes (application "
           "error 0) linger_ms after the handshake is confirmed",
           {integer_spec("linger_ms", 0,
                         "time between handshake confirmation (HANDSHAKE_DONE) and the client's "
                         "close, milliseconds", 0, kMaxDurationMs),
            clients_spec()}},
          [](const ValueMap& p) -> MadeScenario {
            return {std::make_unique<Handshake>(Duration::millis(integer_param(p, "linger_ms")),
                                                clients_param(p)),
                    {}};
          }};
}

}  // namespace conform::quic
