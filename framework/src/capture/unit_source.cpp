// Writing and reading a unit's reference to its capture.
#include "capture/unit_source.hpp"

#include "common/input_error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
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
// A unit's folder in its capture's: connection-N.
constexpr std::string_view kUnitFolderPrefix = "connection-";
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
    // Not what the parser last read: the key log's secrets.
    std::string what = e.what();
    if (const auto cut = what.find("; last read"); cut != std::string::npos) what.resize(cut);
    throw InputError({from}, "not a unit's source: " + what);
  }
}

// N of a folder named connection-N.
std::optional<std::size_t> unit_number(const fs::path& folder) {
  const std::string name = folder.filename().string();
  if (name.compare(0, kUnitFolderPrefix.size(), kUnitFolderPrefix) != 0) return std::nullopt;
  std::size_t n = 0;
  const char* end = name.data() + name.size();
  const auto [at, ec] = std::from_chars(name.data() + kUnitFolderPrefix.size(), end, n);
  if (ec != std::errc() || at != end) return std::nullopt;
  return n;
}

// The N of a line `{"connection": N, ...` (spaces allowed), nullopt when it
// does not start so.
std::optional<std::size_t> line_number_field(std::string_view line) {
  auto skip_space = [&] {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  };
  auto take = [&](std::string_view word) {
    skip_space();
    if (line.substr(0, word.size()) != word) return false;
    line.remove_prefix(word.size());
    return true;
  };
  if (!take("{") || !take("\"connection\"") || !take(":")) return std::nullopt;
  skip_space();
  std::size_t n = 0;
  const auto [after, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
  if (ec != std::errc()) return std::nullopt;
  line.remove_prefix(static_cast<std::size_t>(after - line.data()));
  if (!take(",") && !take("}")) return std::nullopt;
  return n;
}

// Where each unit's line starts in a sources file, found once per file: an
// HTML report of ten thousand connections looks up each of them. A line
// that names no connection, or one an earlier line named, is kept as a
// problem for the connections it could be (every unfound one), not for all.
struct SourcesIndex {
  std::uintmax_t size = 0;
  fs::file_time_type written;
  struct Line {
    std::uint64_t byte = 0;
    std::uint32_t number = 0;
  };
  std::unordered_map<std::size_t, Line> at;
  std::unordered_map<std::size_t, InputError> twice;  // a connection named again: what to say
  std::optional<InputError> unreadable;                 // the first line that names none
};

// Connection `n`'s line of `file`: its byte and line, nullopt when the file
// has none (and then `unreadable` holds the first line that names no
// connection, when there is one and it holds none yet). Throws the
// InputError naming the line when a second line names it.
std::optional<SourcesIndex::Line> find_line(const fs::path& file, std::size_t n,
                                            std::optional<InputError>& unreadable) {
  static std::mutex mutex;
  static std::map<std::string, SourcesIndex> indexes;
  std::lock_guard lock(mutex);
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  const auto written = fs::last_write_time(file, ec);
  auto it = indexes.find(file.string());
  if (it == indexes.end() || it->second.size != size || it->second.written != written) {
    SourcesIndex index{size, written, {}, {}, std::nullopt};
    std::ifstream in(file, std::ios::binary);
    std::string line;
    std::uint64_t byte = 0;
    for (std::uint32_t number = 1; std::getline(in, line); ++number, byte += line.size() + 1) {
      const SourcePos pos{file.string(), number, 1};
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const auto named = line_number_field(line);
      if (!named) {
        if (!index.unreadable) index.unreadable = InputError(pos, "not a unit's source: a line starts {\"connection\":N,");
        continue;
      }
      const auto [earlier, first] = index.at.emplace(*named, SourcesIndex::Line{byte, number});
      if (!first)
        index.twice.try_emplace(*named, InputError(pos, fmt::format("connection {} has a line already, line {}",
                                                                    *named, earlier->second.number)));
    }
    it = indexes.insert_or_assign(file.string(), std::move(index)).first;
  }
  const SourcesIndex& index = it->second;
  if (const auto twice = index.twice.find(n); twice != index.twice.end())
    throw twice->second;
  if (const auto found = index.at.find(n); found != index.at.end()) return found->second;
  if (index.unreadable && !unreadable) unreadable = index.unreadable;
  return std::nullopt;
}

// The sources files of a capture's folder, listed once per folder (a
// failing connection's folder made beside them changes nothing they hold);
// listed again by the caller when a connection is in none of them.
std::vector<fs::path> sources_files(const fs::path& root, bool again) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<fs::path>> listed;
  std::lock_guard lock(mutex);
  auto& files = listed[root.string()];
  if (!again && !files.empty()) return files;
  files.clear();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("connections", 0) == 0 && entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::string unit_folder_path(const std::string& root, std::size_t number) {
  return (fs::path(root) / (std::string(kUnitFolderPrefix) + std::to_string(number))).string();
}

std::string unit_sources_file(std::size_t job, std::size_t jobs) {
  return jobs ? "connections." + std::to_string(job) + "-of-" + std::to_string(jobs) + ".jsonl" : "connections.jsonl";
}

void remove_other_sources_files(const std::string& root, const std::string& keep) {
  const auto of = keep.rfind("-of-");
  const std::string same_jobs = of == std::string::npos ? keep : keep.substr(of);
  for (const auto& file : sources_files(root, true)) {
    const std::string name = file.filename().string();
    const bool kept = name == keep || (name.size() >= same_jobs.size() &&
                                       name.compare(name.size() - same_jobs.size(), same_jobs.size(), same_jobs) == 0);
    std::error_code ec;
    if (!kept) fs::remove(file, ec);
  }
}

UnitSourceWriter::UnitSourceWriter(const std::string& path) : path_(path), out_(path, std::ios::binary) {
  if (!out_) throw InputError({path_}, std::string("cannot write: ") + std::strerror(errno));
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
  if (!out_) throw InputError({path_}, "cannot write (is the disk full?)");
}

std::optional<UnitSource> read_unit_source(const std::string& folder) {
  const fs::path path(folder);
  std::optional<InputError> unreadable;
  if (const auto n = unit_number(path))
    for (const bool again : {false, true})
      for (const auto& file : sources_files(path.parent_path(), again))
        if (const auto line = find_line(file, *n, unreadable)) {
          std::ifstream in(file, std::ios::binary);
          in.seekg(static_cast<std::streamoff>(line->byte));
          std::string text;
          std::getline(in, text);
          return parse_source(text, file.string() + ":" + std::to_string(line->number));
        }
  const fs::path file = path / kFolderSourceFile;
  std::ifstream in(file, std::ios::binary);
  if (!in && unreadable) throw *unreadable;  // its line may be the one that names no connection
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
