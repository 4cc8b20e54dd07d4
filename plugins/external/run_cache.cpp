// What the external plugin's runs make once and share (run_cache.hpp).
#include "run_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace external {

namespace fs = std::filesystem;

RunCache::RunCache() : owner_(getpid()), made_at_(std::chrono::steady_clock::now()) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/conform-external-XXXXXX";
  if (mkdtemp(pattern.data()))
    root_ = pattern;
  else
    problem_ = "cannot make a private folder " + pattern + " for what the runs share (set TMPDIR)";
}

RunCache::~RunCache() {
  std::error_code ec;
  if (!root_.empty() && getpid() == owner_) fs::remove_all(root_, ec);
}

std::string RunCache::entry(const std::string& name, const std::function<std::string(const std::string&)>& make,
                            std::string& problem) const {
  if (root_.empty()) {
    problem = problem_;
    return {};
  }
  const auto days = std::chrono::duration_cast<std::chrono::hours>(std::chrono::steady_clock::now() - made_at_) / 24;
  const std::string path = root_ + "/" + name + "-day" + std::to_string(days.count());
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path;
  // Runs that ask at once wait for the first to make it: a browser
  // profile costs a CPU-second or more.
  const int lock = open((root_ + "/." + name + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (lock >= 0) flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) close(fd);
    }
  } unlock{lock};
  if (fs::is_directory(path, ec)) return path;
  // An entry that could not be made is not tried again by every run (a
  // hanging program would cost each its time limit).
  const std::string failed = root_ + "/." + name + ".failed";
  if (std::ifstream earlier(failed); earlier) {
    problem = std::string(std::istreambuf_iterator<char>(earlier), {});
    return {};
  }
  const std::string draft = root_ + "/.draft-" + std::to_string(getpid()) + "-" + name;
  fs::remove_all(draft, ec);
  if (!fs::create_directory(draft, ec)) {
    problem = "cannot make " + draft + ": " + ec.message();
    return {};
  }
  if (problem = make(draft); !problem.empty()) {
    fs::remove_all(draft, ec);
    std::ofstream(failed) << problem << " (in an earlier run of this conform; not tried again)";
    return {};
  }
  // Without the lock (it could not be opened), another run may have put
  // its own in place meanwhile: that one stays.
  fs::rename(draft, path, ec);
  if (ec) fs::remove_all(draft, ec);
  if (!fs::is_directory(path, ec)) {
    problem = "cannot put " + path + " in place";
    return {};
  }
  return path;
}

}  // namespace external
