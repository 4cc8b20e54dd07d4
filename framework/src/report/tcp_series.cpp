// Window and transfer series of a TCP flow.
#include "report/tcp_series.hpp"

#include "report/plot_points.hpp"

namespace conform::report {
namespace {

using nlohmann::json;

double ms_since(std::int64_t t, std::int64_t t0) { return static_cast<double>(t - t0) / 1e6; }

json window_points(const std::vector<tcp::WindowAdvert>& windows, std::int64_t t0) {
  std::vector<std::pair<double, double>> points;
  points.reserve(windows.size());
  for (const auto& w : windows) points.emplace_back(ms_since(w.at.time_ns, t0), static_cast<double>(w.bytes));
  return thinned_points(points, kMaxWindowPoints);
}

}  // namespace

json tcp_series(const tcp::Flow& flow) {
  const std::int64_t t0 = flow.first.time_ns;
  json transfers = json::array();
  for (std::size_t i = 0; i < flow.transfers.size(); ++i) {
    const auto& t = flow.transfers[i];
    transfers.push_back({{"index", i + 1},
                         {"ms", static_cast<double>(t.duration_ns()) / 1e6},
                         {"request_bytes", t.request_bytes},
                         {"response_bytes", t.response_bytes},
                         {"first_frame", t.first_request.frame},
                         {"answered", t.answered()},
                         {"longest_gap_ms", static_cast<double>(t.longest_gap.ns()) / 1e6}});
  }
  return {{"flow", flow.name()},
          {"t0_ns", t0},
          {"windows", {{"initiator", window_points(flow.dir[0].windows, t0)},
                       {"responder", window_points(flow.dir[1].windows, t0)}}},
          {"transfers", transfers}};
}

}  // namespace conform::report
