// Thinning of plotted series.
#include "report/plot_points.hpp"

#include <algorithm>

namespace conform::report {

nlohmann::json thinned_points(const std::vector<std::pair<double, double>>& points, std::size_t max_points) {
  nlohmann::json out = nlohmann::json::array();
  const std::size_t n = points.size();
  if (n <= max_points) {
    for (const auto& [x, y] : points) out.push_back({x, y});
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
      out.push_back({points[i].first, points[i].second});
      if (lo == hi) break;
    }
  }
  return out;
}

}  // namespace conform::report
