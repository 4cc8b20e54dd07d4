// Thinning of plotted series.
#include "report/plot_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace conform::report {

namespace {

// A whole number as an integer: "1200", not "1200.0", in a page that holds
// hundreds of thousands of them.
nlohmann::json number(double v) {
  if (v == std::floor(v) && std::abs(v) < 9007199254740992.0) return static_cast<std::int64_t>(v);
  return v;
}

}  // namespace

nlohmann::json thinned_points(const std::vector<std::pair<double, double>>& points, std::size_t max_points) {
  nlohmann::json out = nlohmann::json::array();
  const std::size_t n = points.size();
  if (n <= max_points) {
    for (const auto& [x, y] : points) out.push_back({number(x), number(y)});
    return out;
  }
  const std::size_t buckets = max_points / 2;
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t from = b * n / buckets, to = (b + 1) * n / buckets;
    if (from == to) continue;
    auto lo = from, hi = from;
    for (auto i = from; i < to; ++i) {
      if (points[i].second < points[lo].second) lo = i;
      if (points[i].second > points[hi].second) hi = i;
    }
    for (auto i : {std::min(lo, hi), std::max(lo, hi)}) {
      out.push_back({number(points[i].first), number(points[i].second)});
      if (lo == hi) break;
    }
  }
  return out;
}

}  // namespace conform::report
