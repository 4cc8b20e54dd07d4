// Range checks and their wording.
#include "common/value_range.hpp"

#include <fmt/format.h>

namespace conform {

bool out_of_range(const ValueSpec& spec, const Value& value) {
  if (const auto* d = std::get_if<double>(&value)) return spec.range && out_of_range(*spec.range, *d);
  const auto* i = std::get_if<std::int64_t>(&value);
  return i && ((spec.min && *i < *spec.min) || (spec.max && *i > *spec.max));
}

bool out_of_range(const FloatRange& r, double v) {
  const bool above_min = r.min_excluded ? v > r.min : v >= r.min;
  return !(above_min && v <= r.max);
}

std::string format_number(double v) { return fmt::format("{}", v); }

std::string range_text(const ValueSpec& spec) {
  if (spec.range) return range_text(*spec.range);
  if (spec.min && spec.max) return "from " + std::to_string(*spec.min) + " to " + std::to_string(*spec.max);
  if (spec.min) return "at least " + std::to_string(*spec.min);
  if (spec.max) return "at most " + std::to_string(*spec.max);
  return "";
}

std::string range_text(const FloatRange& r) {
  if (r.min_excluded) return "above " + format_number(r.min) + ", at most " + format_number(r.max);
  return "from " + format_number(r.min) + " to " + format_number(r.max);
}

}  // namespace conform
