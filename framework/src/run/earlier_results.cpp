// Recording, finding and clearing an earlier run's results.
#include "run/earlier_results.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace conform {
namespace fs = std::filesystem;

namespace {

// A manifest path conform could have written: relative, and never leaving
// the folder it is relative to.
bool stays_inside(const fs::path& p) {
  if (p.empty() || p.is_absolute()) return false;
  const fs::path normal = p.lexically_normal();
  return std::none_of(normal.begin(), normal.end(), [](const fs::path& part) { return part == ".."; });
}

// Whether a folder on the way from `out` to `file` is a link: a file is
// removed only where conform wrote it, never through a link put there since.
bool reaches_through_link(const fs::path& out, const fs::path& relative) {
  fs::path at = out;
  std::error_code ec;
  for (const auto& part : relative.parent_path()) {
    at /= part;
    if (fs::is_symlink(fs::symlink_status(at, ec))) return true;
  }
  return false;
}

bool is_run_folder(const fs::path& name) {
  const std::string s = name.string();
  return s.rfind("@seed-", 0) == 0 || s.rfind("@mutant-", 0) == 0;
}

}  // namespace

void record_results(const std::string& out_dir, const std::string& run_dir) {
  std::error_code ec;
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  const fs::path run = fs::absolute(run_dir).lexically_normal();
  nlohmann::json files = nlohmann::json::array();
  for (auto it = fs::recursive_directory_iterator(run, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    if (it->is_directory(ec)) {
      if (it.depth() == 0 && is_run_folder(it->path().filename())) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), run, ec).generic_string());
  }
  const nlohmann::json line = {{"folder", run.lexically_relative(out).generic_string()}, {"files", files}};
  std::ofstream(out / kResultsManifest, std::ios::app)
      << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

std::vector<EarlierRun> earlier_results(const std::string& out_dir) {
  std::vector<EarlierRun> runs;
  std::ifstream in(fs::path(out_dir) / kResultsManifest, std::ios::binary);
  for (std::string text; std::getline(in, text);) {
    try {
      const auto j = nlohmann::json::parse(text);
      EarlierRun run{j.at("folder").get<std::string>(), j.at("files").get<std::vector<std::string>>()};
      if (!stays_inside(run.folder) && run.folder != ".") continue;
      std::erase_if(run.files, [](const std::string& f) { return !stays_inside(f); });
      runs.push_back(std::move(run));
    } catch (const nlohmann::json::exception&) {
    }
  }
  return runs;
}

void remove_earlier_results(const std::string& out_dir, const std::vector<EarlierRun>& runs) {
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  for (const auto& run : runs) {
    const fs::path dir = (out / run.folder).lexically_normal();
    std::error_code ec;
    for (const auto& f : run.files) {
      const fs::path file = (dir / f).lexically_normal();
      if (reaches_through_link(out, file.lexically_relative(out))) continue;
      if (!fs::is_regular_file(fs::symlink_status(file, ec))) continue;
      fs::remove(file, ec);
      remove_empty_folders(file.parent_path().string(), out.string());
    }
    remove_empty_folders(dir.string(), out.string());
  }
  std::error_code ec;
  fs::remove(out / kResultsManifest, ec);
}

void remove_empty_folders(const std::string& dir, const std::string& out_dir) {
  const fs::path out = fs::path(out_dir).lexically_normal();
  std::error_code ec;
  for (fs::path d = fs::path(dir).lexically_normal(); d != out && d.string().size() > out.string().size();
       d = d.parent_path())
    if (!fs::is_empty(d, ec) || ec || !fs::remove(d, ec)) break;
}

}  // namespace conform
