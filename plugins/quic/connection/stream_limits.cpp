// MAX_STREAMS policies, RFC 9000 §4.6.
//
// A limit of 0 (initial_max_streams_* = 0, §18.2) gives every policy an
// empty window, so credit that follows closed streams would never come;
// yet §4.6 expects credit to be extended as streams close, and forbids
// waiting for STREAMS_BLOCKED before advertising more ("MUST NOT wait to
// receive this signal"). A 0 therefore means "none until asked": the
// peer's STREAMS_BLOCKED at our limit (§19.14: sent "when it wishes to open
// a stream but is unable to do so due to the maximum stream limit set by
// its peer") is the request, and it is answered with a window of one
// stream. From then on credit follows closed streams as with any window,
// without waiting for another STREAMS_BLOCKED.
#include "connection/stream_limits.hpp"

namespace conform::quic {

std::optional<uint64_t> RemoteStreamLimit::update_due() const {
  constexpr uint64_t kMax = uint64_t{1} << 60;  // §4.6: never beyond 2^60
  if (window_ == 0) return std::nullopt;
  const uint64_t base = policy_ == MaxStreamsPolicy::half_window_opened ? opened_ : closed_;
  uint64_t next = base + window_;
  if (next > kMax && !uncapped_) next = kMax;
  if (next <= max_) return std::nullopt;
  const uint64_t threshold = policy_ == MaxStreamsPolicy::every_stream ? 1
                             : policy_ == MaxStreamsPolicy::full_window ? window_
                                                                        : (window_ + 1) / 2;
  if (next - max_ < threshold) return std::nullopt;
  return next;
}

}  // namespace conform::quic
