// A program the external plugin runs: forked and exec'd, stdout and stderr
// to files of the case folder, killed if the process that started it dies
// (PR_SET_PDEATHSIG), stopped with SIGTERM then SIGKILL, its children with
// it. The plugin runs in a process group of its own, so anything left
// behind dies with the case. The tests start their programs with it too
// (tests/support: run_program, BackgroundProgram).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <sys/types.h>

namespace external {

/// Whether `path` is a regular file this process may execute (a folder is
/// not, though access(X_OK) says it is).
bool executable_file(const std::string& path);

/// The absolute path of `program`: itself when it holds a '/', else the
/// first executable of that name in `first_dirs`, then $PATH, then
/// /usr/local/sbin, /usr/sbin, /sbin (Debian puts gtlsserver there, off a
/// user's PATH). Empty when there is none.
std::string program_path(const std::string& program, const std::vector<std::string>& first_dirs);

class ChildProcess {
 public:
  /// Starts `argv` (argv[0] an absolute path) with the environment of this
  /// process plus `env`, stdin from /dev/null, output to `<log_prefix>.out`
  /// and `.err`, in folder `cwd` (empty: this process's). On failure
  /// running() is false and error() says why.
  ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
               const std::string& log_prefix, const std::string& cwd = "");
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  const std::string& error() const { return error_; }
  /// Its process id while it runs (not yet reaped), else -1.
  pid_t pid() const { return pid_; }
  bool running();
  /// Waits until the program exits, `limit` passes or `give_up` (when
  /// given) turns true; its exit status (128 + signal when killed by one),
  /// or nothing when still running.
  std::optional<int> wait_for(std::chrono::milliseconds limit, const std::function<bool()>& give_up = {});
  /// Waits until the program exits; its exit status as wait_for's, -1 when
  /// it never started.
  int wait();
  /// SIGTERM to it and its children, up to `grace` to exit, then SIGKILL
  /// to its children and, unless it then ends within 200 ms, to it; the
  /// exit status.
  int stop(std::chrono::milliseconds grace);
  /// Once it ended: "exit status 3", or "killed by SIGSEGV" when a signal
  /// ended it.
  std::string how_it_ended() const;
  /// Whether a signal ended it.
  bool killed() const { return signal_.has_value(); }
  /// The last `bytes` of its stderr, for error messages; "it wrote nothing
  /// on stderr" when it wrote none.
  std::string stderr_tail(std::size_t bytes = 400) const;

 private:
  /// Sends `signal` to its children (/proc/PID/task/PID/children).
  void signal_children(int signal) const;
  void reap(int status);
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::optional<int> signal_;
  std::string error_;
  std::string err_path_;
};

}  // namespace external
