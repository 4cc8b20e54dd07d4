// Gating on a baseline: an earlier JSON report says which cases passed; a
// case that passed there and fails now is a regression and fails the run,
// a failure already failing there is known, and a failure there that passes
// now is fixed.
#pragma once

#include "run/result.hpp"

#include <map>
#include <string>
#include <vector>

namespace conform {

/// The status of every case of an earlier JSON report, by case id.
struct Baseline {
  std::string path;
  std::map<std::string, Status> cases;
};

/// Reads the `cases[].id` and `cases[].status` of the JSON report at `path`
/// (a `conform run --json` or `conform merge --json` report). Throws
/// InputError naming the file and the line and column (malformed JSON) or
/// the JSON pointer (a member missing or of the wrong type, an unknown
/// status, an id given twice).
Baseline read_baseline(const std::string& path);

/// One case whose verdict the baseline explains or contradicts.
struct BaselineEntry {
  std::string id;
  /// The status in the baseline; Status::unsupported when the case is not
  /// in it (a new failure).
  Status was = Status::unsupported;
  bool in_baseline = false;
  Status now = Status::pass;
};

struct BaselineComparison {
  /// Passed (or XFAIL) in the baseline, a failure now.
  std::vector<BaselineEntry> regressions;
  /// A failure now, and not in the baseline or skipped there.
  std::vector<BaselineEntry> new_failures;
  /// A failure in both.
  std::vector<BaselineEntry> known;
  /// A failure in the baseline, passed now.
  std::vector<BaselineEntry> fixed;
  /// Cases of the baseline this run did not report (another shard's, or
  /// filtered out, or gone from the suites).
  std::size_t not_run = 0;

  /// Whether the run fails the gate: a regression or a new failure.
  bool failed() const { return !regressions.empty() || !new_failures.empty(); }
};

/// A case of a run and its status.
struct CaseVerdict {
  std::string id;
  Status status = Status::pass;
};

/// Compares the verdicts of a run, in its case order, with `baseline`. A
/// case fails as fails_gate() says for `fail_on`: NOT JUDGED unless
/// `--fail-on ...,not-judged=ok`, NOT EXERCISED with `not-exercised=fail`.
BaselineComparison compare_with_baseline(const Baseline& baseline, const std::vector<CaseVerdict>& verdicts,
                                         const FailOn& fail_on = {});

}  // namespace conform
