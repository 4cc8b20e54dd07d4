// Matrix expansion: one Case per point of a case's matrix (the cartesian
// product of its axes, first axis slowest), with every default filled in.
#pragma once

#include "suite/loader.hpp"

namespace conform {

/// The cases of `suites` in file and declaration order. Ids of expanded
/// cases read `id[frames=200,client.initial_mtu=1500]`; a case without a
/// matrix keeps its id. Requires suites validated against `catalogue`.
/// Throws InputError when two cases come out with the same id (a matrix
/// repeating a value, or a written id equal to an expanded one).
std::vector<Case> expand_cases(const std::vector<std::unique_ptr<SuiteFile>>& suites,
                               const Catalogue& catalogue);

/// Sets `key` (as a matrix writes it: `frames`, `params.frames`,
/// `client.initial_mtu`, `network.rtt_ms`) to `value` in `settings`.
void apply_setting(CaseSettings& settings, const std::string& key, const Value& value);

/// `settings` with a mutant's overrides applied.
CaseSettings apply_mutant(CaseSettings settings, const MutantDecl& mutant);

}  // namespace conform
