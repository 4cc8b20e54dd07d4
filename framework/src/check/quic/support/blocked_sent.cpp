// Judging *_BLOCKED frames against episodes at a limit.
#include "check/quic/support/blocked_sent.hpp"

#include "check/quic/support/crypto_flights.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::quic_checks {

namespace {

// The frame reporting a wait at an older limit whose raise the capture saw
// first: one carrying it before the sender used the raise.
const LimitSeen* in_flight_frame(const BlockedScope& scope, const AtLimit& a) {
  return find_frame(*scope.blocked, a.limit, 0, raise_read_at(a.passed ? &*a.passed : nullptr, *scope.blocked, a.limit));
}

// Whether the sender, at its own capture, went past the limit within
// kReadNs of the raise's arrival: it had been waiting at the limit with more
// to send, the wish RFC 9000 §4.1 and §4.6 ask it to report.
bool used_raise_at_once(const BlockedScope& scope, const AtLimit& a) {
  return scope.at_sender && a.raised && a.passed && a.passed->at.datagram > a.raised->at.datagram &&
         a.passed->at.time_ns - a.raised->at.time_ns <= kReadNs;
}

}  // namespace

void judge_blocked(const BlockedScope& scope, const CaptureFacts& capture, std::int64_t grace_ns,
                   BlockedFindings& found) {
  if (scope.walk.beyond) {
    const auto& [u, limit] = *scope.walk.beyond;
    found.problems.push_back(
        fmt::format("{}: went to {} beyond the limit {} at frame {}", scope.what, u.value, limit, u.at.frame));
    found.evidence.push_back(
        quic_checks::evidence(capture, u.at, fmt::format("{} {} beyond the limit {}", scope.what, u.value, limit)));
  }
  // The waits that needed the frame, each with the frame that reported it.
  std::vector<std::pair<const AtLimit*, const LimitSeen*>> waits;
  for (const AtLimit& a : scope.walk.at_limit) {
    if (scope.wanted <= a.limit) continue;
    if (a.raised && a.raised->at.time_ns - a.reached.time_ns <= grace_ns) continue;
    const auto until = raise_read_at(a.passed ? &*a.passed : nullptr, *scope.blocked, a.limit);
    // A frame carrying this limit was sent while it was in force (limits only
    // grow), so it counts even in a datagram before the one where the usage
    // reached the limit: a stack that knows it will block says so as it
    // queues the last streams, often in an earlier packet of the same burst.
    // It counts after the raise too, until the sender shows it read it
    // (raise_read_at), the rule blocked_frames_not_early follows.
    waits.emplace_back(&a, find_frame(*scope.blocked, a.limit, 0, until));
  }
  for (const AtLimit& a : scope.walk.reached_in_flight) {
    if (scope.wanted <= a.limit) continue;
    // Gone past the limit within the grace: at most that long a wait.
    if (a.passed && a.passed->at.time_ns - a.reached.time_ns <= grace_ns) continue;
    if (const LimitSeen* f = in_flight_frame(scope, a)) {
      ++found.needed;
      found.evidence.push_back(quic_checks::evidence(
          capture, f->at, fmt::format("{} {} ({}, the raise still on its way)", scope.blocked_frame, a.limit, scope.what)));
    } else if (!scope.at_sender) {
      found.untold.push_back(fmt::format(
          "{}: used all of the limit {} at frame {} ({}) after the raise of frame {} passed the capture point, no {} "
          "{}: whether the raise had reached the sender, the capture cannot tell",
          scope.what, a.limit, a.reached.frame, ms(a.reached.time_ns), a.raised->at.frame, scope.blocked_frame,
          a.limit));
    }
  }
  const bool reports = std::any_of(waits.begin(), waits.end(), [](const auto& w) { return w.second != nullptr; });
  for (const auto& [a, f] : waits) {
    if (f) {
      ++found.needed;
      found.evidence.push_back(
          quic_checks::evidence(capture, f->at, fmt::format("{} {} ({})", scope.blocked_frame, a->limit, scope.what)));
      continue;
    }
    const std::string raised = a->raised ? fmt::format("raised at frame {}", a->raised->at.frame) : "never raised";
    if (reports && !scope.wanted_at_once && !used_raise_at_once(scope, *a)) {
      found.untold.push_back(fmt::format(
          "{}: at the limit {} from frame {} ({}), {}, no {} {}: the sender sends {} at its other limits, and its "
          "demand ({}) says nothing of whether it wished for more while at this one",
          scope.what, a->limit, a->reached.frame, ms(a->reached.time_ns), raised, scope.blocked_frame, a->limit,
          scope.blocked_frame, scope.why));
      continue;
    }
    ++found.needed;
    const std::string why = reports && !scope.wanted_at_once
                                ? fmt::format("{}; it used the raise on arrival, frame {}", scope.why, a->passed->at.frame)
                                : scope.why;
    found.problems.push_back(fmt::format("{}: at the limit {} from frame {} ({}) wanting {} ({}), {}; no {} {} sent",
                                         scope.what, a->limit, a->reached.frame, ms(a->reached.time_ns), scope.wanted,
                                         why, raised, scope.blocked_frame, a->limit));
    found.evidence.push_back(
        quic_checks::evidence(capture, a->reached, fmt::format("{} reached the limit {}", scope.what, a->limit)));
  }
}

CheckResult blocked_verdict(BlockedFindings found, std::string ok) {
  if (found.problems.empty() && found.needed == 0 && !found.untold.empty())
    return {Verdict::not_judged,
            fmt::format("cannot judge: {}{}", found.untold.front(),
                        found.untold.size() > 1 ? fmt::format(" (and {} more)", found.untold.size() - 1) : ""),
            std::move(found.evidence)};
  if (!found.untold.empty())
    ok += fmt::format("; {} more without it that the capture cannot tell were wished for (the first: {})",
                      found.untold.size(), found.untold.front());
  return verdict(std::move(found.problems), std::move(found.evidence), std::move(ok));
}

bool exercised(const BlockedScope& scope) {
  if (scope.walk.beyond) return true;
  for (const AtLimit& a : scope.walk.at_limit)
    if (scope.wanted > a.limit) return true;
  for (const AtLimit& a : scope.walk.reached_in_flight)
    if (scope.wanted > a.limit && (!scope.at_sender || in_flight_frame(scope, a))) return true;
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
  scope.wanted_at_once = d.at_once;
  const std::string told = fmt::format("{} {} (wanted {}: {}), limit {} → {}", used, words.unit, scope.wanted,
                                       scope.why, initial, scope.walk.final_limit);
  BlockedFindings found;
  judge_blocked(scope, capture, std::int64_t(value_or<double>(input.params, "grace_ms", 0) * 1e6), found);
  if (!exercised(scope)) return not_exercised(fmt::format("never at the {} limit wanting more: {}", scope.what, told));
  const std::size_t needed = found.needed;
  return blocked_verdict(std::move(found),
                         fmt::format("{}; {} waits at the limit, each reported with {}", told, needed,
                                     scope.blocked_frame));
}

VantageNeed blocked_frames_vantage() {
  return {"any capture point",
          "judged alike: a raise counts as known to the sender once its own datagrams use it, and a frame carrying "
          "the old limit counts until then; a wait at a limit that a capture shows was a wait at the sender too, "
          "at least as long; an older limit used up after its raise passed the capture point counts as a wait when the "
          "sender reported it, and is untold without the frame from anywhere but the sender"};
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
