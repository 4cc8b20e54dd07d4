// `bulk`: one unidirectional stream carrying `bytes` from the server to the
// client (`direction = download`), the other way (`upload`), or one each way
// at once (`both`), paced only by flow control (RFC 9000 §4.1) and the path:
// with `both`, each side's congestion window is busy with its own data while
// its peer waits for the credit it returns (RFC 9002 §7). A sender closes
// once its stream is acknowledged and all it receives is read, or after
// drain_ms without progress.
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

/// Sends one bulk stream and reads the peer's (`direction = both`).
class BulkBothWays final : public Application {
 public:
  BulkBothWays(int64_t bytes, Duration drain) : sender_(bytes, drain) {}
  void on_event(Instant now, Connection& c, const Event& e) override {
    reader_.on_event(now, c, e);
    sender_.on_event(now, c, e);
  }
  void poll(Instant now, Connection& c) override {
    reader_.poll(now, c);
    sender_.poll(now, c);
  }
  Instant wake_at() const override { return std::min(reader_.wake_at(), sender_.wake_at()); }
  std::string summary() const override { return reader_.summary() + "; " + sender_.summary(); }

 private:
  StreamReader reader_;
  BulkSender sender_;
};

class Bulk final : public Scenario {
 public:
  Bulk(int64_t bytes, std::string direction, Duration drain, size_t clients)
      : Scenario(clients), bytes_(bytes), direction_(std::move(direction)), drain_(drain) {}
  std::unique_ptr<Application> client_app(size_t) override { return side(direction_ != "download"); }
  std::unique_ptr<Application> server_app(size_t) override { return side(direction_ != "upload"); }

 private:
  std::unique_ptr<Application> side(bool sends) const {
    if (sends && direction_ == "both") return std::make_unique<BulkBothWays>(bytes_, drain_);
    if (sends) return std::make_unique<BulkSender>(bytes_, drain_);
    return std::make_unique<StreamReader>();
  }
  int64_t bytes_;
  std::string direction_;
  Duration drain_;
};

RunDemand bulk_demand(const ValueMap& p) {
  const std::string direction = std::get<std::string>(p.at("direction"));
  DemandValue bytes = demand_param(p, "bytes");
  bytes.source += " direction=" + direction;
  RunDemand d;
  if (direction != "upload") d.server.bytes = bytes;
  if (direction != "download") d.client.bytes = bytes;
  return d;
}

}  // namespace

ScenarioEntry bulk_scenario() {
  return {{"bulk",
           "one unidirectional stream carries `bytes` from the server to the client (download), "
           "from the client to the server (upload), or one each way (both); a sender closes "
           "(application error 0) once its stream is acknowledged and what it receives is read",
           {integer_spec("bytes", 1'000'000, "bytes on the stream", 0, kMaxBulkBytes),
            {"direction", ValueType::string, Value{std::string("download")},
             "download: the server sends; upload: the client sends; both: each sends `bytes`",
             {"download", "upload", "both"}},
            drain_spec("sender"),
            clients_spec()},
           bulk_demand},
          [](const ValueMap& p) -> MadeScenario {
            return {std::make_unique<Bulk>(integer_param(p, "bytes"),
                                           std::get<std::string>(p.at("direction")),
                                           drain_param(p), clients_param(p)),
                    {}};
          }};
}

}  // namespace conform::quic
