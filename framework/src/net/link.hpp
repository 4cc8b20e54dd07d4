// One direction of a path: what happens to a datagram between the sender's
// socket and the receiver's. In order: the path MTU, the explicit drop list
// (a datagram, or packets cut out of it),
// random loss (Bernoulli and Gilbert-Elliott), the drop-tail queue, the
// bottleneck's serialisation delay, propagation delay plus jitter plus any
// reorder hold, then corruption and duplication of what arrives.
#pragma once

#include "net/net_config.hpp"
#include "net/rng.hpp"

#include <conform/time.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// Why a link lost a datagram.
enum class LossReason { mtu, drop_list, random, queue };
/// "mtu", "drop list", "random loss", "queue full".
const char* to_string(LossReason r);

/// One copy of a datagram reaching the far end.
struct Arrival {
  Instant at;
  std::vector<std::uint8_t> payload;
  bool corrupted = false;
  bool duplicate = false;
};

/// The fate of one datagram: lost (and why), or its arrivals (two when
/// duplicated; the original first).
struct LinkOutcome {
  /// 1-based index of the datagram among those sent into this direction.
  std::int64_t index = 0;
  std::optional<LossReason> lost;
  /// Packets the drop list cut out of the datagram (indices into its
  /// contents), the rest delivered; every packet cut is `lost` instead.
  std::vector<std::size_t> cut;
  /// The lists besides `drop` whose selectors picked the datagram:
  /// "reorder", "duplicate", "corrupt".
  std::vector<const char*> picked_by;
  std::vector<Arrival> arrivals;
};

/// IP and UDP header bytes around every payload: what the MTU, the
/// bandwidth and the queue count besides the payload.
inline constexpr std::int64_t kIpUdpOverhead = 28;

class Link;

/// "drop 'server:handshake:pn=7'" for each selector of `config` that
/// picked nothing on any of `links` (a selector naming a packet the run
/// never sent, or a client it does not have): a case whose impairment did
/// not happen says so in its log.
std::vector<std::string> idle_selectors(const NetConfig& config, const std::vector<const Link*>& links);

class Link {
 public:
  /// `group` is "client" or "server" and `name` the sender's selector name
  /// ("client-2", "server"): the drop and other lists match against them.
  /// `stream` distinguishes this link's random streams from every other's.
  Link(const NetConfig& config, std::string group, std::string name, std::uint64_t seed,
       std::uint64_t stream);

  /// Takes the datagram a sender sends at `now` (not earlier than the
  /// previous call's `now`) and says what becomes of it. `contents` is what
  /// the run's keys read of it, for selectors that need it (null when none
  /// does, or none can be had).
  LinkOutcome send(Instant now, std::vector<std::uint8_t> payload,
                   const DatagramContents* contents = nullptr);
  /// Whether the selector at `index` of the `list`-th of
  /// NetConfig::selector_lists() has picked anything on this link.
  bool picked(std::size_t list, std::size_t index) const { return lists_[list].picked(index); }

 private:
  bool randomly_lost();
  Duration serialisation(std::int64_t ip_bytes) const;
  std::int64_t backlog_at(Instant now);
  void flip_bits(std::vector<std::uint8_t>& payload);

  const NetConfig& c_;
  std::string group_, name_;
  std::int64_t sent_ = 0;
  /// NetConfig::selector_lists(), each counting this direction's matches.
  std::array<SelectorList, 4> lists_;
  bool burst_bad_ = false;
  /// When the bottleneck finishes the datagram it is serialising.
  Instant busy_until_;
  /// Datagrams accepted and not yet serialised: when each finishes, its size.
  std::deque<std::pair<Instant, std::int64_t>> in_queue_;
  std::int64_t queued_bytes_ = 0;
  Rng loss_rng_, burst_rng_, jitter_rng_, corrupt_rng_, duplicate_rng_, reorder_rng_;
};

}  // namespace conform
