// The bounds a value may be held to (a ValueSpec's integer min/max, a float
// range), checked and worded in one place for the suite loader, the network
// settings and `conform plugins`.
#pragma once

#include <conform/value.hpp>

#include <string>

namespace conform {

/// Whether `value` lies outside `spec`'s bounds (min/max of an integer,
/// range of a float); a value of another type never does.
bool out_of_range(const ValueSpec& spec, const Value& value);
/// Whether `value` lies outside `range`; NaN lies outside any range.
bool out_of_range(const FloatRange& range, double value);

/// "from 1 to 1048576", "at least 0", "at most 9", or the float range's
/// words; "" when the spec has no bounds.
std::string range_text(const ValueSpec& spec);
/// "from 0 to 1", "above 0, at most 1".
std::string range_text(const FloatRange& range);

/// A number as a person writes it in a suite: 0, 0.5, 1e+06.
std::string format_number(double v);

}  // namespace conform
