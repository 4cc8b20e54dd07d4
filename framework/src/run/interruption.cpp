// The self-pipe behind Interruption.
#include "run/interruption.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>

namespace conform {
namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The pipe's write end, for the handler; -1 when no Interruption lives.
volatile sig_atomic_t g_write_fd = -1;
std::array<struct sigaction, std::size(kStopSignals)> g_previous{};

// Async-signal-safe: one write(2), errno kept for the code it interrupted.
void on_stop_signal(int sig) {
  const int saved = errno;
  const unsigned char number = static_cast<unsigned char>(sig);
  if (g_write_fd >= 0) [[maybe_unused]] ssize_t n = write(g_write_fd, &number, 1);
  errno = saved;
}

}  // namespace

Interruption::Interruption() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  g_write_fd = write_fd_;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  // SA_RESETHAND: the second signal meets the default action and ends the
  // process; SA_RESTART: system calls of the loops are not cut short.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < g_previous.size(); ++i) sigaction(kStopSignals[i], &action, &g_previous[i]);
}

Interruption::~Interruption() {
  for (std::size_t i = 0; i < g_previous.size(); ++i) sigaction(kStopSignals[i], &g_previous[i], nullptr);
  g_write_fd = -1;
  close(read_fd_);
  close(write_fd_);
}

void Interruption::reset_in_child() {
  for (int sig : kStopSignals) ::signal(sig, SIG_DFL);
  g_write_fd = -1;
}

int Interruption::signal() {
  unsigned char number = 0;
  while (read(read_fd_, &number, 1) == 1)
    if (caught_ == 0) caught_ = number;
  return caught_;
}

}  // namespace conform
