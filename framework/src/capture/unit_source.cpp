// Writing and reading a unit's reference to its capture.
#include "capture/unit_source.hpp"

#include "common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <unordered_map>
#include <filesystem>
#include <fstream>

namespace conform {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLinePrefix = "{\"connection\":";
// Where conform check kept a unit's source before the capture's one file.
constexpr std::string_view kFolderSourceFile = "source.json";

UnitSource parse_source(std::string_view text, const std::string& from) {
  try {
    const auto j = nlohmann::json::parse(text);
    UnitSource source{j.at("capture").get<std::string>(), j.value("bytes", std::uint64_t{0}),
                      j.at("frames").get<std::vector<std::uint64_t>>(),
                      j.at("origin_ns").get<std::int64_t>(), j.value("vantage", std::string()),
                      j.value("key_log", std::string()), from};
    if (!std::is_sorted(source.frames.begin(), source.frames.end()))
      throw InputError({from}, "frames are not in ascending order");
    return source;
  } catch (const nlohmann::json::exception& e) {
    throw InputError({from}, std::string("not a unit's source: ") + e.what());
  }
}

// N of a folder named connection-N.
std::optional<std::size_t> unit_number(const fs::path& folder) {
  const std::string name = folder.filename().string();
  constexpr std::string_view prefix = "connection-";
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  std::size_t n = 0;
  const char* end = name.data() + name.size();
  const auto [at, ec] = std::from_chars(name.data() + prefix.size(), end, n);
  if (ec != std::errc() || at != end) return std::nullopt;
  return n;
}

// Where each unit's line starts in a sources file, found once per file: an
// HTML report of ten thousand connections looks up each of them.
struct SourcesIndex {
  std::uintmax_t size = 0;
  fs::file_time_type written;
  std::unordered_map<std::size_t, std::pair<std::uint64_t, std::size_t>> at;  // number -> (byte, line)
};

const SourcesIndex& index_of(const fs::path& file) {
  static std::mutex mutex;
  static std::map<std::string, SourcesIndex> indexes;
  std::lock_guard lock(mutex);
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  const auto written = fs::last_write_time(file, ec);
  if (const auto it = indexes.find(file.string());
      it != indexes.end() && it->second.size == size && it->second.written == written)
    return it->second;
  SourcesIndex index{size, written, {}};
  std::ifstream in(file, std::ios::binary);
  std::string line;
  std::uint64_t offset = 0;
  for (std::size_t number = 1; std::getline(in, line); ++number, offset += line.size() + 1) {
    std::size_t n = 0;
    const char* end = line.data() + line.size();
    const auto [after, error] = line.compare(0, kLinePrefix.size(), kLinePrefix) == 0
                                    ? std::from_chars(line.data() + kLinePrefix.size(), end, n)
                                    : std::from_chars_result{line.data(), std::errc::invalid_argument};
    if (error != std::errc() || after == end || *after != ',')
      throw InputError({file.string(), static_cast<std::uint32_t>(number), 1}, "not a unit's source: a line starts {\"connection\":N,");
    index.at.emplace(n, std::make_pair(offset, number));
  }
  return indexes[file.string()] = std::move(index);
}

}  // namespace

std::string unit_folder_path(const std::string& root, std::size_t number) {
  return (fs::path(root) / ("connection-" + std::to_string(number))).string();
}

std::string unit_sources_file(std::size_t job, std::size_t jobs) {
  return jobs ? "connections." + std::to_string(job) + "-of-" + std::to_string(jobs) + ".jsonl" : "connections.jsonl";
}

UnitSourceWriter::UnitSourceWriter(const std::string& path) : path_(path), out_(path, std::ios::binary) {
  if (!out_) throw std::runtime_error(path_ + ": cannot write");
}

void UnitSourceWriter::write(std::size_t number, const UnitSource& source) {
  const std::string rest = nlohmann::json{{"capture", source.capture},
                                          {"bytes", source.bytes},
                                          {"frames", source.frames},
                                          {"origin_ns", source.origin_ns},
                                          {"vantage", source.vantage},
                                          {"key_log", source.key_log}}
                               .dump();
  out_ << kLinePrefix << number << ',' << std::string_view(rest).substr(1) << '\n';
}

void UnitSourceWriter::close() {
  out_.close();
  if (!out_) throw std::runtime_error(path_ + ": cannot write");
}

std::optional<UnitSource> read_unit_source(const std::string& folder) {
  const fs::path path(folder);
  if (const auto n = unit_number(path)) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path.parent_path(), ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("connections", 0) == 0 && entry.path().extension() == ".jsonl") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const auto& index = index_of(file);
      const auto it = index.at.find(*n);
      if (it == index.at.end()) continue;
      std::ifstream in(file, std::ios::binary);
      in.seekg(static_cast<std::streamoff>(it->second.first));
      std::string line;
      std::getline(in, line);
      return parse_source(line, file.string() + ":" + std::to_string(it->second.second));
    }
  }
  const fs::path file = path / kFolderSourceFile;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_source(text, file.string());
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
