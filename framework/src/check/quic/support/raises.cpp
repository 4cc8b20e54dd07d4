// Judging a receiver's raises of a limit.
#include "check/quic/support/raises.hpp"

#include "check/quic/support/quic_check.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {

std::int64_t judge_raises(const LimitWalk& walk, const Demand& demand, const std::string& what,
                          const std::string& raise_frame, std::int64_t max_wait_ns, std::int64_t unseen_ns,
                          const CaptureFacts& capture, std::size_t& reached, std::vector<std::string>& problems,
                          std::vector<Evidence>& evidence) {
  std::int64_t longest = 0;
  reached = 0;
  for (const AtLimit& h : walk.at_limit) {
    if (demand.wanted <= h.limit) continue;
    ++reached;
    evidence.push_back(quic_checks::evidence(capture, h.reached, fmt::format("{} reached the limit {}", what, h.limit)));
    if (!h.raised) {
      problems.push_back(fmt::format("{} reached the limit {} at frame {} ({}) wanting {} ({}); no {} raised it",
                                     what, h.limit, h.reached.frame, ms(h.reached.time_ns), demand.wanted, demand.why,
                                     raise_frame));
      break;
    }
    const std::int64_t wait = h.raised->at.time_ns - h.reached.time_ns;
    longest = std::max(longest, wait);
    if (max_wait_ns >= 0 && wait > max_wait_ns + unseen_ns) {
      problems.push_back(fmt::format("{} reached the limit {} at frame {}; {} {} came {} later (bound {}{})", what,
                                     h.limit, h.reached.frame, raise_frame, h.raised->value, ms(wait), ms(max_wait_ns),
                                     unseen_ns ? fmt::format(", plus {} for the round trip a capture not at the "
                                                             "receiver cannot see",
                                                             ms(unseen_ns))
                                               : std::string()));
      evidence.push_back(quic_checks::evidence(capture, h.raised->at, fmt::format("{} {}", raise_frame, h.raised->value)));
    }
  }
  return longest;
}

ValueSpec max_wait_param(const std::string& raise_frame) {
  return {"max_wait_ms", ValueType::floating, Value{-1.0},
          "longest time from the peer reaching a limit to the " + raise_frame + " raising it, ms; -1: any"};
}

}  // namespace conform::quic_checks
