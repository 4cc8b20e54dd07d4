// Sharding: one CI job of N runs every N-th case. Cases are dealt round
// robin over their ids in byte order, so every job computes the same split
// from the same case list, whatever the order of suite files or matrix
// axes, shard sizes differ by at most one, and the points of one matrix
// (adjacent ids) spread over the jobs instead of piling on one.
#pragma once

#include "suite/model.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace conform {

/// Shard `index` (from 1) of `count`.
struct ShardSpec {
  std::size_t index = 1;
  std::size_t count = 1;
};

/// Most shards a run may be split into.
inline constexpr std::size_t kMaxShards = 10000;

/// Parses `K/N` (whole numbers, 1 <= K <= N <= kMaxShards). Returns an
/// empty string and sets `spec`, or says what is wrong.
std::string parse_shard(const std::string& text, ShardSpec& spec);

/// Which shard a case list gives each case: `shard_of[i]` (from 1) for
/// `ids[i]`. Ids must be distinct.
std::vector<std::size_t> assign_shards(const std::vector<std::string>& ids, std::size_t count);

/// A digest of a case list (its ids in run order): shards of one run carry
/// the same digest, so `conform merge` can refuse shards of different runs.
std::string cases_digest(const std::vector<std::string>& ids);

/// The cases of `all` in shard `spec`, in their order; `positions` receives
/// each one's index in `all`.
std::vector<Case> take_shard(const std::vector<Case>& all, ShardSpec spec,
                             std::vector<std::size_t>& positions);

}  // namespace conform
