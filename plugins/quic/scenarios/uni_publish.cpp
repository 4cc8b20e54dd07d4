// `uni-publish`: the speaker's side of the investigation. The client opens
// `streams` unidirectional streams to the server, one every cadence_ms,
// each carrying payload_bytes and finished; at the server's MAX_STREAMS
// limit it waits (or gives up, with open_stream_when_blocked = fail) and
// says so with STREAMS_BLOCKED (RFC 9000 §4.6, §19.14). The client closes
// once all is acknowledged or after drain_ms without progress.
#include "scenarios/closing.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_broadcast.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

class Publisher final : public Application {
 public:
  Publisher(const BroadcastPlan& plan, Duration drain) : streams_(plan), closing_(drain) {}
  void on_event(Instant now, Connection&, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e)) streams_.start(now);
  }
  void poll(Instant now, Connection& c) override {
    streams_.poll(now, c);
    closing_.poll(now, c, streams_.last_due(), streams_.handed_over(), streams_.progress());
  }
  Instant wake_at() const override { return std::min(streams_.next_due(), closing_.deadline()); }
  std::string summary() const override {
    return "publisher: " + streams_.summary() +
           closing_.describe();
  }

 private:
  StreamBroadcast streams_;
  Closing closing_;
};

class UniPublish final : public Scenario {
 public:
  UniPublish(const BroadcastPlan& plan, Duration drain, size_t clients)
      : Scenario(clients), plan_(plan), drain_(drain) {}
  std::unique_ptr<Application> client_app(size_t) override {
    return std::make_unique<Publisher>(plan_, drain_);
  }
  std::unique_ptr<Application> server_app(size_t) override { return std::make_unique<StreamReader>(); }

 private:
  BroadcastPlan plan_;
  Duration drain_;
};

MadeScenario make_uni_publish(const ValueMap& p) {
  BroadcastPlan plan;
  plan.frames = integer_param(p, "streams");
  plan.frames_per_group = 1;
  plan.cadence = Duration::millis(integer_param(p, "cadence_ms"));
  plan.payload_bytes = integer_param(p, "payload_bytes");
  plan.dir = Dir::uni;
  return {std::make_unique<UniPublish>(plan, drain_param(p), clients_param(p)),
          {}};
}

RunDemand uni_publish_demand(const ValueMap& p) {
  RunDemand d;
  d.client.uni_streams = demand_param(p, "streams");
  d.client.bytes = demand_product(p, "streams", "payload_bytes");
  return d;
}

}  // namespace

ScenarioEntry uni_publish_scenario() {
  return {{"uni-publish",
           "the client opens `streams` unidirectional streams to the server, one per cadence_ms, "
           "each with payload_bytes and finished, waiting at the server's stream limit; it closes "
           "(application error 0) once all is acknowledged or after drain_ms without progress",
           {count_spec("streams", 200, "unidirectional streams the client opens"),
            cadence_spec("stream opens"),
            integer_spec("payload_bytes", 80, "bytes per stream", 0, kMaxPayloadBytes),
            drain_spec("client", "once the last stream was due"),
            clients_spec()},
           uni_publish_demand},
          make_uni_publish};
}

}  // namespace conform::quic
