// Which instances of a check a mutant's `fails` entry names.
#pragma once

#include <conform/value.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform {

/// A `fails` entry of a `[[case.mutant]]`: a check name alone names every
/// `[[case.expect]]` of that check; `name[key=value,...]` names those whose
/// parameters (defaults filled in) hold each value, spelled as in expanded
/// case ids (`max_streams_extended[by=client,dir=uni]`). A case that
/// expects one check at both endpoints needs the second form, since a
/// mutant breaks one endpoint's behaviour and the other's instance passes.
struct CheckSelector {
  std::string check;
  std::vector<std::pair<std::string, std::string>> params;
};

/// Parses `text`; nullopt with `problem` set when the brackets or a
/// `key=value` pair are malformed.
std::optional<CheckSelector> parse_check_selector(const std::string& text, std::string& problem);

/// Whether the instance of `check` with `params` is one `selector` names.
bool selects(const CheckSelector& selector, const std::string& check, const ValueMap& params);

}  // namespace conform
