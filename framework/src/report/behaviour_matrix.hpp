// Stacks × behaviours: the interop matrix turned toward the question a user
// of one stack asks ("does quic-go send STREAMS_BLOCKED?"). A behaviour is an
// expected check that judges one role: the role its `by` parameter names, or
// the one its name starts with (`client_buffers_early_packets`); its label is
// the check's name and, when set, its `dir` (`max_streams_extended uni`);
// connection_closed_with's is "answers violations: closes" at MUST and
// "answers violations: code named" below (n of m rules, each cell).
// Checks that judge the pair as a whole (streams_delivered,
// no_connection_error) stay in the pairs × cases matrix only.
//
// Each case run of a pair adds, for the implementation that played the
// judged role, one judgement: the check's verdict on the run (the worst over
// its seeds), or ERROR / TIMEOUT when the run ended before any check. A cell
// holds every judgement of its stack and behaviour: FAIL when any failed
// (at the highest level of those), else PASS when any passed, else the
// gravest of the others: ERROR, TIMEOUT, NOT JUDGED, NOT EXERCISED.
#pragma once

#include "run/result.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform {

/// Appends `s` to `list` unless it is there already: the rows and columns
/// of a matrix, in the order they are first seen.
void add_once(std::vector<std::string>& list, const std::string& s);

/// One case run's verdict on one behaviour of one stack.
struct BehaviourJudgement {
  std::string stack, role, behaviour;
  /// PASS, FAIL, NOT EXERCISED, NOT JUDGED, ERROR or TIMEOUT.
  std::string verdict;
  RequirementLevel level = RequirementLevel::expectation;
  /// The expanded case id (`interop/x[client.implementation=quic-go]`): the
  /// evidence is in its case block.
  std::string case_id;
};

/// The judgements a case result adds, given the implementation each role
/// played. None for an UNSUPPORTED or INTERRUPTED case: the pair never ran.
std::vector<BehaviourJudgement> behaviour_judgements(const CaseResult& r, const std::string& client,
                                                     const std::string& server);

class BehaviourMatrix {
 public:
  void add(std::vector<BehaviourJudgement> judgements);
  /// How each stack is named with its version (the `implementation` knob's
  /// value_labels): the rows' headers; a stack without one shows its name.
  void set_versions(std::map<std::string, std::string> versions) { versions_ = std::move(versions); }
  bool empty() const { return judgements_.empty(); }
  /// `stacks` and `behaviours` (first-seen order), `versions` (stack →
  /// its name with its version, for the stacks that have one) and `cells`: {stack,
  /// behaviour, role, verdict, level (of a FAIL, else null), passed, judged,
  /// judgements: [{id, verdict}]}. `judged` counts the judgements that passed
  /// or failed.
  nlohmann::json to_json() const;
  /// The matrix to_json wrote, read back (`conform report --markdown`).
  /// Throws std::invalid_argument (or nlohmann's type_error) with `where`
  /// left at the JSON pointer, below `base`, of the member at fault.
  static BehaviourMatrix from_json(const nlohmann::json& j, const std::string& base, std::string& where);
  /// The table, one row per stack, each cell `PASS 3/3`, `FAIL [SHOULD] 0/4`,
  /// with the runs that judged nothing counted after (`FAIL [MUST] 1/2 +1
  /// ERROR`: a peer that crashed).
  void print(std::FILE* out) const;
  /// The same table in Markdown: a header row, one row per stack.
  std::string markdown() const;

 private:
  struct Cell {
    std::string verdict;
    std::optional<RequirementLevel> level;
    std::size_t passed = 0, judged = 0;
    std::vector<const BehaviourJudgement*> judgements;
  };
  /// The verdict, level of a FAIL and counts of one cell's judgements.
  static Cell summarize(std::vector<const BehaviourJudgement*> judgements);
  /// Every cell with a judgement, by {stack, behaviour}: one pass over the
  /// judgements, so a matrix of many stacks and behaviours stays linear.
  std::map<std::pair<std::string, std::string>, Cell> cells() const;
  /// Each cell's text, [stack][behaviour]: "-" where no case asks it.
  std::vector<std::vector<std::string>> cell_texts() const;
  std::vector<BehaviourJudgement> judgements_;
  /// A row's header: the stack's version label, else its name.
  const std::string& row_label(const std::string& stack) const;
  std::vector<std::string> stacks_, behaviours_;
  std::map<std::string, std::string> versions_;
};

}  // namespace conform
