// Entering and leaving the run's network namespace.
#include "private_network.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace external {
namespace {

// Brings the current namespace's loopback up; empty, or why not.
std::string loopback_up() {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::string("socket: ") + std::strerror(errno);
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  std::string why;
  if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0) {
    why = std::string("SIOCGIFFLAGS lo: ") + std::strerror(errno);
  } else {
    ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP);
    if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0) why = std::string("SIOCSIFFLAGS lo: ") + std::strerror(errno);
  }
  close(fd);
  return why;
}

}  // namespace

PrivateNetwork::PrivateNetwork() {
  original_ = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original_ < 0) {
    problem_ = std::string("/proc/thread-self/ns/net: ") + std::strerror(errno);
    return;
  }
  if (unshare(CLONE_NEWNET) != 0) {
    problem_ = std::string("unshare(CLONE_NEWNET): ") + std::strerror(errno);
    return;
  }
  entered_ = true;
  problem_ = loopback_up();
  if (!problem_.empty()) {
    setns(original_, CLONE_NEWNET);
    entered_ = false;
  }
}

PrivateNetwork::~PrivateNetwork() {
  if (entered_) setns(original_, CLONE_NEWNET);
  if (original_ >= 0) close(original_);
}

}  // namespace external
