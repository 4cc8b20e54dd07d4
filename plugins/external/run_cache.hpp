// What the external plugin's runs make once and then share: the server
// certificates (two openssl key generations, ~50 ms a run) and browser
// profiles (Firefox spends a second making a new one). Each run is a
// process forked from the one that loaded the plugin and ends with _exit,
// so what one run made is kept on disk, in a private folder made before the
// first fork and removed by the process that made it. A conform that dies
// without unloading the plugin (SIGKILL, a second Ctrl-C) cannot remove
// it: while its maker lives, the folder's `.alive` file is locked (shared,
// inherited by the forked runs), and the next conform removes the folders
// whose lock nobody holds. flock must be shared by whoever shares $TMPDIR:
// a TMPDIR on a network file system where locks are only local to a host
// would let a conform on another host remove a living folder.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

namespace external {

class RunCache {
 public:
  /// Removes the folders of conforms gone, then makes the private folder
  /// under $TMPDIR (or /tmp); problem() if it cannot.
  RunCache();
  RunCache(const RunCache&) = delete;
  RunCache& operator=(const RunCache&) = delete;
  /// Removes the folder with what is in it, in the process that made it only.
  ~RunCache();

  const std::string& problem() const { return problem_; }

  /// The path of entry `name`, made by `make(folder)` (empty, or why not)
  /// the first time a run asks for it. `make` writes into a folder of its
  /// own that is renamed into place whole, so a run never sees half an
  /// entry; a run that asks while another makes it waits for that one.
  /// An entry is made again after a day (certificates are valid for two).
  /// Empty with `problem` set when it cannot be made; an entry that could
  /// not be made is not tried again: later runs get the same problem.
  std::string entry(const std::string& name, const std::function<std::string(const std::string&)>& make,
                    std::string& problem) const;

 private:
  std::string root_, problem_;
  pid_t owner_ = 0;
  int alive_ = -1;  // `.alive`, locked shared while this conform (or a run it forked) lives
  std::chrono::steady_clock::time_point made_at_;
};

}  // namespace external
