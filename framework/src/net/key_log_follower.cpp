#include "net/key_log_follower.hpp"

#include <fcntl.h>
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

std::vector<std::string> KeyLogFollower::new_lines() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  std::array<char, 4096> buf;
  for (File& f : files_) {
    if (f.fd < 0) f.fd = open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd < 0) continue;  // not written yet
    for (ssize_t n; (n = read(f.fd, buf.data(), buf.size())) > 0;) f.partial.append(buf.data(), std::size_t(n));
    std::size_t start = 0;
    for (std::size_t nl; (nl = f.partial.find('\n', start)) != std::string::npos; start = nl + 1)
      out.push_back(f.partial.substr(start, nl - start));
    f.partial.erase(0, start);
  }
  return out;
}

}  // namespace conform
