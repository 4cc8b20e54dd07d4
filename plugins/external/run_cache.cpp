// What the external plugin's runs make once and share (run_cache.hpp).
#include "run_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace external {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "conform-external-";

// Removes the folders under `tmp` of conforms that died without removing
// them: this user's, whose `.alive` nobody holds locked, and those a conform
// died in the midst of making (`.alive-draft` alone, an hour old). A folder
// without either (made by an older conform) is left alone.
void remove_abandoned(const std::string& tmp) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    struct stat st {};
    if (name.rfind(kPrefix, 0) != 0 || lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid())
      continue;
    // Not blocking: a FIFO named .alive must not hold conform up.
    const int fd = open((entry.path() / ".alive").c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
      struct stat draft {};
      if (lstat((entry.path() / ".alive-draft").c_str(), &draft) == 0 && S_ISREG(draft.st_mode) &&
          time(nullptr) - draft.st_mtime > 3600)
        fs::remove_all(entry.path(), ec);
      continue;
    }
    struct stat alive {};
    if (fstat(fd, &alive) == 0 && S_ISREG(alive.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0)
      fs::remove_all(entry.path(), ec);
    close(fd);
  }
}

}  // namespace

RunCache::RunCache() : owner_(getpid()), made_at_(std::chrono::steady_clock::now()) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = tmp && *tmp ? tmp : "/tmp";
  remove_abandoned(dir);
  std::string pattern = dir + "/" + kPrefix + "XXXXXX";
  if (!mkdtemp(pattern.data())) {
    problem_ = "cannot make a private folder in " + dir + " (TMPDIR) for what the runs share: " + std::strerror(errno);
    return;
  }
  root_ = pattern;
  // Locked before it takes its name, so that no other conform finds it
  // unlocked.
  const std::string draft = root_ + "/.alive-draft";
  alive_ = open(draft.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (alive_ >= 0 && flock(alive_, LOCK_SH) == 0) rename(draft.c_str(), (root_ + "/.alive").c_str());
}

RunCache::~RunCache() {
  std::error_code ec;
  if (root_.empty() || getpid() != owner_) return;
  fs::remove_all(root_, ec);
  if (alive_ >= 0) close(alive_);
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
