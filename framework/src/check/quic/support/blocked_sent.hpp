// What streams_blocked_sent, data_blocked_sent and stream_data_blocked_sent
// share: an endpoint that wants to go past a limit its peer set, and waits
// for a raise, reports the limit in a *_BLOCKED frame while it waits (RFC
// 9000 §4.1, §4.6: SHOULD). Judged at the sender's own capture.
#pragma once

#include "check/check.hpp"
#include "check/quic/support/demand.hpp"
#include "check/quic/support/limit_walk.hpp"
#include "check/quic/support/quic_check.hpp"

#include <string>
#include <vector>

namespace conform::quic_checks {

/// One limit followed at the sender: its walk, the demand beyond it, and the
/// *_BLOCKED frames the sender sent about it.
struct BlockedScope {
  std::string what;  // "uni streams", "connection data", "stream 4 data"
  std::string blocked_frame;  // "STREAMS_BLOCKED"
  LimitWalk walk;
  /// How far the sender wanted to go, and why it is believed.
  std::uint64_t wanted = 0;
  std::string why;
  const std::vector<LimitSeen>* blocked = nullptr;
  /// Whether `wanted` was wanted from the start (Demand::at_once), so at
  /// every limit short of it; else only in total.
  bool wanted_at_once = true;
  /// Whether the capture was taken at the sender: a raise it saw before the
  /// usage reached the old limit had then reached the sender too.
  bool at_sender = true;
};

/// What judge_blocked() found over one or more scopes.
struct BlockedFindings {
  std::vector<std::string> problems;
  std::vector<Evidence> evidence;
  /// Waits without the frame that the capture cannot tell were wished for.
  std::vector<std::string> untold;
  /// Waits at a limit that needed the frame, the untold ones left out.
  std::size_t needed = 0;
};

/// Adds to `found` each episode of `scope` where the sender was at the
/// limit, wanted more and waited longer than `grace_ns` (or for ever) for a
/// raise, without sending the blocked frame carrying that limit in between;
/// and a usage beyond the limit. RFC 9000 §4.6 asks for the frame when the
/// sender "wishes to open a stream but is unable to": a total demand only
/// says the sender wanted more at some time, not while at this limit. So a
/// wait without the frame, of a sender whose frames report its other waits
/// of `scope` (it reports the waits it has), is untold, not a problem,
/// unless the demand was wanted at once (scope.wanted_at_once) or, at the
/// sender's own capture, it went past the limit within kReadNs of the
/// raise's arrival (it had been waiting with more). A sender that reports
/// none is judged by its demand: nothing shows it reports any wait. An older limit the usage reached after the capture saw a raise
/// (LimitWalk::reached_in_flight) is a wait the sender reported when it
/// sent the frame; without it, from a capture not at the sender, whether it
/// waited is untold.
void judge_blocked(const BlockedScope& scope, const CaptureFacts& capture, std::int64_t grace_ns,
                   BlockedFindings& found);

/// The verdict of `found`: FAIL with its problems; else PASS with `ok`
/// (and the untold waits counted) when a wait was judged; else NOT JUDGED
/// when every wait was untold.
CheckResult blocked_verdict(BlockedFindings found, std::string ok);

/// Whether `scope`'s sender was ever at a limit wanting more, or went beyond
/// one: the behaviour these checks judge (NOT EXERCISED otherwise).
bool exercised(const BlockedScope& scope);

/// How a limit check words what the sender used: `used_verb` "sent" or
/// "opened", `unit` "bytes" or "uni streams".
struct UsageWords {
  std::string used_verb;
  std::string unit;
};

/// The whole judgement of one limit at the sender: the demand settled from
/// what the capture shows (`words`, the scope's own blocked frames), the
/// check's parameter `param` (-1: none) and the scenario's `scenario`; then
/// NOT EXERCISED when the sender was never at the limit wanting more, else
/// the verdict of judge_blocked over `input`'s `grace_ms`.
CheckResult judge_limit(BlockedScope scope, const CaptureFacts& capture, const CheckInput& input,
                        const UsageWords& words, const std::string& param,
                        const std::optional<Expected>& scenario, std::uint64_t initial);

/// `seen` raised by the sender's own blocked frames: one carrying limit L
/// says it wanted more than L, a limit of 0 included.
Demand with_blocked_frames(Demand seen, const std::vector<LimitSeen>& blocked, const std::string& frame);

/// Where these checks judge from: anywhere, since what the sender knew of
/// a raise is read from its own datagrams (AtLimit::passed), and an
/// episode at a limit that a capture shows was one at the sender too.
VantageNeed blocked_frames_vantage();

/// The `by` and `grace_ms` parameters of these checks.
ValueSpec blocked_by_param();
ValueSpec grace_param();

/// Folds problems into a verdict: the first problem as summary (with a count
/// of the others), else `ok`; evidence beyond kMaxEvidence items is counted,
/// not listed.
inline constexpr std::size_t kMaxEvidence = 20;
CheckResult verdict(std::vector<std::string> problems, std::vector<Evidence> evidence, std::string ok);

}  // namespace conform::quic_checks
