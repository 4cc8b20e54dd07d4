// Where a command may write its reports: folders that exist and take a
// file, and never over one of its inputs or another output.
#include "common/output_files.hpp"

#include "common/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace conform {
namespace fs = std::filesystem;

// A report file must be writable before the run, not found unwritable after it.
void check_writable(const std::string& path, const char* option) {
  if (path.empty()) return;
  fs::path parent = fs::absolute(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw InputError({path}, std::string(option) + ": folder " + parent.string() + " does not exist");
  if (fs::is_directory(path, ec)) throw InputError({path}, std::string(option) + ": is a folder");
  // The report is written through a temporary file beside it: try one.
  fs::path probe = path + ".tmp." + std::to_string(getpid());
  int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  // /proc and read-only mounts say ENOENT or EROFS: name the folder that refuses.
  if (fd < 0)
    throw InputError({path}, std::string(option) + ": cannot create a file in " + parent.string() + ": " +
                                 std::strerror(errno));
  close(fd);
  fs::remove(probe, ec);
}

namespace {

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
}

// `path` is `folder` or lies below it, links and ".." resolved.
bool inside_folder(const std::string& path, const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return false;
  const fs::path f = fs::weakly_canonical(fs::absolute(folder), ec);
  const fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  return !ec && std::mismatch(f.begin(), f.end(), p.begin(), p.end()).first == f.end();
}

}  // namespace

void refuse_overwriting(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& out = outputs[i];
    if (out.path.empty()) continue;
    for (std::size_t k = 0; k < i; ++k)
      if (!outputs[k].path.empty() && same_file(out.path, outputs[k].path))
        throw InputError({out.path}, std::string(outputs[k].option) + " and " + out.option + " name the same file");
    for (const auto& in : inputs) {
      if (inside_folder(out.path, in))
        throw InputError({out.path}, std::string(out.option) + " is inside the input folder " + in +
                                         ": outputs are never written among the inputs");
      if (same_file(out.path, in))
        throw InputError({out.path}, std::string(out.option) + " names an input file (" + in +
                                         "): writing the report would overwrite it");
    }
  }
}

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return fmt::format("{}:{}", st.st_dev, st.st_ino);
  return "path:" + fs::absolute(path).lexically_normal().string();
}

void refuse_repeated(const std::vector<std::string>& inputs) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (auto [it, fresh] = first.emplace(file_identity(inputs[i]), i); !fresh)
      throw InputError({inputs[i]}, fmt::format("given twice (inputs {} and {}): each input is read once",
                                                it->second + 1, i + 1));
}

}  // namespace conform
