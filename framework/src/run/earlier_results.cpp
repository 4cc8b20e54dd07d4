// Finding and clearing an earlier run's results.
#include "run/earlier_results.hpp"

#include "run/record_json.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace conform {
namespace fs = std::filesystem;

namespace {

// Whether `folder` holds a verdict.json conform wrote.
bool holds_verdict(const fs::path& folder) {
  std::error_code ec;
  const fs::path verdict = folder / "verdict.json";
  if (!fs::is_regular_file(fs::symlink_status(verdict, ec))) return false;
  try {
    std::ifstream in(verdict, std::ios::binary);
    record_from_json(nlohmann::json::parse(in));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::vector<std::string> earlier_results(const std::string& out_dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(out_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
    if (!holds_verdict(it->path())) continue;
    found.push_back(fs::relative(it->path(), out_dir, ec).string());
    it.disable_recursion_pending();
  }
  return found;
}

void remove_earlier_results(const std::string& out_dir, const std::vector<std::string>& folders) {
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  for (const auto& f : folders) {
    const fs::path dir = (out / f).lexically_normal();
    std::error_code ec;
    fs::remove_all(dir, ec);
    remove_empty_folders(dir.parent_path().string(), out.string());
  }
}

void remove_empty_folders(const std::string& dir, const std::string& out_dir) {
  const fs::path out = fs::path(out_dir).lexically_normal();
  std::error_code ec;
  for (fs::path d = fs::path(dir).lexically_normal(); d != out && d.string().size() > out.string().size();
       d = d.parent_path())
    if (!fs::is_empty(d, ec) || ec || !fs::remove(d, ec)) break;
}

}  // namespace conform
