// Per-case isolation: each task runs in a forked child in a process group of
// its own, at most N at a time; a child that crashes or outlives its time
// limit is reported, killed with its whole group, and the others go on. A
// child ended early (time limit, interruption) with a grace period is first
// asked to stop (SIGTERM, stop_requested()), so that it can end and reap
// the programs it started and remove its files; its group is killed when it
// has ended or the grace is over.
#pragma once

#include "run/interruption.hpp"

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
  /// Seconds the child may take to end once asked to (PluginInfo::
  /// stop_grace_ms); 0: its group is killed at once.
  double stop_grace_s = 0;
};

/// How a child ended.
struct ChildResult {
  /// interrupted: killed because the run was asked to stop (Interruption).
  enum class End { exited, signaled, timed_out, interrupted };
  End end = End::exited;
  /// Exit status (exited), signal number (signaled), or the signal the
  /// interruption caught (interrupted).
  int code = 0;
  /// What the body returned; empty if the child died first.
  std::string output;
  double duration_s = 0;
};

/// Runs `tasks` in children, at most `jobs` at once, in task order, calling
/// `on_done(index, result)` in the parent as each ends. Once `interruption`
/// has caught a signal it starts no more tasks, ends every running child
/// (at once, or after its grace) and reports each as End::interrupted, then
/// returns; the tasks never started get no call. A child dies with a parent
/// killed outright (PR_SET_PDEATHSIG); if anything throws, every running
/// child group is killed before the exception leaves. Throws
/// std::system_error if fork or pipe fails.
void run_isolated(const std::vector<ChildTask>& tasks, unsigned jobs, Interruption& interruption,
                  const std::function<void(std::size_t, ChildResult)>& on_done);

/// In a child of run_isolated: whether the parent asked it to stop early
/// (only a task with a grace period is asked).
bool stop_requested();

/// "SIGSEGV" for 11; "signal 200" for a number with no name.
std::string signal_name(int signal);

/// How a child killed by `signal` ended: "killed by SIGSEGV (Segmentation fault)".
std::string describe_signal(int signal);

}  // namespace conform
