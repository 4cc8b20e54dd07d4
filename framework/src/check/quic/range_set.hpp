// The wording of a set of ranges in check summaries; the set itself is
// dissect::RangeSet.
#pragma once

#include "dissect/range_set.hpp"

#include <string>

namespace conform::quic_checks {

using dissect::RangeSet;

/// "[0-1124, 1178-1200]": inclusive ranges, as the `missing=[99-199]` of
/// streams_delivered reads; at most `shown` ranges, then "+N more".
std::string format_ranges(const RangeSet& set, std::size_t shown = 8);

}  // namespace conform::quic_checks
