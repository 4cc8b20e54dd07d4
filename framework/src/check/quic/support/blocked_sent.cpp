// Judging *_BLOCKED frames against episodes at a limit.
#include "check/quic/support/blocked_sent.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {

std::size_t judge_blocked(const BlockedScope& scope, const CaptureFacts& capture, std::int64_t grace_ns,
                          std::vector<std::string>& problems, std::vector<Evidence>& evidence) {
  if (scope.walk.beyond) {
    const auto& [u, limit] = *scope.walk.beyond;
    problems.push_back(fmt::format("{}: went to {} beyond the limit {} at frame {}", scope.what, u.value, limit, u.at.frame));
    evidence.push_back(quic_checks::evidence(capture, u.at, fmt::format("{} {} beyond the limit {}", scope.what, u.value, limit)));
  }
  std::size_t needed = 0;
  for (const AtLimit& a : scope.walk.at_limit) {
    if (scope.wanted <= a.limit) continue;
    if (a.raised && a.raised->at.time_ns - a.reached.time_ns <= grace_ns) continue;
    ++needed;
    std::optional<std::size_t> until;
    if (a.passed) until = a.passed->at.datagram;
    // A frame carrying this limit was sent while it was in force (limits only
    // grow), so it counts even in a datagram before the one where the usage
    // reached the limit: a stack that knows it will block says so as it
    // queues the last streams, often in an earlier packet of the same burst.
    // It counts after the raise too, until the sender uses it: only then is
    // the raise known to have reached it (AtLimit::passed), the rule
    // blocked_frames_not_early follows.
    if (const LimitSeen* f = find_frame(*scope.blocked, a.limit, 0, until)) {
      evidence.push_back(quic_checks::evidence(capture, f->at, fmt::format("{} {} ({})", scope.blocked_frame, a.limit, scope.what)));
      continue;
    }
    problems.push_back(fmt::format("{}: at the limit {} from frame {} ({}) wanting {} ({}), {}; no {} {} sent",
                                   scope.what, a.limit, a.reached.frame, ms(a.reached.time_ns), scope.wanted, scope.why,
                                   a.raised ? fmt::format("raised at frame {}", a.raised->at.frame)
                                            : std::string("never raised"),
                                   scope.blocked_frame, a.limit));
    evidence.push_back(quic_checks::evidence(capture, a.reached, fmt::format("{} reached the limit {}", scope.what, a.limit)));
  }
  return needed;
}

bool exercised(const BlockedScope& scope) {
  if (scope.walk.beyond) return true;
  for (const AtLimit& a : scope.walk.at_limit)
    if (scope.wanted > a.limit) return true;
  return false;
}

Demand with_blocked_frames(Demand seen, const std::vector<LimitSeen>& blocked, const std::string& frame) {
  for (const auto& b : blocked)
    if (b.value + 1 > seen.wanted) seen = {b.value + 1, fmt::format("{} {} at frame {}", frame, b.value, b.at.frame)};
  return seen;
}

CheckResult judge_limit(BlockedScope scope, const CaptureFacts& capture, const CheckInput& input,
                        const UsageWords& words, const std::string& param,
                        const std::optional<Expected>& scenario, std::uint64_t initial) {
  const std::string used = fmt::format("{} {}", words.used_verb, scope.walk.used);
  const Demand d = demand(with_blocked_frames({scope.walk.used, used}, *scope.blocked, scope.blocked_frame),
                          value_or<std::int64_t>(input.params, param, -1), param, scenario);
  scope.wanted = d.wanted;
  scope.why = d.why;
  const std::string told = fmt::format("{} {} (wanted {}: {}), limit {} → {}", used, words.unit, scope.wanted,
                                       scope.why, initial, scope.walk.final_limit);
  std::vector<std::string> problems;
  std::vector<Evidence> ev;
  const auto grace = std::int64_t(value_or<double>(input.params, "grace_ms", 0) * 1e6);
  const std::size_t needed = judge_blocked(scope, capture, grace, problems, ev);
  if (!exercised(scope)) return not_exercised(fmt::format("never at the {} limit wanting more: {}", scope.what, told));
  return verdict(problems, ev, fmt::format("{}; {} waits at the limit, each reported with {}", told, needed,
                                           scope.blocked_frame));
}

VantageNeed blocked_frames_vantage() {
  return {"any capture point",
          "judged alike: a raise counts as known to the sender once its own datagrams use it, and a frame carrying "
          "the old limit counts until then; a wait at a limit that a capture shows was a wait at the sender too, "
          "at least as long"};
}

ValueSpec blocked_by_param() { return side_param("by", "the sender that may be blocked"); }

ValueSpec grace_param() {
  return {"grace_ms", ValueType::floating, Value{0.0},
          "a wait at the limit shorter than this needs no blocked frame, ms (0: any wait does)"};
}

CheckResult verdict(std::vector<std::string> problems, std::vector<Evidence> evidence, std::string ok) {
  CheckResult r;
  r.verdict = pass_if(problems.empty());
  // Thousands of streams would bury the first, telling items.
  if (evidence.size() > kMaxEvidence) {
    const std::size_t more = evidence.size() - kMaxEvidence;
    evidence.resize(kMaxEvidence);
    evidence.push_back({"", 0, -1, fmt::format("{} more evidence items not shown", more)});
  }
  r.evidence = std::move(evidence);
  if (r.verdict == Verdict::pass) {
    r.summary = std::move(ok);
  } else {
    r.summary = problems.front();
    if (problems.size() > 1) r.summary += fmt::format(" (and {} more)", problems.size() - 1);
  }
  return r;
}

}  // namespace conform::quic_checks
