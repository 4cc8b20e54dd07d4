// The QUIC plugin's scenarios: each declares its parameters to the framework
// and, for one case, makes the application of every connection (clients
// and the server's side of each). One scenario per file; the list lives in
// scenarios.cpp.
#pragma once

#include <conform/plugin.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "scenarios/application.hpp"

namespace conform::quic {

/// One case's workload, made from its parameters.
class Scenario {
 public:
  explicit Scenario(size_t clients) : clients_(clients) {}
  virtual ~Scenario() = default;
  /// How many clients connect (subscribers of a fan-out); at least 1.
  size_t clients() const { return clients_; }
  /// The application of client `index` (from 0).
  virtual std::unique_ptr<Application> client_app(size_t index) = 0;
  /// The server's application for the connection of client `index`.
  virtual std::unique_ptr<Application> server_app(size_t index) = 0;

 private:
  size_t clients_;
};

/// Result of making a scenario: the scenario, or why the parameters are
/// unusable (one line naming the parameter).
struct MadeScenario {
  std::unique_ptr<Scenario> scenario;
  std::string problem;
};

struct ScenarioEntry {
  ScenarioSpec spec;
  /// `params` holds every parameter of `spec`, defaults filled in.
  std::function<MadeScenario(const ValueMap& params)> make;
};

/// Every scenario of the plugin.
const std::vector<ScenarioEntry>& scenario_table();

/// Makes scenario `name` from a case's params (missing ones take their
/// defaults); a problem if the name is unknown, a value of the wrong type
/// or outside its spec's bounds (the suite loader refuses those first; a
/// caller that bypasses it, such as a benchmark, is held to them here).
MadeScenario make_scenario(const std::string& name, const ValueMap& params);

/// An integer parameter (make_scenario checked the type).
inline int64_t integer_param(const ValueMap& params, const std::string& name) {
  return std::get<int64_t>(params.at(name));
}

/// An integer ValueSpec with its default and its bounds (inclusive): the
/// suite loader refuses a value outside them at its line and column, so a
/// typo such as payload_bytes = 1000000000 never reaches a run that would
/// allocate it.
inline ValueSpec integer_spec(std::string name, int64_t fallback, std::string doc, int64_t min, int64_t max) {
  return {std::move(name), ValueType::integer, Value{fallback}, std::move(doc), {}, min, max};
}

/// Bounds the scenarios share. Sizes stay far below what a run can hold in
/// memory (a payload is built per stream); counts and times below what a
/// simulated case finishes in its time budget.
inline constexpr int64_t kMaxPayloadBytes = 1 << 20;       ///< 1 MiB per stream, frame or message
inline constexpr int64_t kMaxMessageBytes = 1 << 24;       ///< 16 MiB per request or response
inline constexpr int64_t kMaxBulkBytes = 1 << 26;          ///< 64 MiB: bulk writes the whole stream at once
inline constexpr int64_t kMaxCount = 100'000;               ///< streams, frames, requests
inline constexpr int64_t kMaxDurationMs = 600'000;          ///< 10 minutes of simulated time

/// A count of streams, frames or requests: at least 1, at most kMaxCount.
inline ValueSpec count_spec(std::string name, int64_t fallback, std::string doc) {
  return integer_spec(std::move(name), fallback, std::move(doc), 1, kMaxCount);
}

/// The `cadence_ms` parameter: the time `between` ("frames", "stream opens").
inline ValueSpec cadence_spec(const std::string& between) {
  return integer_spec("cadence_ms", 20, "time between " + between + ", milliseconds; 0: all at once", 0,
                      kMaxDurationMs);
}

/// The `clients` parameter of the scenarios whose clients each play the
/// same workload on a connection of their own.
inline ValueSpec clients_spec() {
  return integer_spec("clients", 1, "clients, each playing the scenario on a connection of its own", 1, 1000);
}

/// clients_spec's value.
inline size_t clients_param(const ValueMap& params) { return static_cast<size_t>(integer_param(params, "clients")); }

/// The `drain_ms` parameter: how long `who` (the side that closes) waits
/// without progress before it gives up and closes; `once`, when not empty,
/// says from when the wait counts ("once all requests were sent").
inline ValueSpec drain_spec(const std::string& who, const std::string& once = "") {
  return integer_spec("drain_ms", 2000,
                      "the " + who + " gives up (closes) after this long without progress" +
                          (once.empty() ? "" : " " + once) + ", milliseconds",
                      0, kMaxDurationMs);
}

/// drain_spec's value.
inline Duration drain_param(const ValueMap& params) { return Duration::millis(integer_param(params, "drain_ms")); }


// The scenarios, one per file.
ScenarioEntry handshake_scenario();
ScenarioEntry uni_fanout_scenario();
ScenarioEntry uni_publish_scenario();
ScenarioEntry request_response_scenario();
ScenarioEntry bulk_scenario();

}  // namespace conform::quic
