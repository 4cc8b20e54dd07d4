// How far a side wanted to go (streams, bytes): what the capture shows,
// raised to what the check's own parameter or the run's scenario asks for.
// The scenario's demand is the plugin's declaration (CaseSettings::demand,
// conform/demand.hpp); offline there is none, and the checks judge from the
// captures alone.
#pragma once

#include "check/quic/support/quic_check.hpp"
#include "check/quic/support/timeline_queries.hpp"

#include <conform/run_context.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace conform::quic_checks {

struct Expected {
  std::uint64_t value = 0;
  /// Where the value came from, for summaries: "scenario streams=200".
  std::string source;
  /// Whether all of it is wanted from the start: a simulated client's
  /// demand on each of its connections (it opens all its streams at once).
  /// Not a program's total over its connections (RunDemand::
  /// across_connections): a browser's requests come as its page parses.
  bool at_once = true;
};

/// How far a side wanted to go (streams, bytes), and why that is believed.
struct Demand {
  std::uint64_t wanted = 0;
  std::string why;  // "opened 200", "STREAMS_BLOCKED 100 at frame 7", "scenario frames=200 ..."
  /// Wanted from the start, so at every limit short of it (Expected::
  /// at_once, or the check's own parameter); else only in total, as a
  /// capture shows it: not when.
  bool at_once = false;
};

/// `seen` (what the capture shows), raised to the check's own `fixed`
/// value (when not negative, worded "parameter <param>") or else to
/// `scenario`, whichever is larger; wanted at once when `fixed` or an
/// at-once `scenario` says so, whichever is larger.
Demand demand(Demand seen, std::int64_t fixed, const std::string& param, const std::optional<Expected>& scenario);

/// Streams of `dir` that `from` opens on connection `j`, as the run's
/// scenario declares; nothing when it does not say or there is no scenario.
/// Where the scenario gives `from`'s total over its connections
/// (RunDemand::across_connections), the streams it opened on the
/// connections beside `j` are taken off: "scenario requests=100, less 67
/// on 1 other connection"; that is for the connection `from` opened last,
/// and nothing for each earlier one, whose demand only its capture shows.
std::optional<Expected> expected_streams(const CaseSettings& settings, Side from, StreamDir dir, const Judged& j);

/// Application bytes `from` sends on connection `j` (a lower bound of its
/// stream data), as the run's scenario declares, less what it sent beside
/// `j` as for expected_streams(); nothing when it does not say or there is
/// no scenario.
std::optional<Expected> expected_bytes(const CaseSettings& settings, Side from, const Judged& j);

}  // namespace conform::quic_checks
