// What a run's scenario parameters say a side will send, so checks know the
// demand a capture cannot show (streams an endpoint never got to open, bytes
// it never got to send). Parameter names are those of the QUIC plugin's
// scenarios: uni-fanout (frames, frames_per_group, payload_bytes),
// uni-publish (streams, payload_bytes), request-response (requests,
// request_bytes, response_bytes), bulk (bytes, direction).
#pragma once

#include "check/quic/timeline_queries.hpp"

#include <conform/value.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace conform::quic_checks {

struct Expected {
  std::uint64_t value = 0;
  /// Where the value came from, for summaries: "scenario streams=200".
  std::string source;
};

/// How far a side wanted to go (streams, bytes), and why that is believed.
struct Demand {
  std::uint64_t wanted = 0;
  std::string why;  // "opened 200", "STREAMS_BLOCKED 100 at frame 7", "scenario frames=200 ..."
};

/// `seen` (what the capture shows), raised to the check's own `fixed`
/// value (when not negative, worded "parameter <param>") or else to
/// `scenario`, whichever is larger.
Demand demand(Demand seen, std::int64_t fixed, const std::string& param, const std::optional<Expected>& scenario);

/// Streams of `dir` that `from` opens on each connection: `streams` (client,
/// uni: uni-publish), `requests` (client, bidi: request-response),
/// ceil(`frames` / `frames_per_group`) (server, uni: uni-fanout; one stream
/// when frames_per_group is 0, frames_per_group 1 when absent); nothing
/// when the parameters do not say.
std::optional<Expected> expected_streams(const ValueMap& params, Side from, StreamDir dir);

/// Application bytes `from` sends on each connection, a lower bound of its
/// stream data (an application may frame them): bulk `bytes` in its
/// `direction` (download: server, upload: client, both: each), requests × request_bytes
/// or × response_bytes, frames × payload_bytes (server), streams ×
/// payload_bytes (client); nothing when the parameters do not say.
std::optional<Expected> expected_bytes(const ValueMap& params, Side from);

}  // namespace conform::quic_checks
