// Token-bucket pacing, RFC 9002 §7.7.
#include "recovery/pacer.hpp"

#include <algorithm>

namespace conform::quic {

void Pacer::refill(Instant now, double rate) {
  if (now <= last_) return;
  const double add = rate * static_cast<double>((now - last_).ns) / 1e9;
  tokens_ = std::min<uint64_t>(burst_, tokens_ + static_cast<uint64_t>(std::min(add, 1e18)));
  last_ = now;
}

Instant Pacer::release_time(Instant now, size_t bytes, double rate) {
  refill(now, rate);
  if (tokens_ >= bytes) return now;
  const double missing = static_cast<double>(bytes - tokens_);
  const double wait_ns = missing / std::max(rate, 1.0) * 1e9;
  return now + Duration::nanos(static_cast<int64_t>(wait_ns) + 1);
}

void Pacer::on_sent(Instant now, size_t bytes, double rate) {
  refill(now, rate);
  tokens_ -= std::min<uint64_t>(tokens_, bytes);
}

}  // namespace conform::quic
