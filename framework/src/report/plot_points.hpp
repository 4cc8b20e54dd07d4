// Points of a plotted series, thinned to what a plot can show.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace conform::report {

/// [[x, y], ...] of `points` (in x order). Above `max_points`, each of
/// max_points / 2 buckets keeps its lowest and highest point, in x order, so
/// a dip to zero or a spike still shows.
nlohmann::json thinned_points(const std::vector<std::pair<double, double>>& points, std::size_t max_points);

}  // namespace conform::report
