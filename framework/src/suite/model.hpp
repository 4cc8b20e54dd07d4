// A loaded, validated suite: its cases as written (CaseDecl), and the cases a
// run executes after matrix expansion (Case).
#pragma once

#include "check/requirement_level.hpp"
#include "common/input_error.hpp"

#include <conform/run_context.hpp>
#include <conform/value.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conform {

/// One `[[case.expect]]`: a check of the catalogue, its typed parameters
/// (defaults filled in), the requirement level it judges (`level`, default
/// expectation) and whether `conform run` accepts it NOT EXERCISED
/// (`may_be_unexercised`, default false).
struct ExpectDecl {
  std::string check;
  ValueMap params;
  SourcePos pos;
  RequirementLevel level = RequirementLevel::expectation;
  bool may_be_unexercised = false;
};

/// One `[[case.mutant]]`: overrides that break the behaviour under test, and
/// the checks that must then fail.
struct MutantDecl {
  /// The overrides as one readable line: `client.emit_max_streams=false`.
  std::string label;
  std::map<std::string, ValueMap> knobs;
  ValueMap params;
  ValueMap network;
  std::vector<std::string> fails;
  SourcePos pos;
};

/// One axis of a case's matrix: a key (`frames`, `client.initial_mtu`,
/// `network.rtt_ms`) and the values it takes, in order.
struct MatrixAxis {
  std::string key;
  std::vector<Value> values;
};

/// A `[[case]]` as written, validated against its plugin and the checks.
struct CaseDecl {
  SourcePos pos;
  std::string id;
  std::string summary;
  /// The section it tests, `9000§4.6`.
  std::string rfc;
  /// The requirement in our words with its level (MUST, SHOULD, MAY).
  std::string requirement;
  std::string plugin;
  std::string scenario;
  ValueMap params;
  std::map<std::string, ValueMap> knobs;
  ValueMap network;
  std::vector<MatrixAxis> matrix;
  /// Runs per (expanded) case, with seeds base .. base+seeds-1.
  std::int64_t seeds = 1;
  /// Per-case limit in seconds, overriding `--timeout`.
  std::optional<double> timeout_s;
  /// Why the case is expected to fail (XFAIL); passing then is XPASS.
  std::optional<std::string> xfail;
  /// Why the plugin cannot run it (a role it does not play); empty if it can.
  std::string unsupported;
  std::vector<ExpectDecl> expects;
  std::vector<MutantDecl> mutants;
};

/// One suite file.
struct SuiteFile {
  std::string path;
  std::string title;
  std::string rfc;
  std::vector<CaseDecl> cases;
};

/// A case as a run executes it: one point of its matrix, all defaults filled.
struct Case {
  const SuiteFile* suite = nullptr;
  const CaseDecl* decl = nullptr;
  /// Settings with the expanded id; the runner sets the seed.
  CaseSettings settings;
  const std::string& id() const { return settings.id; }
};

}  // namespace conform
