// Walking a limit and its usage together.
#include "check/quic/support/limit_walk.hpp"

#include <algorithm>
#include <variant>

namespace conform::quic_checks {

namespace {

// Whether `w` already has `limit` as reached, either way. Usage does not go
// down, so only the latest of each list can be at that limit.
bool reached(const LimitWalk& w, std::uint64_t limit) {
  return (!w.at_limit.empty() && w.at_limit.back().limit == limit) ||
         (!w.reached_in_flight.empty() && w.reached_in_flight.back().limit == limit);
}

}  // namespace

LimitWalk walk_limit(std::uint64_t initial, const std::vector<LimitSeen>& raises, const std::vector<LimitSeen>& usage,
                     const At& start) {
  LimitWalk w;
  std::uint64_t limit = initial;
  if (initial == 0) w.at_limit.push_back({0, start, std::nullopt, std::nullopt});
  std::size_t ri = 0;
  // The limits in force one after another: the initial one and each raise
  // above the one before (a smaller MAX_* frame changes nothing, §19.9),
  // rising in value and in capture order.
  std::vector<LimitSeen> steps{{start, initial}};
  for (const auto& u : usage) {
    for (; ri < raises.size() && raises[ri].at.datagram < u.at.datagram; ++ri)
      if (raises[ri].value > limit) {
        limit = raises[ri].value;
        steps.push_back(raises[ri]);
      }
    if (u.value > limit && !w.beyond) w.beyond = {u, limit};
    if (u.value >= limit && (w.at_limit.empty() || w.at_limit.back().limit != limit)) {
      w.at_limit.push_back({limit, u.at, std::nullopt, std::nullopt});
    } else if (u.value < limit && !reached(w, u.value)) {
      // Exactly an older limit: the step after it is the raise above it.
      const auto above = std::upper_bound(steps.begin(), steps.end(), u.value,
                                          [](std::uint64_t v, const LimitSeen& s) { return v < s.value; });
      if (above != steps.begin() && std::prev(above)->value == u.value && above != steps.end()) {
        const LimitSeen* beyond = first_beyond(usage, u.value);
        w.reached_in_flight.push_back({u.value, u.at, *above, beyond ? std::optional(*beyond) : std::nullopt});
      }
    }
    w.used = std::max(w.used, u.value);
  }
  for (; ri < raises.size(); ++ri) limit = std::max(limit, raises[ri].value);
  w.final_limit = limit;
  // Both lists are in capture order and the answer never moves back (a
  // raise skipped for one limit is too early or too small for the next).
  std::size_t j = 0;
  for (auto& a : w.at_limit) {
    while (j < raises.size() && !(raises[j].value > a.limit && raises[j].at.datagram > a.reached.datagram)) ++j;
    if (j < raises.size()) a.raised = raises[j];
    if (const LimitSeen* beyond = first_beyond(usage, a.limit)) a.passed = *beyond;
  }
  return w;
}

const LimitSeen* first_beyond(const std::vector<LimitSeen>& usage, std::uint64_t limit) {
  auto beyond = std::upper_bound(usage.begin(), usage.end(), limit,
                                 [](std::uint64_t v, const LimitSeen& u) { return v < u.value; });
  return beyond == usage.end() ? nullptr : &*beyond;
}

std::optional<std::size_t> raise_read_at(const LimitSeen* passed, const std::vector<LimitSeen>& blocked,
                                         std::uint64_t limit) {
  std::optional<std::size_t> at;
  if (passed) at = passed->at.datagram;
  for (const auto& b : blocked)
    if (b.value > limit) {
      if (!at || b.at.datagram < *at) at = b.at.datagram;
      break;  // in capture order: the first is the earliest
    }
  return at;
}

bool still_in_force(const std::vector<LimitSeen>& usage, const std::vector<LimitSeen>& blocked, std::uint64_t limit,
                    std::size_t datagram) {
  const auto read = raise_read_at(first_beyond(usage, limit), blocked, limit);
  return !read || *read > datagram;
}

std::vector<LimitSeen> stream_count_usage(const std::vector<StreamOpened>& opened) {
  std::vector<LimitSeen> out;
  std::uint64_t highest = 0;
  for (const auto& o : opened)
    if (stream_index(o.id) + 1 > highest) {
      highest = stream_index(o.id) + 1;
      out.push_back({o.at, highest});
    }
  return out;
}

const LimitSeen* find_frame(const std::vector<LimitSeen>& frames, std::uint64_t value, std::size_t from,
                            std::optional<std::size_t> before) {
  for (const auto& f : frames) {
    if (before && f.at.datagram >= *before) break;
    if (f.value == value && f.at.datagram >= from) return &f;
  }
  return nullptr;
}

}  // namespace conform::quic_checks

namespace conform::quic_checks {

std::uint64_t limit_before(std::uint64_t initial, const std::vector<LimitSeen>& raises, std::size_t datagram) {
  std::uint64_t limit = initial;
  for (const auto& r : raises) {
    if (r.at.datagram >= datagram) break;
    limit = std::max(limit, r.value);
  }
  return limit;
}

std::uint64_t usage_until(const std::vector<LimitSeen>& usage, std::size_t datagram) {
  auto it = std::upper_bound(usage.begin(), usage.end(), datagram,
                             [](std::size_t d, const LimitSeen& u) { return d < u.at.datagram; });
  return it == usage.begin() ? 0 : std::prev(it)->value;
}

bool granted_before(std::uint64_t initial, const std::vector<LimitSeen>& raises, std::uint64_t value,
                    std::size_t datagram) {
  if (value == initial) return true;
  return std::any_of(raises.begin(), raises.end(),
                     [&](const LimitSeen& r) { return r.value == value && r.at.datagram < datagram; });
}

std::uint64_t usage_through_burst(const std::vector<LimitSeen>& usage, const At& at, const ConnectionFacts& conn,
                                  Side by) {
  const auto& datagrams = conn.connection->datagrams;
  std::size_t reply = at.datagram + 1;
  while (reply < datagrams.size() && sender_of(datagrams[reply]) == by) ++reply;
  auto it = std::upper_bound(usage.begin(), usage.end(), at.datagram,
                             [](std::size_t d, const LimitSeen& u) { return d < u.at.datagram; });
  while (it != usage.end() && (it->at.datagram < reply || it->at.time_ns == at.time_ns)) ++it;
  return it == usage.begin() ? 0 : std::prev(it)->value;
}

namespace {

// The last STREAM frame of `d`, or the first, as `last` says.
const dissect::StreamFrame* stream_frame(const dissect::Datagram& d, bool last) {
  const dissect::StreamFrame* found = nullptr;
  for (const auto& p : d.packets)
    for (const auto& f : p.frames)
      if (const auto* s = std::get_if<dissect::StreamFrame>(&f)) {
        if (!last) return s;
        found = s;
      }
  return found;
}

}  // namespace

std::uint64_t streams_opened_by_write(const std::vector<LimitSeen>& usage, const At& at, const ConnectionFacts& conn,
                                      Side by) {
  const auto& datagrams = conn.connection->datagrams;
  std::size_t end = at.datagram;
  const dissect::StreamFrame* tail = stream_frame(datagrams[end], true);
  for (std::size_t next = end + 1; tail && !tail->fin && next < datagrams.size(); ++next) {
    if (sender_of(datagrams[next]) != by) continue;
    const dissect::StreamFrame* head = stream_frame(datagrams[next], false);
    if (!head || head->stream_id != tail->stream_id || head->offset != tail->offset + tail->length) break;
    end = next;
    tail = stream_frame(datagrams[end], true);
  }
  return std::max(usage_through_burst(usage, at, conn, by), usage_until(usage, end));
}

}  // namespace conform::quic_checks
