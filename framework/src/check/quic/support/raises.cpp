// Judging a receiver's raises of a limit.
#include "check/quic/support/raises.hpp"

#include "check/quic/support/unseen_packets.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace conform::quic_checks {

std::string RaiseWaits::lost_text(const std::string& raise_frame) const {
  if (lost == 0) return "";
  if (made_good == 0) return fmt::format("; {} {} lost, none followed by one as high that reached the peer", lost,
                                         raise_frame);
  return fmt::format("; {} {} lost, {} followed by one as high that reached the peer within {}", lost, raise_frame,
                     made_good == lost ? "each" : std::to_string(made_good), ms(longest_again_ns));
}

std::vector<LimitSeen> arrived_raises(const std::vector<LimitSeen>& raises, const Judged& j, Side by) {
  std::vector<LimitSeen> out;
  for (const auto& r : raises)
    if (!shown_not_received(*j.connection->connection, dissect::other(by), r.at.datagram)) out.push_back(r);
  return out;
}

RaiseWaits judge_raises(const LimitWalk& walk, const std::vector<LimitSeen>& raises,
                        const std::vector<LimitSeen>& arrived, const Demand& demand, const std::string& what,
                        const std::string& raise_frame, std::int64_t max_wait_ns, const Judged& j, Side by,
                        std::vector<std::string>& problems, std::vector<Evidence>& evidence) {
  const Side peer = dissect::other(by);
  const CaptureFacts& capture = *j.capture;
  const std::int64_t unseen_ns = unseen_round_trip(j, by);
  RaiseWaits w;
  // Each lost raise, and the first raise as high that reached the peer after it.
  std::vector<const LimitSeen*> lost;
  for (const auto& r : raises) {
    if (std::any_of(arrived.begin(), arrived.end(), [&](const LimitSeen& a) { return a.at.datagram == r.at.datagram; }))
      continue;
    lost.push_back(&r);
    ++w.lost;
    evidence.push_back(quic_checks::evidence(
        capture, r.at, fmt::format("{} {} lost: the {}'s ACKs pass over it", raise_frame, r.value, to_string(peer))));
    for (const auto& a : arrived)
      if (a.at.datagram > r.at.datagram && a.value >= r.value) {
        const std::int64_t again = a.at.time_ns - r.at.time_ns;
        w.longest_again_ns = std::max(w.longest_again_ns, again);
        ++w.made_good;
        evidence.push_back(quic_checks::evidence(
            capture, a.at,
            fmt::format("{} {} reached the {}, {} after the lost one", raise_frame, a.value, to_string(peer), ms(again))));
        break;
      }
  }
  for (const AtLimit& h : walk.at_limit) {
    if (demand.wanted <= h.limit) continue;
    ++w.reached;
    evidence.push_back(quic_checks::evidence(capture, h.reached, fmt::format("{} reached the limit {}", what, h.limit)));
    // A raise lost before the limit was reached would have lifted it too.
    const auto gone = std::find_if(lost.begin(), lost.end(), [&](const LimitSeen* l) { return l->value > h.limit; });
    // A peer that went past the limit before any raise arrived had one of
    // the lost ones after all: the wait ends there.
    const bool passed_first = h.passed && (!h.raised || h.passed->at.datagram < h.raised->at.datagram);
    const LimitSeen* raised = h.raised ? &*h.raised : nullptr;
    if (passed_first && gone != lost.end() && (*gone)->at.datagram < h.passed->at.datagram) raised = *gone;
    if (!raised) {
      problems.push_back(
          gone == lost.end()
              ? fmt::format("{} reached the limit {} at frame {} ({}) wanting {} ({}); no {} raised it", what,
                            h.limit, h.reached.frame, ms(h.reached.time_ns), demand.wanted, demand.why, raise_frame)
              : fmt::format("{} reached the limit {} at frame {} ({}) wanting {} ({}); the {} {} of frame {} was "
                            "lost (the {}'s ACKs pass over it) and none reached the {} after it",
                            what, h.limit, h.reached.frame, ms(h.reached.time_ns), demand.wanted, demand.why,
                            raise_frame, (*gone)->value, (*gone)->at.frame, to_string(peer), to_string(peer)));
      break;
    }
    const std::int64_t wait = std::max<std::int64_t>(0, raised->at.time_ns - h.reached.time_ns);
    w.longest_ns = std::max(w.longest_ns, wait);
    if (max_wait_ns >= 0 && wait > max_wait_ns + unseen_ns) {
      problems.push_back(fmt::format("{} reached the limit {} at frame {}; {} {} came {} later (bound {}{})", what,
                                     h.limit, h.reached.frame, raise_frame, raised->value, ms(wait), ms(max_wait_ns),
                                     unseen_ns ? fmt::format(", plus {} for the round trip a capture not at the "
                                                             "receiver cannot see",
                                                             ms(unseen_ns))
                                               : std::string()));
      evidence.push_back(quic_checks::evidence(capture, raised->at, fmt::format("{} {}", raise_frame, raised->value)));
    }
  }
  return w;
}

ValueSpec max_wait_param(const std::string& raise_frame) {
  return {"max_wait_ms", ValueType::floating, Value{-1.0},
          "longest time from the peer reaching a limit to a " + raise_frame +
              " raising it that reached the peer (a lost one sent again counts when it is), ms; -1: any"};
}

}  // namespace conform::quic_checks
