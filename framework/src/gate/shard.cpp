// Splitting a case list into shards.
#include "gate/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace conform {

namespace {

bool parse_count(const std::string& text, std::size_t& out) {
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::stoul(text);
  return true;
}

}  // namespace

std::string parse_shard(const std::string& text, ShardSpec& spec) {
  const auto slash = text.find('/');
  ShardSpec s;
  if (slash == std::string::npos || !parse_count(text.substr(0, slash), s.index) ||
      !parse_count(text.substr(slash + 1), s.count) || s.index < 1 || s.count < 1 || s.index > s.count ||
      s.count > kMaxShards)
    return fmt::format("--shard takes K/N with 1 <= K <= N <= {} (e.g. 2/4), not '{}'", kMaxShards, text);
  spec = s;
  return "";
}

std::vector<std::size_t> assign_shards(const std::vector<std::string>& ids, std::size_t count) {
  std::vector<std::size_t> order(ids.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
  std::vector<std::size_t> shard(ids.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank) shard[order[rank]] = rank % count + 1;
  return shard;
}

std::string cases_digest(const std::vector<std::string>& ids) {
  // FNV-1a, 64 bits: stable across builds and machines, unlike std::hash.
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](unsigned char byte) {
    h ^= byte;
    h *= 0x100000001b3ull;
  };
  for (const auto& id : ids) {
    for (char ch : id) mix(static_cast<unsigned char>(ch));
    mix('\n');
  }
  return fmt::format("{:016x}-{}", h, ids.size());
}

std::vector<Case> take_shard(const std::vector<Case>& all, ShardSpec spec,
                             std::vector<std::size_t>& positions) {
  std::vector<std::string> ids;
  for (const auto& c : all) ids.push_back(c.id());
  const auto shard = assign_shards(ids, spec.count);
  std::vector<Case> out;
  positions.clear();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (shard[i] == spec.index) {
      out.push_back(all[i]);
      positions.push_back(i);
    }
  return out;
}

}  // namespace conform
