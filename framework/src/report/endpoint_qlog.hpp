// What an endpoint's own qlog adds to a run's view: `<side>.sqlog` in the
// case folder, as the in-house QUIC writes it (docs/reports.md), holds what
// no capture shows: the sender's recovery state (RFC 9002 §5, §6, §7) and
// the streams its application wanted (conform:streams_wanted).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace conform::report {

/// Points kept per recovery series.
inline constexpr std::size_t kMaxRecoveryPoints = 2000;

struct EndpointQlog {
  /// "unidirectional" / "bidirectional" -> [[ms, streams wanted so far], ...].
  nlohmann::json wanted = nlohmann::json::object();
  /// congestion_window, bytes_in_flight (bytes) and pto_count -> [[ms,
  /// value], ...], each thinned to kMaxRecoveryPoints: what the recovery
  /// plot draws.
  nlohmann::json recovery = nlohmann::json::object();
};

/// Reads `path` (JSON-SEQ); only the events of its first connection (the
/// first group_id) count. Times are ms since `t0_ns` on the captures'
/// clock (the file's times are ms of that clock). nullopt when the file is
/// missing; records that are not JSON are skipped.
std::optional<EndpointQlog> read_endpoint_qlog(const std::string& path, std::int64_t t0_ns);

}  // namespace conform::report
