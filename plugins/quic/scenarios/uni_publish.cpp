// `uni-publish`: the speaker's side of the investigation. The client opens
// `streams` unidirectional streams to the server, one every cadence_ms,
// each carrying payload_bytes and finished; at the server's MAX_STREAMS
// limit it waits (or gives up, with open_stream_when_blocked = fail) and
// says so with STREAMS_BLOCKED (RFC 9000 §4.6, §19.14). With download_bytes
// the server meanwhile sends one unidirectional stream of that many bytes,
// which keeps its congestion window full while the client's streams end at
// it (RFC 9002 §7): the MAX_STREAMS they make due then compete with it. The
// client closes once all is acknowledged and read, or after drain_ms
// without progress.
#include "scenarios/closing.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_broadcast.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

class Publisher final : public Application {
 public:
  Publisher(const BroadcastPlan& plan, Duration drain) : streams_(plan), closing_(drain) {}
  void on_event(Instant now, Connection& c, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e)) streams_.start(now);
    download_.on_event(now, c, e);
  }
  void poll(Instant now, Connection& c) override {
    download_.poll(now, c);
    streams_.poll(now, c);
    closing_.poll(now, c, streams_.last_due(), streams_.handed_over(), streams_.progress());
  }
  Instant wake_at() const override {
    return std::min({streams_.next_due(), closing_.deadline(), download_.wake_at()});
  }
  std::string summary() const override {
    return "publisher: " + streams_.summary() + closing_.describe();
  }

 private:
  StreamBroadcast streams_;
  Closing closing_;
  StreamReader download_;  ///< the server's download_bytes stream, if any
};

/// The server: reads the client's streams and, with download_bytes, sends
/// its own stream of that many bytes once the handshake completes.
class Subscriber final : public Application {
 public:
  explicit Subscriber(int64_t download_bytes) : download_bytes_(download_bytes) {}
  void on_event(Instant now, Connection& c, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e)) started_ = true;
    reader_.on_event(now, c, e);
  }
  void poll(Instant now, Connection& c) override {
    reader_.poll(now, c);
    if (!started_ || download_bytes_ == 0 || sent_) return;
    if (auto id = c.open_stream(Dir::uni); id.ok()) {
      (void)c.write(id.value(), Bytes(static_cast<size_t>(download_bytes_), 'd'));
      (void)c.finish(id.value());
      sent_ = true;
    }
  }
  Instant wake_at() const override { return reader_.wake_at(); }
  std::string summary() const override {
    return reader_.summary() + (sent_ ? "; download of " + std::to_string(download_bytes_) + " bytes written" : "");
  }

 private:
  int64_t download_bytes_;
  StreamReader reader_;
  bool started_ = false, sent_ = false;
};

class UniPublish final : public Scenario {
 public:
  UniPublish(const BroadcastPlan& plan, int64_t download_bytes, Duration drain, size_t clients)
      : Scenario(clients), plan_(plan), download_bytes_(download_bytes), drain_(drain) {}
  std::unique_ptr<Application> client_app(size_t) override {
    return std::make_unique<Publisher>(plan_, drain_);
  }
  std::unique_ptr<Application> server_app(size_t) override { return std::make_unique<Subscriber>(download_bytes_); }

 private:
  BroadcastPlan plan_;
  int64_t download_bytes_;
  Duration drain_;
};

MadeScenario make_uni_publish(const ValueMap& p) {
  BroadcastPlan plan;
  plan.frames = integer_param(p, "streams");
  plan.frames_per_group = 1;
  plan.cadence = Duration::millis(integer_param(p, "cadence_ms"));
  plan.payload_bytes = integer_param(p, "payload_bytes");
  plan.dir = Dir::uni;
  return {std::make_unique<UniPublish>(plan, integer_param(p, "download_bytes"), drain_param(p), clients_param(p)),
          {}};
}

RunDemand uni_publish_demand(const ValueMap& p) {
  RunDemand d;
  d.client.uni_streams = demand_param(p, "streams");
  d.client.bytes = demand_product(p, "streams", "payload_bytes");
  if (integer_param(p, "download_bytes") > 0) d.server.bytes = demand_param(p, "download_bytes");
  return d;
}

}  // namespace

ScenarioEntry uni_publish_scenario() {
  return {{"uni-publish",
           "the client opens `streams` unidirectional streams to the server, one per cadence_ms, "
           "each with payload_bytes and finished, waiting at the server's stream limit, while the server "
           "sends download_bytes on a stream of its own; the client closes (application error 0) once all "
           "is acknowledged and read or after drain_ms without progress",
           {count_spec("streams", 200, "unidirectional streams the client opens"),
            cadence_spec("stream opens"),
            integer_spec("payload_bytes", 80, "bytes per stream", 0, kMaxPayloadBytes),
            integer_spec("download_bytes", 0,
                         "bytes the server sends meanwhile on one unidirectional stream of its own (its congestion "
                         "window full while the client's streams end); 0: none",
                         0, kMaxBulkBytes),
            drain_spec("client", "once the last stream was due"),
            clients_spec()},
           uni_publish_demand},
          make_uni_publish};
}

}  // namespace conform::quic
