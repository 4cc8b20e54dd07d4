// `uni-fanout`: the workload of the stream-cliff investigation
// (shared/background/quic-stream-cliff-investigation.md). The server is a
// relay forwarding one broadcast to `subscribers` clients, each group of
// frames on a new server-initiated unidirectional stream, so a subscriber
// that never raises MAX_STREAMS (RFC 9000 §4.6) silently stops receiving
// at its initial limit. The broadcast starts when every subscriber's
// handshake has completed at the server; the last subscriber may read
// slowly; the relay may drop groups for a subscriber whose stream credit
// is exhausted; the relay may abandon groups (RESET_STREAM) and the
// subscribers may refuse streams (STOP_SENDING), whose credit must come
// back as well as that of finished ones.
#include "scenarios/closing.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_broadcast.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

/// When the broadcast starts: once all subscribers are connected.
struct BroadcastStart {
  size_t subscribers = 1;
  size_t connected = 0;
  Instant at = Instant::never();
};

/// The relay's side of one subscriber's connection.
class Relay final : public Application {
 public:
  Relay(const BroadcastPlan& plan, Duration drain, std::shared_ptr<BroadcastStart> start)
      : broadcast_(plan), closing_(drain), start_(std::move(start)) {}
  void on_event(Instant now, Connection&, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e) && ++start_->connected == start_->subscribers)
      start_->at = now;
  }
  void poll(Instant now, Connection& c) override {
    if (!broadcast_.started() && !start_->at.is_never()) broadcast_.start(start_->at);
    broadcast_.poll(now, c);
    closing_.poll(now, c, broadcast_.last_due(), broadcast_.handed_over(), broadcast_.progress());
  }
  Instant wake_at() const override {
    if (!broadcast_.started()) return start_->at;
    return std::min(broadcast_.next_due(), closing_.deadline());
  }
  std::string summary() const override {
    return "relay: " + broadcast_.summary() +
           closing_.describe();
  }

 private:
  StreamBroadcast broadcast_;
  Closing closing_;
  std::shared_ptr<BroadcastStart> start_;
};

class UniFanout final : public Scenario {
 public:
  UniFanout(const BroadcastPlan& plan, size_t subscribers, int64_t slow_rate, int64_t stop_every, Duration drain)
      : Scenario(subscribers), plan_(plan), subscribers_(subscribers), slow_rate_(slow_rate), stop_every_(stop_every),
        drain_(drain), start_(std::make_shared<BroadcastStart>()) {
    start_->subscribers = subscribers;
  }
  std::unique_ptr<Application> client_app(size_t index) override {
    return std::make_unique<StreamReader>(index + 1 == subscribers_ ? slow_rate_ : 0, stop_every_);
  }
  std::unique_ptr<Application> server_app(size_t) override {
    return std::make_unique<Relay>(plan_, drain_, start_);
  }

 private:
  BroadcastPlan plan_;
  size_t subscribers_;
  int64_t slow_rate_;
  int64_t stop_every_;
  Duration drain_;
  std::shared_ptr<BroadcastStart> start_;
};

MadeScenario make_uni_fanout(const ValueMap& p) {
  BroadcastPlan plan;
  plan.frames = integer_param(p, "frames");
  plan.frames_per_group = integer_param(p, "frames_per_group");
  plan.cadence = Duration::millis(integer_param(p, "cadence_ms"));
  plan.payload_bytes = integer_param(p, "payload_bytes");
  plan.pause_at_frame = integer_param(p, "pause_at_frame");
  plan.pause = Duration::millis(integer_param(p, "pause_ms"));
  plan.queue_limit_groups = integer_param(p, "queue_limit_groups");
  plan.reset_every = integer_param(p, "reset_every");
  plan.dir = Dir::uni;
  return {std::make_unique<UniFanout>(plan, static_cast<size_t>(integer_param(p, "subscribers")),
                                      integer_param(p, "slow_subscriber_read_bytes_per_s"),
                                      integer_param(p, "stop_every"),
                                      drain_param(p)),
          {}};
}

// One server stream per group of frames; one stream in all for 0 frames per group.
RunDemand uni_fanout_demand(const ValueMap& p) {
  const int64_t frames = integer_param(p, "frames"), per_group = integer_param(p, "frames_per_group");
  RunDemand d;
  d.server.uni_streams = DemandValue{per_group == 0 ? 1 : static_cast<uint64_t>((frames + per_group - 1) / per_group),
                                     "frames=" + std::to_string(frames) + " frames_per_group=" + std::to_string(per_group)};
  d.server.bytes = demand_product(p, "frames", "payload_bytes");
  return d;
}

}  // namespace

ScenarioEntry uni_fanout_scenario() {
  return {{"uni-fanout",
           "a relay (the server) forwards a broadcast to `subscribers` clients, one new "
           "server-initiated unidirectional stream per group of frames, finished after its group; "
           "the server closes (application error 0) once all is acknowledged or after drain_ms "
           "without progress",
           {integer_spec("subscribers", 1, "clients receiving the broadcast", 1, 1000),
            count_spec("frames", 200, "frames in the broadcast"),
            integer_spec("frames_per_group", 1,
                         "frames per group, each group on a new stream; 0: every frame on one stream", 0, kMaxCount),
            cadence_spec("frames"),
            integer_spec("payload_bytes", 80, "bytes per frame", 0, kMaxPayloadBytes),
            integer_spec("pause_at_frame", -1,
                         "frames from this index (from 0) on come pause_ms later; -1: no pause", -1, kMaxCount),
            integer_spec("pause_ms", 0, "length of the pause, milliseconds", 0, kMaxDurationMs),
            integer_spec("slow_subscriber_read_bytes_per_s", 0,
                         "the last subscriber's application reads at most this many bytes per "
                         "second; 0: reads at once", 0, int64_t{1} << 40),
            integer_spec("queue_limit_groups", 0,
                         "per subscriber, groups waiting for stream credit beyond this many are "
                         "dropped, oldest first; 0: no limit", 0, kMaxCount),
            integer_spec("reset_every", 0,
                         "the relay resets every this many groups' streams (RESET_STREAM once the group "
                         "is written) instead of finishing them; 0: none", 0, kMaxCount),
            integer_spec("stop_every", 0,
                         "each subscriber asks the relay to stop sending (STOP_SENDING) every this many "
                         "streams as they open; 0: none", 0, kMaxCount),
            drain_spec("relay", "once the last frame was due")},
           uni_fanout_demand},
          make_uni_fanout};
}

}  // namespace conform::quic
