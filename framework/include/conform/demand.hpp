// What one run of a scenario asks its endpoints to deliver: the streams each
// side opens (by initiator and directionality, RFC 9000 §2.1) and the bytes
// it sends. A plugin computes it from the run's parameters
// (ScenarioSpec::demand), so the checks know the demand a capture cannot
// show (streams an endpoint never got to open, bytes it never got to send)
// without reading any plugin's parameter names.
#pragma once

#include <conform/value.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace conform {

/// One amount a run asks for, and the parameters it comes from, as the
/// checks quote it in summaries ("frames=200 frames_per_group=1").
struct DemandValue {
  std::uint64_t value = 0;
  std::string source;
};

/// What one side opens and sends on each of its connections; an empty
/// member: the scenario does not say.
struct SideDemand {
  /// Unidirectional streams it opens.
  std::optional<DemandValue> uni_streams;
  /// Bidirectional streams it opens (a request-response client: one per request).
  std::optional<DemandValue> bidi_streams;
  /// Application bytes it sends on its streams: a lower bound of its stream
  /// data, which an application may frame.
  std::optional<DemandValue> bytes;
};

/// What a run asks of each side. With `across_connections` the amounts are
/// each side's total over all the connections it makes in the run (one
/// program that may spread its work, as a browser opens a second
/// connection for a page's images); without, each connection is asked for
/// all of it (each simulated client does the whole scenario). Since ABI
/// version 8.
struct RunDemand {
  SideDemand client;
  SideDemand server;
  bool across_connections = false;
};

/// The integer parameter `name` of `params` as a demand ("streams=200"), a
/// negative value as 0; `params` must hold it.
inline DemandValue demand_param(const ValueMap& params, const std::string& name) {
  const auto n = std::get<std::int64_t>(params.at(name));
  return {static_cast<std::uint64_t>(n < 0 ? 0 : n), name + "=" + std::to_string(n)};
}

/// The product of two integer parameters, a count and a size, as a demand
/// ("requests=10 × response_bytes=1000").
inline DemandValue demand_product(const ValueMap& params, const std::string& count, const std::string& size) {
  const DemandValue n = demand_param(params, count), b = demand_param(params, size);
  return {n.value * b.value, n.source + " × " + b.source};
}

}  // namespace conform
