// A built-in check run on a case folder as the runner runs it: looked up by
// name, its parameters' defaults filled in as the suite loader does.
#pragma once

#include "check/registry.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

namespace conform::test {

/// `params` with every default of `check`'s parameters that it does not set.
inline ValueMap with_check_defaults(const Check& check, ValueMap params) {
  for (const auto& spec : check.params())
    if (!params.count(spec.name) && spec.default_value) params[spec.name] = *spec.default_value;
  return params;
}

/// Check `name` judging the captures in `dir` (no scenario settings), the
/// test failing at once if there is no such check.
inline CheckResult evaluate_check(const std::string& name, const std::string& dir, ValueMap params = {}) {
  const Check* check = CheckRegistry::builtin().find(name);
  BOOST_TEST_REQUIRE(check != nullptr, name);
  const CaseSettings settings;
  return check->evaluate({dir, settings, with_check_defaults(*check, std::move(params))});
}

}  // namespace conform::test
