// Sharding `conform check`: N jobs, on one machine or many, judge one
// capture set, and `conform merge` joins their reports into the report of
// one whole check. Captures smaller than `split_bytes` are dealt whole:
// largest first, each to the job with the fewest bytes so far (ties to the
// lower index). A capture of at least `split_bytes` is read by every job,
// and each judges the connections whose number n (from 1) has
// (capture index + n - 1) mod N = K - 1; its bytes count 1/N to each job.
// Every job computes the same plan from the same list and file sizes,
// whatever machine it runs on.
#pragma once

#include "gate/shard.hpp"

#include <nlohmann/json_fwd.hpp>

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace conform {

/// Captures of at least this many bytes are split by connection by default.
inline constexpr std::uintmax_t kDefaultSplitBytes = 256ull << 20;

/// What one job does with each capture of the list.
struct CaptureShare {
  std::uintmax_t bytes = 0;
  /// It reads the capture (whole, or to judge its share of connections).
  bool read = false;
  /// The capture is split by connection over every job.
  bool split = false;
};

/// The share of job `spec` in captures of `sizes` bytes, in list order.
std::vector<CaptureShare> plan_check_shard(const std::vector<std::uintmax_t>& sizes, ShardSpec spec,
                                           std::uintmax_t split_bytes);

/// The share of job `spec` in `captures` (their sizes read here); every
/// capture whole for no shard.
std::vector<CaptureShare> shares_of(const std::vector<std::string>& captures, std::optional<ShardSpec> spec,
                                    std::uintmax_t split_bytes);

/// Whether job `spec` judges connection `number` (from 1) of the split
/// capture at `capture` (from 0) in the list.
bool judges_connection(std::size_t capture, std::size_t number, ShardSpec spec);

/// The `check_shard` member of a sharded check's JSON report: what
/// `conform merge` needs to join the jobs' reports in the order of one
/// whole check, and to refuse reports of other checks.
struct CheckShardReport {
  ShardSpec spec;
  std::uintmax_t split_bytes = kDefaultSplitBytes;
  /// The cases judged (their ids in order), as cases_digest, and how many.
  std::string cases_digest;
  std::size_t cases_total = 0;
  /// The captures (paths and sizes) and options that choose what is
  /// judged and how (key logs, vantages, plugins), as cases_digest.
  std::string inputs_digest;
  /// What a replay command names before the suite: the inputs that gave
  /// the captures, then the options.
  std::string replay_inputs;
  struct Capture {
    std::string file;
    std::uintmax_t bytes = 0;
    bool read = false, split = false;
    /// Connections in the capture, for a capture the job read.
    std::size_t connections = 0;
  };
  /// Every capture of the list, in order.
  std::vector<Capture> captures;
  /// Where each case of the report falls in the whole check: the case's
  /// index, its capture's index in the list, its connection's number.
  /// Ordered as the whole check reports them: by capture, connection, case.
  struct Place {
    std::size_t case_index = 0, capture = 0, connection = 0;
    friend bool operator==(const Place&, const Place&) = default;
    friend auto operator<=>(const Place& a, const Place& b) {
      return std::tie(a.capture, a.connection, a.case_index) <=> std::tie(b.capture, b.connection, b.case_index);
    }
  };
  std::vector<Place> judged;
};

nlohmann::json to_json(const CheckShardReport& report);

/// The digest of the captures `shares` covers and of `options` (the
/// replay inputs).
std::string check_inputs_digest(const std::vector<std::string>& captures, const std::vector<CaptureShare>& shares,
                                std::uintmax_t split_bytes, const std::string& options);

}  // namespace conform
