// `bulk`: one unidirectional stream carrying `bytes` from the server to the
// client (`direction = download`) or the other way (`upload`), paced only by
// flow control (RFC 9000 §4.1) and the path. The sender closes once the
// stream is acknowledged, or after drain_ms without progress.
#include "scenarios/closing.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

class BulkSender final : public Application {
 public:
  BulkSender(int64_t bytes, Duration drain) : bytes_(bytes), closing_(drain) {}
  void on_event(Instant, Connection&, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e)) started_ = true;
  }
  void poll(Instant now, Connection& c) override {
    if (started_ && handed_at_.is_never()) {
      auto id = c.open_stream(Dir::uni);
      if (id.ok()) {
        (void)c.write(id.value(), Bytes(static_cast<size_t>(bytes_), 'b'));
        (void)c.finish(id.value());
        handed_at_ = now;
      }
    }
    closing_.poll(now, c, handed_at_, !handed_at_.is_never(), 0);
  }
  Instant wake_at() const override { return closing_.deadline(); }
  std::string summary() const override {
    return "sender: " + (handed_at_.is_never() ? std::string("stream not opened")
                                               : std::to_string(bytes_) + " bytes written") +
           closing_.describe();
  }

 private:
  int64_t bytes_;
  Closing closing_;
  bool started_ = false;
  Instant handed_at_ = Instant::never();
};

class Bulk final : public Scenario {
 public:
  Bulk(int64_t bytes, bool download, Duration drain, size_t clients)
      : Scenario(clients), bytes_(bytes), download_(download), drain_(drain) {}
  std::unique_ptr<Application> client_app(size_t) override { return side(!download_); }
  std::unique_ptr<Application> server_app(size_t) override { return side(download_); }

 private:
  std::unique_ptr<Application> side(bool sends) const {
    if (sends) return std::make_unique<BulkSender>(bytes_, drain_);
    return std::make_unique<StreamReader>();
  }
  int64_t bytes_;
  bool download_;
  Duration drain_;
};

}  // namespace

ScenarioEntry bulk_scenario() {
  return {{"bulk",
           "one unidirectional stream carries `bytes` from the server to the client (download) or "
           "from the client to the server (upload); the sender closes (application error 0) once "
           "it is acknowledged",
           {integer_spec("bytes", 1'000'000, "bytes on the stream", 0, kMaxBulkBytes),
            {"direction", ValueType::string, Value{std::string("download")},
             "download: the server sends; upload: the client sends", {"download", "upload"}},
            integer_spec("drain_ms", 2000,
                         "the sender gives up (closes) after this long without progress, "
                         "milliseconds", 0, kMaxDurationMs),
            clients_spec()}},
          [](const ValueMap& p) -> MadeScenario {
            return {std::make_unique<Bulk>(integer_param(p, "bytes"),
                                           std::get<std::string>(p.at("direction")) != "upload",
                                           Duration::millis(integer_param(p, "drain_ms")),
                                           static_cast<size_t>(integer_param(p, "clients"))),
                    {}};
          }};
}

}  // namespace conform::quic
