#include "capture/vantage.hpp"

#include "common/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace conform {

std::string describe(Vantage v) {
  switch (v) {
    case Vantage::client: return "the client's host";
    case Vantage::server: return "the server's host";
    case Vantage::path: return "the path between the endpoints";
    case Vantage::both: return "the one host both endpoints ran on";
  }
  return "the path between the endpoints";
}

Vantage vantage_by_name(std::string_view file) {
  if (file == "server.pcap") return Vantage::server;
  if (file == "loopback.pcap") return Vantage::both;
  if (file.starts_with("client") && file.ends_with(".pcap")) return Vantage::client;
  return Vantage::path;
}

std::optional<Vantage> folder_vantage(const std::string& folder) {
  const auto path = std::filesystem::path(folder) / kVantageFile;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  const auto v = parse_vantage(line);
  if (!v) throw InputError({path.string()}, fmt::format("'{}' is not a vantage: one of {}", line, kVantageNames));
  return v;
}

std::vector<std::pair<std::string, Vantage>> capture_vantages(const std::string& folder) {
  std::vector<std::pair<std::string, Vantage>> out;
  std::error_code ec;
  const auto given = folder_vantage(folder);
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
    if (entry.path().extension() == ".pcap") {
      const std::string name = entry.path().filename().string();
      out.emplace_back(name, given ? *given : vantage_by_name(name));
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace conform
