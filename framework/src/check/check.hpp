// A check: a named, parameterised judgement of one run of a case, made only
// from the run's captures, returning a verdict with evidence a person can open
// in Wireshark (capture file, frame number, time).
#pragma once

#include "check/requirement_level.hpp"

#include <conform/run_context.hpp>
#include <conform/value.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace conform {

/// One piece of evidence: where in which capture the check looked, and what it saw.
struct Evidence {
  /// Capture file name relative to the case folder ("client.pcap"); empty
  /// when the evidence is about the case as a whole.
  std::string capture;
  /// Wireshark frame number (from 1); 0 when no single frame is meant.
  std::uint64_t frame = 0;
  /// Capture timestamp in nanoseconds since the case began; -1 when unknown.
  std::int64_t time_ns = -1;
  std::string text;
};

/// The verdict of one check on one run.
struct CheckResult {
  bool passed = false;
  /// One line: what was measured against what was required
  /// ("received=99/200 missing=[99-199]").
  std::string summary;
  std::vector<Evidence> evidence;
  /// False when the check could not see what it judges (e.g. no key
  /// decrypts the packets whose frames it reads): `summary` says why, and
  /// the run is ERROR, not PASS or FAIL, whatever `passed` says.
  bool judged = true;
};

/// What a check may read: the run's artifact folder (captures, key log) and
/// the settings the run used, plus the parameters of its `[[case.expect]]`.
struct CheckInput {
  const std::string& artifact_dir;
  const CaseSettings& settings;
  /// The expect block's parameters, defaults filled in, types validated.
  const ValueMap& params;
};

/// A check of the catalogue. Implementations are stateless and pure functions
/// of the captures; they report unreadable captures as a failed verdict whose
/// summary says so.
class Check {
 public:
  virtual ~Check() = default;
  /// The name suites use in `check = "..."`.
  virtual std::string name() const = 0;
  /// The source of the requirement, e.g. "RFC 9000 §4.6 (SHOULD)".
  virtual std::string rfc() const = 0;
  /// The level of the RFC sentence it judges.
  virtual RequirementLevel level() const = 0;
  virtual std::string summary() const = 0;
  /// Typed parameters; a spec without default is required.
  virtual std::vector<ValueSpec> params() const = 0;
  virtual CheckResult evaluate(const CheckInput& input) const = 0;
  /// The transport of the connections it reads, named as `conform check`
  /// names a capture's connections ("QUIC", "TCP"); empty: any.
  virtual std::string transport() const { return {}; }
};

}  // namespace conform
