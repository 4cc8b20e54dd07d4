// `request-response`: the client sends `requests` requests, each on a new
// bidirectional stream (RFC 9000 §2.1) with request_bytes and FIN, at most
// `concurrency` outstanding; the server answers each, once read to its end,
// with response_bytes and FIN on the same stream (an answer the server
// reset ends its request too: a refused one). The client closes once
// every answer is read and acknowledged, or after drain_ms without progress.
#include "scenarios/closing.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/stream_reader.hpp"

namespace conform::quic {
namespace {

struct Exchange {
  int64_t requests = 10, request_bytes = 100, response_bytes = 1000, concurrency = 1;
};

class Requester final : public Application {
 public:
  Requester(const Exchange& x, Duration drain) : x_(x), closing_(drain) {}
  void on_event(Instant now, Connection& c, const Event& e) override {
    if (std::holds_alternative<HandshakeCompleted>(e)) started_ = true;
    reader_.on_event(now, c, e);
  }
  void poll(Instant now, Connection& c) override {
    reader_.poll(now, c);
    const auto answered = reader_.take_finished();
    const auto refused = reader_.take_reset();  // the server reset its answer
    answered_ += answered.size();
    reset_ += refused.size();
    outstanding_ -= static_cast<int64_t>(answered.size() + refused.size());
    while (started_ && outstanding_ < x_.concurrency && issued_ < x_.requests && send(c)) {
      if (issued_ == x_.requests) last_issued_ = now;
    }
    const bool done = issued_ == x_.requests && outstanding_ == 0;
    closing_.poll(now, c, last_issued_, done, answered_ + issued_);
  }
  Instant wake_at() const override { return std::min(reader_.wake_at(), closing_.deadline()); }
  std::string summary() const override {
    return "requester: issued " + std::to_string(issued_) + "/" + std::to_string(x_.requests) +
           ", answered " + std::to_string(answered_) + ", answer reset " + std::to_string(reset_) +
           ", refused at the stream limit " + std::to_string(refused_) +
           closing_.describe();
  }

 private:
  /// Opens the next request's stream; false when it must wait.
  bool send(Connection& c) {
    auto id = c.open_stream(Dir::bidi);
    if (!id.ok()) {
      if (id.error() != StreamError::limit_reached) return false;
      ++refused_;  // open_stream_when_blocked = fail: this request is lost
      ++issued_;
      return true;
    }
    const Bytes request(static_cast<size_t>(x_.request_bytes), 'q');
    (void)c.write(id.value(), request);
    (void)c.finish(id.value());
    ++issued_;
    ++outstanding_;
    return true;
  }

  Exchange x_;
  StreamReader reader_;
  Closing closing_;
  bool started_ = false;
  int64_t issued_ = 0, outstanding_ = 0;
  uint64_t answered_ = 0, reset_ = 0, refused_ = 0;
  Instant last_issued_ = Instant::never();
};

class Responder final : public Application {
 public:
  explicit Responder(int64_t response_bytes) : response_(static_cast<size_t>(response_bytes), 'r') {}
  void on_event(Instant now, Connection& c, const Event& e) override { reader_.on_event(now, c, e); }
  void poll(Instant now, Connection& c) override {
    reader_.poll(now, c);
    for (StreamId id : reader_.take_finished()) {
      if (dir_of(id) != Dir::bidi) continue;
      if (c.write(id, response_).ok() && c.finish(id).ok()) ++answered_;
    }
  }
  Instant wake_at() const override { return reader_.wake_at(); }
  std::string summary() const override {
    return "responder: " + reader_.summary() + ", answered " + std::to_string(answered_);
  }

 private:
  StreamReader reader_;
  Bytes response_;
  uint64_t answered_ = 0;
};

class RequestResponse final : public Scenario {
 public:
  RequestResponse(const Exchange& x, Duration drain, size_t clients)
      : Scenario(clients), x_(x), drain_(drain) {}
  std::unique_ptr<Application> client_app(size_t) override {
    return std::make_unique<Requester>(x_, drain_);
  }
  std::unique_ptr<Application> server_app(size_t) override {
    return std::make_unique<Responder>(x_.response_bytes);
  }

 private:
  Exchange x_;
  Duration drain_;
};

MadeScenario make_request_response(const ValueMap& p) {
  Exchange x{integer_param(p, "requests"), integer_param(p, "request_bytes"),
             integer_param(p, "response_bytes"), integer_param(p, "concurrency")};
  return {std::make_unique<RequestResponse>(x, drain_param(p), clients_param(p)),
          {}};
}

// One bidirectional stream per request.
RunDemand request_response_demand(const ValueMap& p) {
  RunDemand d;
  d.client.bidi_streams = demand_param(p, "requests");
  d.client.bytes = demand_product(p, "requests", "request_bytes");
  d.server.bytes = demand_product(p, "requests", "response_bytes");
  return d;
}

}  // namespace

ScenarioEntry request_response_scenario() {
  return {{"request-response",
           "the client sends `requests` requests on new bidirectional streams, at most "
           "`concurrency` outstanding; the server answers each on its stream; the client closes "
           "(application error 0) once all are answered and acknowledged",
           {count_spec("requests", 10, "requests the client sends"),
            integer_spec("request_bytes", 100, "bytes per request", 0, kMaxMessageBytes),
            integer_spec("response_bytes", 1000, "bytes per answer", 0, kMaxMessageBytes),
            count_spec("concurrency", 1, "requests outstanding at most"),
            drain_spec("client", "once all requests were sent"),
            clients_spec()},
           request_response_demand},
          make_request_response};
}

}  // namespace conform::quic
