// Whether a receiver of streams raised MAX_STREAMS ahead of its peer (RFC
// 9000 §4.6: implementations "will likely want to increase the maximum as
// streams are closed, to keep the number of streams available to peers
// roughly consistent"). Judged from the receiver's capture without a time
// bound: when the peer reached a limit the receiver had not raised, the
// receiver held credit back if, one round trip earlier, enough of the
// peer's streams had already ended there (arrived whole, or reset) that
// half a window of credit was waiting to be returned.
#pragma once

#include "check/check.hpp"
#include "check/quic/support/capture_facts.hpp"
#include "check/quic/support/limit_walk.hpp"

#include <string>
#include <vector>

namespace conform::quic_checks {

/// For each time in `walk` the peer reached a limit L while wanting more
/// than L (`wanted`), with no raise above L sent before: a problem when at
/// least L - window/2 of the peer's `dir` streams had ended at the capture
/// `rtt_ns` before (the peer's sending direction: all bytes up to FIN, or
/// RESET_STREAM). `window` is the receiver's initial limit. Appends
/// problems and evidence (where the limit was reached, the last stream that
/// had ended in time); returns how many reaches it judged.
std::size_t judge_credit_ahead(const ConnectionFacts& conn, Side peer, StreamDir dir, const LimitWalk& walk,
                               std::uint64_t wanted, std::uint64_t window, std::int64_t rtt_ns,
                               const CaptureFacts& capture, std::vector<std::string>& problems,
                               std::vector<Evidence>& evidence);

/// The round trip the `ahead` judgement allows: the one the suite states
/// (stated_round_trip: the check's `rtt_ms`, else the network's), else 0; ns.
std::int64_t round_trip_ns(const CheckInput& input);

}  // namespace conform::quic_checks
