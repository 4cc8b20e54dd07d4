// Which captures, and which of their connections, each job of a sharded check judges.
#include "gate/check_shard.hpp"

#include "common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <numeric>

namespace conform {

std::vector<CaptureShare> plan_check_shard(const std::vector<std::uintmax_t>& sizes, ShardSpec spec,
                                           std::uintmax_t split_bytes) {
  std::vector<CaptureShare> shares(sizes.size());
  // Bytes dealt to each job so far, in units of 1/N byte so that a split
  // capture's equal parts stay whole numbers.
  std::vector<std::uintmax_t> load(spec.count, 0);
  std::vector<std::size_t> whole;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] >= split_bytes) {
      shares[k] = {sizes[k], true, true};
      for (auto& l : load) l += sizes[k];
    } else {
      shares[k].bytes = sizes[k];
      whole.push_back(k);
    }
  }
  std::stable_sort(whole.begin(), whole.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  for (std::size_t k : whole) {
    const auto job = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[job] += sizes[k] * spec.count;
    shares[k].read = job + 1 == spec.index;
  }
  return shares;
}

std::vector<CaptureShare> shares_of(const std::vector<std::string>& captures, std::optional<ShardSpec> spec,
                                    std::uintmax_t split_bytes) {
  std::vector<std::uintmax_t> sizes;
  for (const auto& c : captures) {
    std::error_code ec;
    sizes.push_back(std::filesystem::file_size(c, ec));
    if (ec) throw InputError({c}, "cannot read the capture's size: " + ec.message());
  }
  if (spec) return plan_check_shard(sizes, *spec, split_bytes);
  std::vector<CaptureShare> all;
  for (auto size : sizes) all.push_back({size, true, false});
  return all;
}

bool judges_connection(std::size_t capture, std::size_t number, ShardSpec spec) {
  return (capture + number - 1) % spec.count == spec.index - 1;
}

nlohmann::json to_json(const CheckShardReport& r) {
  nlohmann::json captures = nlohmann::json::array(), judged = nlohmann::json::array();
  for (const auto& c : r.captures) {
    nlohmann::json j{{"file", c.file}, {"bytes", c.bytes}, {"read", c.read}, {"split", c.split}};
    if (c.read) j["connections"] = c.connections;
    captures.push_back(std::move(j));
  }
  for (const auto& p : r.judged) judged.push_back({p.case_index, p.capture, p.connection});
  return {{"index", r.spec.index},
          {"count", r.spec.count},
          {"split_bytes", r.split_bytes},
          {"cases_digest", r.cases_digest},
          {"cases_total", r.cases_total},
          {"inputs_digest", r.inputs_digest},
          {"replay_inputs", r.replay_inputs},
          {"captures", captures},
          {"judged", judged}};
}

std::string check_inputs_digest(const std::vector<std::string>& captures, const std::vector<CaptureShare>& shares,
                                std::uintmax_t split_bytes, const std::string& options) {
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < captures.size(); ++k)
    lines.push_back(captures[k] + "\t" + std::to_string(shares[k].bytes));
  lines.push_back("split_bytes\t" + std::to_string(split_bytes));
  lines.push_back("options\t" + options);
  return cases_digest(lines);
}

}  // namespace conform
