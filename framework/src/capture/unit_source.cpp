// Writing and reading a unit's reference to its capture.
#include "capture/unit_source.hpp"

#include "common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace conform {

namespace fs = std::filesystem;

void write_unit_source(const std::string& folder, const UnitSource& source) {
  const fs::path path = fs::path(folder) / kUnitSourceFile;
  std::ofstream out(path);
  out << nlohmann::json{{"capture", source.capture},
                        {"bytes", source.bytes},
                        {"frames", source.frames},
                        {"origin_ns", source.origin_ns},
                        {"vantage", source.vantage},
                        {"key_log", source.key_log}}
      << '\n';
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

std::optional<UnitSource> read_unit_source(const std::string& folder) {
  const fs::path path = fs::path(folder) / kUnitSourceFile;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(in);
    UnitSource source{j.at("capture").get<std::string>(), j.value("bytes", std::uint64_t{0}),
                      j.at("frames").get<std::vector<std::uint64_t>>(),
                      j.at("origin_ns").get<std::int64_t>(), j.value("vantage", std::string()),
                      j.value("key_log", std::string())};
    if (!std::is_sorted(source.frames.begin(), source.frames.end()))
      throw InputError({path.string()}, "frames are not in ascending order");
    return source;
  } catch (const nlohmann::json::exception& e) {
    throw InputError({path.string()}, std::string("not a unit's source: ") + e.what());
  }
}

void for_each_unit_datagram(const UnitSource& source,
                            const std::function<void(const CapturedDatagram&)>& on_datagram) {
  std::error_code ec;
  const auto bytes = fs::file_size(source.capture, ec);
  if (!ec && source.bytes && bytes != source.bytes)
    throw InputError({source.capture}, "not the capture conform check read: " + std::to_string(source.bytes) +
                                           " bytes then, " + std::to_string(bytes) + " now");
  // Read up to the connection's last record, not the rest of the capture.
  struct Past {};
  try {
    const auto summary = for_each_datagram(source.capture, [&](const CapturedDatagram& d) {
      if (!source.frames.empty() && d.frame > source.frames.back()) throw Past{};
      if (!std::binary_search(source.frames.begin(), source.frames.end(), d.frame)) return;
      CapturedDatagram shifted = d;
      shifted.time_ns -= source.origin_ns;
      on_datagram(shifted);
    });
    if (summary.damage && !source.frames.empty() && summary.records < source.frames.back())
      throw InputError({source.capture}, "not the capture conform check read: " + *summary.damage);
  } catch (const Past&) {
  }
}

}  // namespace conform
