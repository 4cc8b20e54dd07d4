// MAX_STREAMS policies, RFC 9000 §4.6.
#include "connection/stream_limits.hpp"

namespace conform::quic {

std::optional<uint64_t> RemoteStreamLimit::update_due() const {
  constexpr uint64_t kMax = uint64_t{1} << 60;  // §4.6: never beyond 2^60
  if (window_ == 0) return std::nullopt;
  const uint64_t base = policy_ == MaxStreamsPolicy::half_window_opened ? opened_ : closed_;
  uint64_t next = base + window_;
  if (next > kMax) next = kMax;
  if (next <= max_) return std::nullopt;
  const uint64_t threshold = policy_ == MaxStreamsPolicy::every_stream ? 1
                             : policy_ == MaxStreamsPolicy::full_window ? window_
                                                                        : (window_ + 1) / 2;
  if (next - max_ < threshold) return std::nullopt;
  return next;
}

}  // namespace conform::quic
