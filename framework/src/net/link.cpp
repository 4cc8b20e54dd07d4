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
      lists_{SelectorList(config.drop), SelectorList(config.reorder), SelectorList(config.duplicate),
             SelectorList(config.corrupt)},
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

namespace {

// The datagram without the packets at `cut` (RFC 9000 §12.2: coalesced
// packets are whole and back to back, so the others stay as they were).
std::vector<std::uint8_t> without(const std::vector<std::uint8_t>& payload, const DatagramContents& c,
                                  const std::vector<std::size_t>& cut) {
  std::vector<std::uint8_t> out;
  std::size_t at = 0;
  for (std::size_t i : cut) {
    const PacketContents& p = c.packets[i];
    out.insert(out.end(), payload.begin() + static_cast<std::ptrdiff_t>(at),
               payload.begin() + static_cast<std::ptrdiff_t>(p.offset));
    at = p.offset + p.length;
  }
  out.insert(out.end(), payload.begin() + static_cast<std::ptrdiff_t>(at), payload.end());
  return out;
}

}  // namespace

LinkOutcome Link::send(Instant now, std::vector<std::uint8_t> payload, const DatagramContents* contents) {
  LinkOutcome out;
  out.index = ++sent_;
  const DatagramHeaders headers = datagram_headers(payload);
  const DatagramPosition pos{group_, name_, now, headers.long_types, headers.short_header, contents};
  // Every list counts every datagram, lost or not, so `server:3` is the
  // server's 3rd whatever happens to the first two.
  const auto drop = lists_[0].pick(pos), reorder = lists_[1].pick(pos), duplicate = lists_[2].pick(pos),
             corrupt = lists_[3].pick(pos);
  if (!drop.datagram && !drop.packets.empty()) {
    if (drop.packets.size() == contents->packets.size()) {
      out.lost = LossReason::drop_list;
      return out;
    }
    payload = without(payload, *contents, drop.packets);
    out.cut = drop.packets;
  }
  const auto ip_bytes = static_cast<std::int64_t>(payload.size()) + kIpUdpOverhead;

  if (ip_bytes > c_.mtu) out.lost = LossReason::mtu;
  else if (drop.datagram) out.lost = LossReason::drop_list;
  else if (randomly_lost()) out.lost = LossReason::random;
  else if (c_.queue_bytes > 0 && backlog_at(now) + ip_bytes > c_.queue_bytes)
    out.lost = LossReason::queue;
  if (out.lost) return out;
  if (reorder.any()) out.picked_by.push_back("reorder");
  if (duplicate.any()) out.picked_by.push_back("duplicate");
  if (corrupt.any()) out.picked_by.push_back("corrupt");

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
  if (reorder.any() || reorder_rng_.chance(c_.reorder_rate)) at += c_.reorder_delay;

  Arrival arrival{at, std::move(payload)};
  if (!arrival.payload.empty() &&
      (corrupt.any() || corrupt_rng_.chance(c_.corrupt_rate))) {
    flip_bits(arrival.payload);
    arrival.corrupted = true;
  }
  const bool twice = duplicate.any() || duplicate_rng_.chance(c_.duplicate_rate);
  out.arrivals.push_back(std::move(arrival));
  if (twice) {
    Arrival copy = out.arrivals.front();
    copy.at += c_.duplicate_delay;
    copy.duplicate = true;
    out.arrivals.push_back(std::move(copy));
  }
  return out;
}

std::vector<std::string> idle_selectors(const NetConfig& config, const std::vector<const Link*>& links) {
  const auto lists = config.selector_lists();
  std::vector<std::string> out;
  for (std::size_t k = 0; k < lists.size(); ++k)
    for (std::size_t i = 0; i < lists[k].list->size(); ++i)
      if (std::none_of(links.begin(), links.end(), [&](const Link* l) { return l->picked(k, i); }))
        out.push_back(std::string(lists[k].key) + " '" + (*lists[k].list)[i].text + "'");
  return out;
}

}  // namespace conform
