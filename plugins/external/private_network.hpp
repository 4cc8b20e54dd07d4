// A private network namespace for one run: the third-party programs, the
// server's socket and the framework's relay all live in a namespace whose
// only interface is loopback, so nothing a peer sends can leave the machine
// (issue 17, "Safety"). Entered by the plugin's thread before it binds or
// starts anything; the relay's thread and every program started after
// inherit it.
#pragma once

#include <string>

namespace external {

class PrivateNetwork {
 public:
  /// Moves the calling thread into a new network namespace (unshare(2)
  /// CLONE_NEWNET, which needs CAP_SYS_ADMIN) and brings its `lo` up. When
  /// the kernel refuses, the thread stays where it was and problem() says
  /// why.
  PrivateNetwork();
  /// Back to the namespace the thread came from.
  ~PrivateNetwork();
  PrivateNetwork(const PrivateNetwork&) = delete;
  PrivateNetwork& operator=(const PrivateNetwork&) = delete;

  const std::string& problem() const { return problem_; }

 private:
  int original_ = -1;
  bool entered_ = false;
  std::string problem_;
};

}  // namespace external
