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

/// What a case's rule_from gave.
struct Rule {
  /// The case has a rule_from.
  bool named = false;
  /// The case it names; nullptr when it names none (the problem is
  /// recorded, and the case is not read further: it would only add
  /// problems about keys the rule was to give).
  const toml::table* table = nullptr;
};

/// The files rule_from names, each read once per load.
class RuleSources {
 public:
  /// The rule of `table`, a case of the file `suite_path`. A key of
  /// kRuleKeys that the case also writes is a problem, but the rule is
  /// still taken.
  Rule rule_of(const toml::table& table, const std::string& suite_path, Problems& problems);

 private:
  struct File {
    std::unique_ptr<toml::table> table;
    // Why it could not be read, as the end of a sentence about it.
    std::string why;
  };
  // The file at `path`, read and parsed once (a problem at a position in
  // it recorded that once).
  const File& file(const std::string& path, Problems& problems);
  std::map<std::string, File> files_;
};

/// The keys a rule gives: a case with rule_from must not write them.
inline const char* const kRuleKeys[] = {"summary", "rfc", "requirement", "expect"};

}  // namespace conform::suite_detail
