// What max_streams_extended and max_data_extended share: a receiver's raises
// of a limit (MAX_STREAMS, MAX_DATA) judged against its peer's demand (RFC
// 9000 §4.2, §4.6): each time the peer reached the limit in force wanting
// more than it, a raise must follow, and reach the peer: a raise whose
// packet was lost is sent again (RFC 9000 §13.3, no keyword), and until
// one arrives the peer still waits.
#pragma once

#include "check/check.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/limit_walk.hpp"
#include "check/quic/support/quic_check.hpp"

#include <string>
#include <vector>

namespace conform::quic_checks {

/// What judge_raises() measured.
struct RaiseWaits {
  /// Times the peer reached a limit wanting more.
  std::size_t reached = 0;
  /// The longest wait from reaching a limit to a raise that reached the peer.
  std::int64_t longest_ns = 0;
  /// Raises the peer's ACKs show lost, how many of them a raise as high
  /// that reached the peer followed, and the longest time to it.
  std::size_t lost = 0, made_good = 0;
  std::int64_t longest_again_ns = 0;
  /// "; 2 MAX_STREAMS lost, each followed by one as high that reached the
  /// peer within 187.000 ms", or "".
  std::string lost_text(const std::string& raise_frame) const;
};

/// Of `by`'s `raises`, those that reached its peer: all but the ones whose
/// datagram the peer's ACKs show lost (shown_not_received()). The limit in
/// force for the peer is theirs (walk_limit()).
std::vector<LimitSeen> arrived_raises(const std::vector<LimitSeen>& raises, const Judged& j, Side by);

/// Appends a problem for each time the peer reached a limit while wanting
/// more and no raise that reached it followed, or (when `max_wait_ns` is
/// not negative) one came later than that, and evidence of each such
/// moment and of each lost raise. `walk` follows the raises that arrived
/// (arrived_raises(), given as `arrived`); `raises` are all `by` sent, in
/// capture order. A limit the peer went past had a raise reach it: the
/// first lost one above it counts as arrived (its ACK may have been lost
/// and left out of later ACK frames, RFC 9000 §13.2.3).
/// `what` names the limit ("the server's uni streams"), `raise_frame` the
/// frame ("MAX_STREAMS"). From a capture not at `by` the bound grows by
/// unseen_round_trip().
RaiseWaits judge_raises(const LimitWalk& walk, const std::vector<LimitSeen>& raises,
                        const std::vector<LimitSeen>& arrived, const Demand& demand,
                        const std::string& what, const std::string& raise_frame, std::int64_t max_wait_ns,
                        const Judged& j, Side by, std::vector<std::string>& problems, std::vector<Evidence>& evidence);

/// The `max_wait_ms` parameter.
ValueSpec max_wait_param(const std::string& raise_frame);

}  // namespace conform::quic_checks
