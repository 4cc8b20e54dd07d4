// What max_streams_extended and max_data_extended share: a receiver's raises
// of a limit (MAX_STREAMS, MAX_DATA) judged against its peer's demand (RFC
// 9000 §4.2, §4.6): each time the peer reached the limit in force wanting
// more than it, a raise must follow.
#pragma once

#include "check/check.hpp"
#include "check/quic/support/capture_facts.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/limit_walk.hpp"

#include <string>
#include <vector>

namespace conform::quic_checks {

/// Appends a problem for each time the peer reached a limit while wanting
/// more and no raise followed, or (when `max_wait_ns` is not negative) the
/// raise came later than that, and evidence of each such moment. `what`
/// names the limit ("the server's uni streams"), `raise_frame` the frame
/// ("MAX_STREAMS"). `unseen_ns` widens the bound by what a capture not
/// at the receiver cannot see (unseen_round_trip()). Returns the longest
/// wait for a raise, ns, and counts the times the peer reached a limit
/// wanting more in `reached`.
std::int64_t judge_raises(const LimitWalk& walk, const Demand& demand, const std::string& what,
                          const std::string& raise_frame, std::int64_t max_wait_ns, std::int64_t unseen_ns,
                          const CaptureFacts& capture, std::size_t& reached, std::vector<std::string>& problems,
                          std::vector<Evidence>& evidence);

/// The `max_wait_ms` parameter.
ValueSpec max_wait_param(const std::string& raise_frame);

}  // namespace conform::quic_checks
