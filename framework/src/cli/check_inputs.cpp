// Captures and suites of `conform check`, from files, folders, patterns and lists.
#include "cli/check_inputs.hpp"

#include "common/input_error.hpp"
#include "common/output_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <glob.h>

namespace conform {
namespace fs = std::filesystem;

namespace {

bool is_capture_name(const fs::path& p) {
  const auto ext = p.extension().string();
  return ext == ".pcap" || ext == ".pcapng" || ext == ".cap";
}

bool hidden(const fs::path& p) { return p.filename().string().rfind('.', 0) == 0; }

// The files below `folder` that are suites and that are captures, each in
// path order; hidden files and folders are left out.
void files_below(const std::string& folder, std::vector<std::string>& suites, std::vector<std::string>& captures) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (hidden(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    if (it->path().extension() == ".toml") suites.push_back(it->path().string());
    if (is_capture_name(it->path())) captures.push_back(it->path().string());
  }
  if (ec) throw InputError({folder}, "cannot read the folder: " + ec.message());
  std::sort(suites.begin(), suites.end());
  std::sort(captures.begin(), captures.end());
}

bool is_pattern(const std::string& input) { return input.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> expand_pattern(const std::string& pattern) {
  glob_t found{};
  const int rc = glob(pattern.c_str(), 0, nullptr, &found);
  std::vector<std::string> out;
  if (rc == 0)
    for (std::size_t k = 0; k < found.gl_pathc; ++k) out.emplace_back(found.gl_pathv[k]);
  globfree(&found);
  return out;
}

class Sorter {
 public:
  // `lists`: whether `@LIST` names a list (not on a list's own lines).
  void add(const std::string& input, const SourcePos& from, bool lists = true) {
    std::error_code ec;
    if (lists && input.size() > 1 && input[0] == '@' && !fs::exists(input, ec))
      return add_list(input.substr(1), from);
    if (fs::is_directory(input, ec)) return add_folder(input, from);
    if (fs::exists(input, ec) || !is_pattern(input)) return add_file(input, from);
    const auto matches = expand_pattern(input);
    if (matches.empty()) throw InputError(from, from.line ? fmt::format("'{}' matches no file", input) : "matches no file");
    for (const auto& m : matches) add(m, from, false);
  }

  std::size_t captures_seen() const { return captures_seen_; }
  CheckInputs take() { return std::move(inputs_); }

 private:
  void add_file(const std::string& path, const SourcePos& from) {
    if (fs::path(path).extension() == ".toml") {
      if (from.line != 0) throw InputError(from, "a capture list names captures, not suites: " + path);
      inputs_.suites.push_back(path);
      return;
    }
    if (from.line != 0)
      if (std::error_code ec; !fs::exists(path, ec)) throw InputError(from, "no such capture file: " + path);
    if (std::error_code ec; fs::exists(path, ec))
      if (auto [it, fresh] = captures_.emplace(file_identity(path), from); !fresh)
        throw InputError(from, fmt::format("{} given twice (also from {}): each capture is judged once", path,
                                           it->second.str()));
    ++captures_seen_;
    inputs_.captures.push_back(path);
  }

  void add_folder(const std::string& folder, const SourcePos& from) {
    std::vector<std::string> suites, captures;
    files_below(folder, suites, captures);
    if (!suites.empty() && !captures.empty())
      throw InputError(from, fmt::format("{} holds both suite files (*.toml) and captures ({}): name the "
                                         "suite files or the captures",
                                         folder, kCaptureExtensions));
    if (captures.empty() && from.line != 0)
      throw InputError(from, fmt::format("no captures ({}) in the folder {}", kCaptureExtensions, folder));
    if (captures.empty()) {
      // A suite folder, or one the suite loader says holds no suite.
      inputs_.suites.push_back(folder);
      return;
    }
    for (const auto& c : captures) add_file(c, from);
  }

  void add_list(const std::string& list, const SourcePos& from) {
    std::ifstream in(list);
    if (std::error_code ec; !fs::is_regular_file(list, ec) || !in)
      throw InputError(from, "no such capture list (a file naming a capture, folder or pattern per line)");
    const fs::path base = fs::path(list).parent_path();
    std::string line;
    for (std::uint32_t n = 1; std::getline(in, line); ++n) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      const auto last = line.find_last_not_of(" \t\r");
      fs::path entry = line.substr(first, last - first + 1);
      if (entry.is_relative()) entry = base / entry;
      add(entry.string(), SourcePos{list, n, static_cast<std::uint32_t>(first + 1)}, false);
    }
  }

  CheckInputs inputs_;
  // Where each capture file was first named, by file_identity.
  std::map<std::string, SourcePos> captures_;
  std::size_t captures_seen_ = 0;
};

}  // namespace

CheckInputs sort_check_inputs(const std::vector<std::string>& inputs) {
  refuse_repeated(inputs);
  Sorter sorter;
  std::vector<std::string> gave_captures;
  for (const auto& input : inputs) {
    const std::size_t before = sorter.captures_seen();
    sorter.add(input, SourcePos{input});
    if (sorter.captures_seen() > before) gave_captures.push_back(input);
  }
  CheckInputs out = sorter.take();
  out.capture_inputs = std::move(gave_captures);
  return out;
}

}  // namespace conform
