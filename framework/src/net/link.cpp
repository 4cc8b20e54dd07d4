// The impairment pipeline of one direction.
#include "net/link.hpp"

#include <algorithm>
#include <cmath>

namespace conform {

const char* to_string(LossReason r) {
  switch (r) {
    case LossReason::mtu: return "mtu";
    case LossReason::drop_list: return "drop list";
    case LossReason::random: return "random loss";
    case LossReason::queue: return "queue full";
  }
  return "?";
}

Link::Link(const NetConfig& config, std::string group, std::string name, std::uint64_t seed,
           std::uint64_t stream)
    : c_(config),
      group_(std::move(group)),
      name_(std::move(name)),
      loss_rng_(seed, stream * 8 + 0),
      burst_rng_(seed, stream * 8 + 1),
      jitter_rng_(seed, stream * 8 + 2),
      corrupt_rng_(seed, stream * 8 + 3),
      duplicate_rng_(seed, stream * 8 + 4),
      reorder_rng_(seed, stream * 8 + 5) {}

bool Link::randomly_lost() {
  bool lost = loss_rng_.chance(c_.loss_rate);
  if (c_.burst_loss()) {
    // Decide with the current state's loss probability, then move: a burst
    // starts with the datagram after the transition into the bad state.
    lost |= burst_rng_.chance(burst_bad_ ? c_.ge_loss_bad : c_.ge_loss_good);
    burst_bad_ = burst_rng_.chance(burst_bad_ ? 1 - c_.ge_leave_bad : c_.ge_enter_bad);
  }
  return lost;
}

Duration Link::serialisation(std::int64_t ip_bytes) const {
  if (c_.bandwidth_bps <= 0) return Duration();
  // Rounded up: a datagram never leaves before its last bit does.
  return Duration::nanoseconds(
      static_cast<std::int64_t>(std::ceil(static_cast<double>(ip_bytes) * 8e9 / c_.bandwidth_bps)));
}

std::int64_t Link::backlog_at(Instant now) {
  while (!in_queue_.empty() && in_queue_.front().first <= now) {
    queued_bytes_ -= in_queue_.front().second;
    in_queue_.pop_front();
  }
  return queued_bytes_;
}

void Link::flip_bits(std::vector<std::uint8_t>& payload) {
  const std::uint64_t bits = payload.size() * 8;
  const auto want = std::min<std::uint64_t>(static_cast<std::uint64_t>(c_.corrupt_bits), bits);
  // Distinct positions: flipping one bit twice would undo the corruption.
  std::vector<std::uint64_t> flipped;
  while (flipped.size() < want) {
    const std::uint64_t bit = corrupt_rng_.below(bits);
    if (std::find(flipped.begin(), flipped.end(), bit) != flipped.end()) continue;
    flipped.push_back(bit);
    payload[bit / 8] ^= static_cast<std::uint8_t>(0x80u >> (bit % 8));
  }
}

LinkOutcome Link::send(Instant now, std::vector<std::uint8_t> payload) {
  LinkOutcome out;
  DatagramPosition pos{group_, name_, ++sent_, long_header_types(payload), {}};
  for (unsigned t = 0; t < 4; ++t) {
    if (pos.types & (1u << t)) ++type_sent_[t];
    pos.type_index[t] = type_sent_[t];
  }
  out.index = pos.index;
  const auto ip_bytes = static_cast<std::int64_t>(payload.size()) + kIpUdpOverhead;

  if (ip_bytes > c_.mtu) out.lost = LossReason::mtu;
  else if (any_selects(c_.drop, pos)) out.lost = LossReason::drop_list;
  else if (randomly_lost()) out.lost = LossReason::random;
  else if (c_.queue_bytes > 0 && backlog_at(now) + ip_bytes > c_.queue_bytes)
    out.lost = LossReason::queue;
  if (out.lost) return out;

  // The bottleneck sends one datagram at a time, in the order they came.
  const Instant departs = std::max(now, busy_until_) + serialisation(ip_bytes);
  if (c_.bandwidth_bps > 0) {
    busy_until_ = departs;
    in_queue_.emplace_back(departs, ip_bytes);
    queued_bytes_ += ip_bytes;
  }
  Instant at = departs + c_.one_way_delay;
  if (c_.jitter > Duration())
    at += Duration::nanoseconds(
        static_cast<std::int64_t>(jitter_rng_.below(static_cast<std::uint64_t>(c_.jitter.ns()) + 1)));
  if (any_selects(c_.reorder, pos) || reorder_rng_.chance(c_.reorder_rate)) at += c_.reorder_delay;

  Arrival arrival{at, std::move(payload)};
  if (!arrival.payload.empty() &&
      (any_selects(c_.corrupt, pos) || corrupt_rng_.chance(c_.corrupt_rate))) {
    flip_bits(arrival.payload);
    arrival.corrupted = true;
  }
  const bool twice = any_selects(c_.duplicate, pos) || duplicate_rng_.chance(c_.duplicate_rate);
  out.arrivals.push_back(std::move(arrival));
  if (twice) {
    Arrival copy = out.arrivals.front();
    copy.at += c_.duplicate_delay;
    copy.duplicate = true;
    out.arrivals.push_back(std::move(copy));
  }
  return out;
}

}  // namespace conform

