// Parsing and validating one `[[case]]` table: its fields, knobs, network,
// matrix, expectations and mutants (ARCHITECTURE.md, "The suite language").
#pragma once

#include "suite/loader.hpp"
#include "suite/rule_from.hpp"
#include "suite/toml_value.hpp"

#include <optional>

namespace conform::suite_detail {

/// The case in `table`, or nullopt when it is too broken to keep (its
/// problems are in `problems` either way). `rule` is what `table`'s
/// rule_from gave, which gives its summary, rfc, requirement and
/// expectations (suite/rule_from.hpp).
std::optional<CaseDecl> parse_case(const toml::table& table, const Catalogue& catalogue, Problems& problems,
                                   const Rule& rule = {});

}  // namespace conform::suite_detail
