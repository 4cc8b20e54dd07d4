// A loaded, validated suite: its cases as written (CaseDecl), and the cases a
// run executes after matrix expansion (Case).
#pragma once

#include "check/requirement_level.hpp"
#include "common/input_error.hpp"
#include "net/net_config.hpp"

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
/// the check's own Check::level()) and whether `conform run` accepts it NOT EXERCISED
/// (`may_be_unexercised`, default false), and whether its scenario
/// parameters are bounds of its own that hold on captures made elsewhere
/// too (`applies_offline`, default false: check/scenario_need.hpp).
struct ExpectDecl {
  std::string check;
  ValueMap params;
  SourcePos pos;
  RequirementLevel level = RequirementLevel::expectation;
  bool may_be_unexercised = false;
  bool applies_offline = false;
};

/// One `[[case.mutant]]`: overrides that break the behaviour under test, and
/// the checks that must then fail.
struct MutantDecl {
  /// The overrides as one readable line: `client.emit_max_streams=false`.
  std::string label;
  std::map<std::string, ValueMap> knobs;
  ValueMap params;
  ValueMap network;
  /// Where each key of `network` was written.
  std::map<std::string, SourcePos> network_pos;
  std::vector<std::string> fails;
  SourcePos pos;
};

/// One axis of a case's matrix: a key (`frames`, `client.initial_mtu`,
/// `network.rtt_ms`) and the values it takes, in order.
struct MatrixAxis {
  std::string key;
  std::vector<Value> values;
  /// Where each of `values` was written.
  std::vector<SourcePos> positions;
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
  /// Where each key of `network` was written.
  std::map<std::string, SourcePos> network_pos;
  std::vector<MatrixAxis> matrix;
  /// Runs per (expanded) case, with seeds base .. base+seeds-1.
  std::int64_t seeds = 1;
  /// Per-case limit in seconds, overriding `--timeout`.
  std::optional<double> timeout_s;
  /// Why the case is expected to fail (XFAIL); passing then is XPASS.
  std::optional<std::string> xfail;
  /// Why the case has no [[case.mutant]] (its checks are proven able to
  /// fail elsewhere, or no knob can break what it shows).
  std::optional<std::string> no_mutant;
  /// Why the plugin cannot run it (a role it does not play); empty if it can.
  std::string unsupported;
  std::vector<ExpectDecl> expects;
  std::vector<MutantDecl> mutants;
  /// `network` read into link settings once, at load: one per point of the
  /// matrix's `network.*` axes (in expansion order, the last axis fastest;
  /// one when there are none), and the same for each mutant.
  std::vector<NetConfig> nets;
  std::vector<std::vector<NetConfig>> mutant_nets;
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
  /// Which of decl->nets (and of each of decl->mutant_nets) this point's
  /// `settings.network` is.
  std::size_t network_point = 0;
  const std::string& id() const { return settings.id; }
  /// The link settings of this point, or of `mutant` (one of decl->mutants) on it.
  const NetConfig& net(const MutantDecl* mutant) const {
    if (!mutant) return decl->nets.at(network_point);
    const auto k = static_cast<std::size_t>(mutant - decl->mutants.data());
    return decl->mutant_nets.at(k).at(network_point);
  }
};

}  // namespace conform
