// Reading an endpoint's own qlog for the HTML report.
#include "report/endpoint_qlog.hpp"

#include "report/plot_points.hpp"

#include <fstream>
#include <map>
#include <vector>

namespace conform::report {

using nlohmann::json;

std::optional<EndpointQlog> read_endpoint_qlog(const std::string& path, std::int64_t t0_ns) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const double t0_ms = static_cast<double>(t0_ns) / 1e6;
  EndpointQlog out;
  std::map<std::string, std::vector<std::pair<double, double>>> metrics;
  std::string group, record;
  while (std::getline(in, record, '\x1e')) {
    const bool wanted = record.find("\"conform:streams_wanted\"") != std::string::npos;
    if (!wanted && record.find("\"recovery:metrics_updated\"") == std::string::npos) continue;
    const json e = json::parse(record, nullptr, false);
    if (e.is_discarded() || !e.contains("data") || !e.contains("time")) continue;
    const std::string g = e.value("group_id", "");
    if (group.empty()) group = g;
    if (g != group) continue;
    const double ms = e["time"].get<double>() - t0_ms;
    const json& d = e["data"];
    if (wanted) {
      out.wanted[d.value("stream_type", "unidirectional")].push_back({ms, d.value("count", 0)});
      continue;
    }
    for (const char* field : {"congestion_window", "bytes_in_flight", "pto_count"})
      if (d.contains(field) && d[field].is_number()) metrics[field].emplace_back(ms, d[field].get<double>());
  }
  for (const auto& [field, points] : metrics) out.recovery[field] = thinned_points(points, kMaxRecoveryPoints);
  return out;
}

}  // namespace conform::report
