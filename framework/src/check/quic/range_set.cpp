// Wording a RangeSet.
#include "check/quic/range_set.hpp"

#include <fmt/format.h>

namespace conform::quic_checks {

std::string format_ranges(const RangeSet& set, std::size_t shown) {
  std::string out = "[";
  std::size_t n = 0;
  for (const auto& [s, e] : set.ranges()) {
    if (n == shown) {
      out += fmt::format(", +{} more", set.ranges().size() - shown);
      break;
    }
    if (n++) out += ", ";
    out += e - s == 1 ? fmt::format("{}", s) : fmt::format("{}-{}", s, e - 1);
  }
  return out + "]";
}

}  // namespace conform::quic_checks
