// A case that states another file's rule: `rule_from = "FILE#ID"` takes the
// summary, rfc, requirement and expectations of the case ID in FILE (a path
// relative to the suite file), so that a rule judged against several kinds
// of peer (suites/violations in the simulator, suites/interop/violations.toml
// against third-party stacks) is written once. The case keeps its own
// plugin, scenario, knobs, matrix and mutants.
#pragma once

#include "suite/toml_value.hpp"

#include <map>
#include <memory>
#include <string>

namespace conform::suite_detail {

class RuleSources {
 public:
  /// The case table named by `table`'s `rule_from`; nullptr when it has
  /// none, or, after recording why, when it names no case or also writes a
  /// key the rule gives. `suite_path` is the file holding `table`.
  const toml::table* rule_of(const toml::table& table, const std::string& suite_path, Problems& problems);

 private:
  // Each file once per load, by its canonical path; nullptr when it could
  // not be read or parsed.
  const toml::table* file(const std::string& path, const toml::source_region& where, Problems& problems);
  std::map<std::string, std::unique_ptr<toml::table>> files_;
};

/// The keys a rule gives: a case with rule_from must not write them.
inline const char* const kRuleKeys[] = {"summary", "rfc", "requirement", "expect"};

}  // namespace conform::suite_detail
