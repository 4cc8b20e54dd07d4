// DPLPMTUD-lite search, RFC 8899 §5.3.
#include "connection/path_mtu.hpp"

namespace conform::quic {

std::optional<size_t> PathMtuSearch::next_probe() const {
  if (outstanding_) return std::nullopt;
  if (losses_ > 0) return failing_;  // the same size again until MAX_PROBES
  if (ceiling_ <= confirmed_) return std::nullopt;
  if (!tried_ceiling_) return ceiling_;
  if (ceiling_ - confirmed_ < kMinStep) return std::nullopt;
  return confirmed_ + (ceiling_ - confirmed_ + 1) / 2;
}

void PathMtuSearch::on_probe_acked(size_t size) {
  if (size == outstanding_) outstanding_ = 0;
  tried_ceiling_ = true;
  losses_ = 0;
  if (size > confirmed_) confirmed_ = size;
}

void PathMtuSearch::on_probe_lost(size_t size) {
  if (size != outstanding_) return;
  outstanding_ = 0;
  tried_ceiling_ = true;
  if (size != failing_) losses_ = 0;
  failing_ = size;
  if (++losses_ < kMaxProbes) return;
  // MAX_PROBES losses: the path does not carry `size`.
  losses_ = 0;
  if (size - 1 < ceiling_) ceiling_ = size - 1;
}

}  // namespace conform::quic
