// Choosing cases by id glob (`--filter`) and by RFC section (`--section`).
#pragma once

#include "suite/model.hpp"

#include <string>
#include <vector>

namespace conform {

/// Whether `id` is selected by `glob` (fnmatch, `*` also crosses `/`), or
/// equals it exactly (ids with `[...]` are not globs of themselves).
bool id_matches(const std::string& id, const std::string& glob);

/// Whether `section` (`9000§4.6`) lies under `prefix`, matching at component
/// boundaries: `9000`, `9000§4` and `9000§4.6` select it; `9000§41` and
/// `900` do not.
bool section_matches(const std::string& section, const std::string& prefix);

/// The cases selected by any of `filters` (all when empty) and any of
/// `sections` (all when empty), in their order.
std::vector<Case> select_cases(std::vector<Case> cases, const std::vector<std::string>& filters,
                               const std::vector<std::string>& sections);

}  // namespace conform
