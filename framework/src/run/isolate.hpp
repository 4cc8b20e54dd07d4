// Per-case isolation: each task runs in a forked child in a process group of
// its own, at most N at a time; a child that crashes or outlives its time
// limit is reported, killed with its whole group, and the others go on.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace conform {

/// Work for one child.
struct ChildTask {
  /// Runs in the child; what it returns is sent to the parent.
  std::function<std::string()> body;
  /// Wall-clock limit in seconds from the fork.
  double timeout_s = 60;
  /// The child's stdout and stderr are appended here (created if missing).
  std::string log_path;
};

/// How a child ended.
struct ChildResult {
  enum class End { exited, signaled, timed_out };
  End end = End::exited;
  /// Exit status (exited) or signal number (signaled).
  int code = 0;
  /// What the body returned; empty if the child died first.
  std::string output;
  double duration_s = 0;
};

/// Runs `tasks` in children, at most `jobs` at once, in task order, calling
/// `on_done(index, result)` in the parent as each ends. Installs SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT handlers for its duration that kill every
/// running child group before the parent dies; a child dies with a parent
/// killed by SIGKILL (PR_SET_PDEATHSIG); if anything throws, every running
/// child group is killed before the exception leaves. Throws
/// std::system_error if fork or pipe fails.
void run_isolated(const std::vector<ChildTask>& tasks, unsigned jobs,
                  const std::function<void(std::size_t, ChildResult)>& on_done);

/// "signal 11 (SIGSEGV: Segmentation fault)".
std::string describe_signal(int signal);

}  // namespace conform
