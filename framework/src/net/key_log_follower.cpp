#include "net/key_log_follower.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>

namespace conform {

KeyLogFollower::~KeyLogFollower() {
  for (const File& f : files_)
    if (f.fd >= 0) close(f.fd);
}

void KeyLogFollower::follow(const std::string& path) {
  std::lock_guard lock(mutex_);
  files_.push_back({path, -1, {}});
}

bool KeyLogFollower::any() const {
  std::lock_guard lock(mutex_);
  return !files_.empty();
}

// Moves the whole lines of `f.partial` to `out`. A line longer than any
// key log line can be is dropped up to its newline, so that a file without
// newlines cannot grow the buffer without end.
void KeyLogFollower::take_lines(File& f, std::vector<std::string>& out) {
  std::size_t start = 0;
  for (std::size_t nl; (nl = f.partial.find('\n', start)) != std::string::npos; start = nl + 1) {
    if (!f.overlong) out.push_back(f.partial.substr(start, nl - start));
    f.overlong = false;
  }
  f.partial.erase(0, start);
  if (f.partial.size() > kMaxLine) {
    f.partial.clear();
    f.overlong = true;
  }
}

std::vector<std::string> KeyLogFollower::new_lines() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  std::array<char, 4096> buf;
  for (File& f : files_) {
    if (f.refused) continue;
    if (f.fd < 0) {
      // Non-blocking, and a regular file only: a FIFO or a device would
      // hold the relay's thread, or feed it without end.
      f.fd = open(f.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      if (f.fd < 0) continue;  // not written yet
      struct stat st {};
      if (fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f.fd);
        f.fd = -1;
        f.refused = true;
        continue;
      }
    }
    for (ssize_t n; (n = read(f.fd, buf.data(), buf.size())) > 0;) {
      f.partial.append(buf.data(), std::size_t(n));
      take_lines(f, out);
    }
  }
  return out;
}

}  // namespace conform
