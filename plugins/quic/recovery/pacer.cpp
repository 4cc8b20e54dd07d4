// Token-bucket pacing, RFC 9002 §7.7.
#include "recovery/pacer.hpp"

#include <algorithm>

namespace conform::quic {

namespace {

// Rate in bytes per second, N = 1.25 (§7.7) as 5/4.
double rate(uint64_t window, Duration smoothed_rtt) {
  const double rtt_s = static_cast<double>(std::max<int64_t>(smoothed_rtt.ns, 1)) / 1e9;
  return 1.25 * static_cast<double>(window) / rtt_s;
}

}  // namespace

void Pacer::refill(Instant now, uint64_t window, Duration smoothed_rtt) {
  if (now <= last_) return;
  const double add = rate(window, smoothed_rtt) * static_cast<double>((now - last_).ns) / 1e9;
  tokens_ = std::min<uint64_t>(burst_, tokens_ + static_cast<uint64_t>(add));
  last_ = now;
}

Instant Pacer::release_time(Instant now, size_t bytes, uint64_t window, Duration smoothed_rtt) {
  refill(now, window, smoothed_rtt);
  if (tokens_ >= bytes) return now;
  const double missing = static_cast<double>(bytes - tokens_);
  const double wait_ns = missing / rate(window, smoothed_rtt) * 1e9;
  return now + Duration::nanos(static_cast<int64_t>(wait_ns) + 1);
}

void Pacer::on_sent(Instant now, size_t bytes, uint64_t window, Duration smoothed_rtt) {
  refill(now, window, smoothed_rtt);
  tokens_ -= std::min<uint64_t>(tokens_, bytes);
}

}  // namespace conform::quic
