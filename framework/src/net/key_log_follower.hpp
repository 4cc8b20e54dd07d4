// Key log files as their programs write them: the relay reads the lines
// appended since it last looked, so that it holds the secrets of a packet
// whose sender logged them before sending it (BoringSSL, Go's crypto/tls
// and the other stacks log a secret as it is derived). A file that does not
// exist yet is opened once it does; a line still being written waits for
// its newline. Only regular files are read (a FIFO or a device is left
// alone), and a line longer than kMaxLine is dropped.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace conform {

class KeyLogFollower {
 public:
  KeyLogFollower() = default;
  ~KeyLogFollower();
  KeyLogFollower(const KeyLogFollower&) = delete;
  KeyLogFollower& operator=(const KeyLogFollower&) = delete;

  /// Follows `path` from its start; callable from any thread.
  void follow(const std::string& path);
  /// Whether any file is followed.
  bool any() const;
  /// The whole lines appended to the followed files since the last call,
  /// each file's in order.
  std::vector<std::string> new_lines();

  /// Longer than any NSS key log line (a label, 64 and at most 128 hex
  /// digits): such a "line" is no key log's.
  static constexpr std::size_t kMaxLine = 4096;

 private:
  struct File {
    std::string path;
    int fd = -1;
    std::string partial;    ///< bytes after the last newline read
    bool overlong = false;  ///< dropping a line past kMaxLine up to its newline
    bool refused = false;   ///< not a regular file: never read
  };
  static void take_lines(File& f, std::vector<std::string>& out);
  mutable std::mutex mutex_;
  std::vector<File> files_;
};

}  // namespace conform
