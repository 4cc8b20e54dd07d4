// Following one flow control or stream limit through a capture (RFC 9000
// §4.1, §4.6): the limit starts at its transport parameter and rises with
// MAX_DATA / MAX_STREAM_DATA / MAX_STREAMS; the sender's usage grows. Where
// the usage reached the limit in force, the sender was at the limit until a
// raise came (if one did). What "blocked" means then depends on the demand,
// which the checks judge.
#pragma once

#include "check/quic/support/timeline_queries.hpp"

#include <optional>
#include <vector>

namespace conform::quic_checks {

/// What a sender knew of a raise: the one rule every blocked-frame check
/// follows (RFC 9000 §4.1, §4.6, §19.12-§19.14). A limit once granted stays
/// in force, as far as the sender knew, until the first sign in its own
/// datagrams that it read a raise: a usage beyond the limit, or a blocked
/// frame of its own carrying a higher limit. That holds wherever the
/// capture was taken: a raise reaches the sender a one-way delay after the
/// capture saw it, and is read when it is. The first of `usage` beyond
/// `limit`, or nullptr while none went beyond.
const LimitSeen* first_beyond(const std::vector<LimitSeen>& usage, std::uint64_t limit);
/// The datagram of that first sign, given the first usage beyond `limit`
/// (`passed`) and the sender's blocked frames of the limit; nullopt while
/// there is none.
std::optional<std::size_t> raise_read_at(const LimitSeen* passed, const std::vector<LimitSeen>& blocked,
                                         std::uint64_t limit);
/// Whether `limit` was still in force for the sender in datagram
/// `datagram` by that rule: no sign of a raise read up to that datagram.
bool still_in_force(const std::vector<LimitSeen>& usage, const std::vector<LimitSeen>& blocked, std::uint64_t limit,
                    std::size_t datagram);

/// The usage reached `limit` at `reached`; `raised` is the first frame
/// raising the limit above it after that, if any; `passed` the first usage
/// beyond it (first_beyond), if any: one sign that the sender had read a
/// raise (raise_read_at).
struct AtLimit {
  std::uint64_t limit = 0;
  At reached;
  std::optional<LimitSeen> raised;
  std::optional<LimitSeen> passed;
};

struct LimitWalk {
  std::vector<AtLimit> at_limit;
  /// Older limits the usage reached exactly after the capture saw a raise
  /// above them, before any usage beyond them (`raised` is that raise, seen
  /// before `reached`). From a capture not at the sender the raise may
  /// still have been on its way: the sender may have been at the limit.
  std::vector<AtLimit> reached_in_flight;
  /// The first usage above the limit in force, and that limit.
  std::optional<std::pair<LimitSeen, std::uint64_t>> beyond;
  std::uint64_t final_limit = 0;
  std::uint64_t used = 0;  // the highest usage
};

/// `raises` and `usage` in capture order; `usage` non-decreasing. A raise
/// takes effect for usage seen in a later datagram (the two come from
/// different senders). An `initial` limit of 0 is reached at `start`, where
/// the limit came into force, before any usage: a sender wanting more waits
/// at 0 from there.
LimitWalk walk_limit(std::uint64_t initial, const std::vector<LimitSeen>& raises, const std::vector<LimitSeen>& usage,
                     const At& start);

/// Stream usage as a limit counts it: for each stream opened, the highest
/// stream index + 1 so far (§4.6).
std::vector<LimitSeen> stream_count_usage(const std::vector<StreamOpened>& opened);

/// The first of `frames` carrying `value`, seen in datagram `from` or later
/// and before datagram `before` (when given).
const LimitSeen* find_frame(const std::vector<LimitSeen>& frames, std::uint64_t value, std::size_t from,
                            std::optional<std::size_t> before);

}  // namespace conform::quic_checks

namespace conform::quic_checks {

/// The limit in force for something seen in datagram `datagram`: `initial`
/// raised by every frame of `raises` seen in an earlier datagram.
std::uint64_t limit_before(std::uint64_t initial, const std::vector<LimitSeen>& raises, std::size_t datagram);
/// Whether `value` was the limit in force at some time before datagram
/// `datagram`: `initial`, or a raise seen in an earlier datagram.
bool granted_before(std::uint64_t initial, const std::vector<LimitSeen>& raises, std::uint64_t value,
                    std::size_t datagram);
/// The usage as of datagram `datagram`, that one included (0 before any).
std::uint64_t usage_until(const std::vector<LimitSeen>& usage, std::size_t datagram);
/// The usage once the burst of `by`'s datagrams containing `at` is out:
/// what `by` sent before the next datagram from its peer in `conn`'s
/// capture, and at the same instant. Until something arrives it learns
/// nothing new, so streams and bytes it sends by then were already its when
/// it wrote the frame: a stack that queues its last streams and its blocked
/// frame together may put the frame first (RFC 9000 §4.6, §19.14 judged by
/// what the sender knew).
std::uint64_t usage_through_burst(const std::vector<LimitSeen>& usage, const At& at, const ConnectionFacts& conn,
                                  Side by);

/// The streams `by` had opened when it wrote the datagram of `at`, as
/// `usage` counts them: those its datagrams show through the end of that
/// write. A write too long for one datagram goes on in `by`'s next one,
/// which begins with the rest of the STREAM frame the first ended with
/// (same stream, the next offset), whatever arrived between: the streams
/// in it were opened already, since a stream is opened before its frames
/// are queued (RFC 9000 §2.1, §4.6). Not for flow-control credit: queued
/// bytes use none of it until sent.
std::uint64_t streams_opened_by_write(const std::vector<LimitSeen>& usage, const At& at, const ConnectionFacts& conn,
                                      Side by);

}  // namespace conform::quic_checks
