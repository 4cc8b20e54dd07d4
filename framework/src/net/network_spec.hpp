// The settings a case's `network` table may hold: the path between client and
// server that the simulator (virtual time) or loopback relay (real time) models.
#pragma once

#include <conform/value.hpp>

#include <vector>

namespace conform {

/// Every key of a `network` table with its type, default and unit.
const std::vector<ValueSpec>& network_spec();

}  // namespace conform
