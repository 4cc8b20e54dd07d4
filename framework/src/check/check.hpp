// A check: a named, parameterised judgement of one run of a case, made only
// from the run's captures, returning a verdict with evidence a person can open
// in Wireshark (capture file, frame number, time).
#pragma once

#include "check/requirement_level.hpp"

#include <conform/run_context.hpp>
#include <conform/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

/// How one check instance ends (docs/offline.md, "Verdict states").
enum class Verdict {
  pass,           ///< the behaviour under test occurred and met the requirement
  fail,           ///< it occurred and did not, or the run could not be read
  not_exercised,  ///< it never occurred (no limit reached, no probe): `summary` says what was looked for
  not_judged,     ///< the capture cannot show it (no keys, handshake incomplete): `summary` says why
  not_applicable, ///< offline, the expectation rests on the case's scenario: `summary` says which part
};

/// "PASS", "FAIL", "NOT EXERCISED", "NOT JUDGED", "NOT APPLICABLE": the
/// spelling of every report.
constexpr std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "PASS";
    case Verdict::fail: return "FAIL";
    case Verdict::not_exercised: return "NOT EXERCISED";
    case Verdict::not_judged: return "NOT JUDGED";
    case Verdict::not_applicable: return "NOT APPLICABLE";
  }
  return "FAIL";
}

/// The verdict spelled as `to_string` spells it, or nullopt.
constexpr std::optional<Verdict> parse_verdict(std::string_view text) {
  for (auto v : {Verdict::pass, Verdict::fail, Verdict::not_exercised, Verdict::not_judged, Verdict::not_applicable})
    if (text == to_string(v)) return v;
  return std::nullopt;
}

/// PASS when `ok`, else FAIL: for a behaviour that was exercised.
constexpr Verdict pass_if(bool ok) { return ok ? Verdict::pass : Verdict::fail; }

/// The verdict of one check on one run.
struct CheckResult {
  Verdict verdict = Verdict::fail;
  /// One line: what was measured against what was required
  /// ("received=99/200 missing=[99-199]"); for NOT EXERCISED what was looked
  /// for, for NOT JUDGED why the capture cannot tell.
  std::string summary;
  std::vector<Evidence> evidence;
};

/// What a case's scenario puts into a check parameter, so that a capture
/// made elsewhere, without that scenario, cannot be held to it.
enum class ScenarioPart {
  induced_fault,         ///< the fault the scenario provokes (a frame beyond a limit)
  expected_count,        ///< how much the scenario's application sends or opens
  simulated_path,        ///< a bound that holds on the case's simulated path (a time, an MTU)
  provoked_occurrences,  ///< how often the case's network makes a behaviour happen
  application_behaviour, ///< what the scenario's application does (reads at once, never resets)
};

/// "the case's induced fault", ...: how a NOT APPLICABLE reason names it.
constexpr std::string_view to_string(ScenarioPart p) {
  switch (p) {
    case ScenarioPart::induced_fault: return "the case's induced fault";
    case ScenarioPart::expected_count: return "the count the case's scenario sets";
    case ScenarioPart::simulated_path: return "a bound of the case's simulated path";
    case ScenarioPart::provoked_occurrences: return "occurrences the case's network provokes";
    case ScenarioPart::application_behaviour: return "the behaviour of the case's application";
  }
  return "the case's scenario";
}

/// A parameter that, when a case sets it (a value other than its default,
/// or any value when it has none), carries `part` of the case's scenario.
struct ScenarioParam {
  std::string param;
  ScenarioPart part;
};

/// What a check needs of where its capture was taken (docs/offline.md,
/// "Vantage"): whose host shows what it judges, and what it does with a
/// capture taken anywhere else.
struct VantageNeed {
  std::string at;         ///< "the receiver's host", "`by`'s host", "anywhere"
  std::string elsewhere;  ///< one sentence
};

/// Whether a check of `check_transport` (Check::transport()) reads a
/// connection of `connection_transport` ("QUIC", "TCP").
inline bool reads(std::string_view check_transport, std::string_view connection_transport) {
  return check_transport.empty() || check_transport == connection_transport ||
         (check_transport == "UDP" && connection_transport == "QUIC");
}

/// Captures already read and dissected by whoever calls the checks
/// (`conform check` dissects a capture once, not once per check): a check
/// family takes its own kind (quic_checks::QuicCaptures) in place of the
/// files of the artifact folder, and reads the files when it is not there.
struct PreparedCaptures {
  virtual ~PreparedCaptures() = default;
};

/// What a check may read: the run's artifact folder (captures, key log) and
/// the settings the run used, plus the parameters of its `[[case.expect]]`.
struct CheckInput {
  const std::string& artifact_dir;
  const CaseSettings& settings;
  /// The expect block's parameters, defaults filled in, types validated.
  const ValueMap& params;
  /// The folder's captures, already dissected, or nullptr.
  const PreparedCaptures* prepared = nullptr;
};

/// A check of the catalogue. Implementations are stateless and pure functions
/// of the captures; they report unreadable captures as a failed verdict whose
/// summary says so, a behaviour that never occurred as NOT EXERCISED, and
/// one the capture cannot show as NOT JUDGED.
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
  /// names a capture's connections ("QUIC", "TCP"), or "UDP": the
  /// datagrams of any connection over UDP, QUIC's included; empty: any.
  virtual std::string transport() const { return {}; }
  /// The parameters whose set values come from the case's scenario: on a
  /// capture made elsewhere an instance that sets one is NOT APPLICABLE
  /// (docs/offline.md). Every name is one of params().
  virtual std::vector<ScenarioParam> scenario_params() const { return {}; }
  /// For a check that judges what an endpoint knew: where that shows, and
  /// how a capture from elsewhere is judged; nullopt for one that reads
  /// only what any capture shows as such (counts, sizes, frames' contents).
  virtual std::optional<VantageNeed> vantage_need() const { return std::nullopt; }
  /// A parameter value its type allows but the check cannot judge with (a
  /// malformed list in a string): the parameter's name and why. The suite
  /// loader refuses the case at that parameter's position (exit 2).
  struct ParamProblem {
    std::string param;
    std::string why;
  };
  virtual std::optional<ParamProblem> param_problem(const ValueMap&) const { return std::nullopt; }
};

}  // namespace conform
