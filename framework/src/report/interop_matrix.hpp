// The interop matrix, as interop runners print it: one row per pair of
// implementations (client → server), one column per case, a verdict in each
// cell. A case takes part when both its `client` and `server` knobs hold a
// string `implementation` (the external plugin's profiles); other cases are
// left out, and a run without such cases prints nothing. Beside it, the same
// results as stacks × behaviours (behaviour_matrix.hpp).
#pragma once

#include "report/behaviour_matrix.hpp"
#include "report/reporter.hpp"

#include <conform/plugin.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace conform {

/// Each stack's name with its version: the value_labels of the
/// `implementation` knob of every plugin that has one.
std::map<std::string, std::string> stack_versions(const std::vector<const PluginInfo*>& plugins);

class InteropMatrixReporter final : public Reporter {
 public:
  /// Prints to `out` when the run ends; `versions` names each stack with
  /// its version (BehaviourMatrix::set_versions).
  explicit InteropMatrixReporter(std::FILE* out, std::map<std::string, std::string> versions = {}) : out_(out) {
    behaviours_.set_versions(std::move(versions));
  }
  void case_done(const CaseResult& result) override;
  void end(const RunTotals& totals) override;

  /// The JSON report's `interop` member (null when no case took part): `pairs` ("client → server" labels
  /// in first-run order), `cases` (case ids as declared), and `cells`
  /// ({client, server, case, id, status, headline}), and `behaviours`
  /// (BehaviourMatrix::to_json).
  nlohmann::json to_json() const;

 private:
  struct Cell {
    std::string client, server, case_id, id, status, headline;
  };
  std::FILE* out_;
  std::vector<Cell> cells_;
  std::vector<std::string> pairs_, cases_;
  BehaviourMatrix behaviours_;
};

}  // namespace conform
