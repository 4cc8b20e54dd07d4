// A case's `network` table at every point of its matrix and under every
// mutant, read into link settings at load, so that a value no point can use
// is refused where it was written before anything runs.
#pragma once

#include "suite/model.hpp"
#include "suite/toml_value.hpp"

namespace conform::suite_detail {

/// Whether a matrix axis key (`network.rtt_ms`) sets a network value.
bool is_network_axis(const std::string& key);

/// Fills c.nets and c.mutant_nets (see CaseDecl) from c.network, the
/// matrix's `network.*` axes and each mutant's `network`. Each problem is
/// added once, at the mutant's, the matrix value's or the case's key, in
/// that order of precedence.
void read_network_points(CaseDecl& c, Problems& problems);

}  // namespace conform::suite_detail
