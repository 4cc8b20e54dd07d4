// fork, a pipe per child, poll, waitpid, and kill on deadline.
#include "run/isolate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>

namespace conform {
namespace {

using Clock = std::chrono::steady_clock;

// Set in a child by the SIGTERM conform sends to stop it early: a flag is all
// a signal handler may safely touch.
std::atomic<bool> stop_request{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_request(int) { stop_request.store(true); }

struct Running {
  std::size_t index;
  pid_t pid;
  int fd;
  Clock::time_point started;
  Clock::time_point deadline;
  /// How long it may take to end once asked (ChildTask::stop_grace_s).
  Clock::duration grace;
  std::string output;
  /// Set once conform ends it early: how it is reported (timed out,
  /// interrupted) with the code and time of the report, and when its group
  /// is killed if it has not ended by then.
  std::optional<ChildResult::End> ending;
  int ending_code = 0;
  Clock::time_point ending_at, kill_at;
};

[[noreturn]] void child_main(const ChildTask& task, int write_fd, pid_t parent) {
  setpgid(0, 0);
  Interruption::reset_in_child();
  // A parent killed with SIGKILL cannot clean up: the child dies with it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (task.stop_grace_s > 0) {
    struct sigaction stop {};
    stop.sa_handler = on_stop_request;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTERM, &stop, nullptr);
  }
  if (getppid() != parent) _exit(5);
  int log = open(task.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log >= 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    close(log);
  }
  std::string out;
  // Nothing may unwind out of the child into the parent's code.
  try {
    out = task.body();
  } catch (...) {
    std::fflush(nullptr);
    _exit(4);
  }
  // _exit skips stdio's exit flush: push what the body printed to the log.
  std::fflush(nullptr);
  std::size_t sent = 0;
  while (sent < out.size()) {
    ssize_t n = write(write_fd, out.data() + sent, out.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    sent += static_cast<std::size_t>(n);
  }
  _exit(0);
}

Running start(const ChildTask& task, std::size_t index) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::fflush(nullptr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int error = errno;
    close(fds[0]);
    close(fds[1]);
    throw std::system_error(error, std::generic_category(), "fork");
  }
  if (pid == 0) {
    close(fds[0]);
    child_main(task, fds[1], parent);
  }
  close(fds[1]);
  setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  const auto now = Clock::now();
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  return {index, pid, fds[0], now, now + seconds(task.timeout_s), seconds(std::max(0.0, task.stop_grace_s)), {},
          std::nullopt, 0, {}, {}};
}

void drain(Running& r) {
  char buf[65536];
  while (true) {
    ssize_t n = read(r.fd, buf, sizeof buf);
    if (n > 0) {
      r.output.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return;
  }
}

// Ends `r` early, to be reported as `end` with `code`: asks it to stop
// (SIGTERM) when it has a grace period, else kills its group at once.
void begin_ending(Running& r, ChildResult::End end, int code, Clock::time_point now) {
  if (r.ending) return;
  r.ending = end;
  r.ending_code = code;
  r.ending_at = now;
  r.kill_at = now + r.grace;
  if (r.grace > Clock::duration::zero())
    kill(r.pid, SIGTERM);
  else
    kill(-r.pid, SIGKILL);
}

// Reaps `r` if it has ended (past its deadline it is ended, and past its
// grace its group is killed); returns the result when it is over.
std::optional<ChildResult> poll_child(Running& r, Clock::time_point now) {
  int status = 0;
  if (waitpid(r.pid, &status, WNOHANG) == 0) {
    if (now >= r.deadline) begin_ending(r, ChildResult::End::timed_out, 0, now);
    if (!r.ending || now < r.kill_at) return std::nullopt;
    kill(-r.pid, SIGKILL);
    waitpid(r.pid, &status, 0);
  }
  ChildResult result;
  if (r.ending) {
    result.end = *r.ending;
    result.code = r.ending_code;
  } else if (WIFSIGNALED(status)) {
    result.end = ChildResult::End::signaled;
    result.code = WTERMSIG(status);
  } else {
    result.code = WEXITSTATUS(status);
  }
  kill(-r.pid, SIGKILL);  // whatever the child started dies with it
  drain(r);
  close(r.fd);
  // What a run stopped early managed to say is not its result.
  if (result.end != ChildResult::End::interrupted) result.output = std::move(r.output);
  result.duration_s = std::chrono::duration<double>((r.ending ? r.ending_at : now) - r.started).count();
  return result;
}

}  // namespace

void run_isolated(const std::vector<ChildTask>& tasks, unsigned jobs, Interruption& interruption,
                  const std::function<void(std::size_t, ChildResult)>& on_done) {
  jobs = std::max(1u, jobs);
  std::vector<Running> running;
  // Whatever ends the loop early (fork failing, on_done throwing), no child
  // may outlive it.
  auto kill_running = [&] {
    for (auto& r : running) {
      kill(-r.pid, SIGKILL);
      waitpid(r.pid, nullptr, 0);
      close(r.fd);
    }
    running.clear();
  };
  try {
    std::size_t next = 0;
    while (next < tasks.size() || !running.empty()) {
      const int signal = interruption.signal();
      if (signal) {
        for (auto& r : running) begin_ending(r, ChildResult::End::interrupted, signal, Clock::now());
        if (running.empty()) return;
      }
      while (!signal && next < tasks.size() && running.size() < jobs) running.push_back(start(tasks[next], next)), ++next;
      // The interruption's pipe wakes the poll: a stop request is seen at once.
      std::vector<pollfd> fds;
      if (!signal) fds.push_back({interruption.fd(), POLLIN, 0});
      for (const auto& r : running) fds.push_back({r.fd, POLLIN, 0});
      poll(fds.data(), fds.size(), 20);
      auto now = Clock::now();
      for (auto it = running.begin(); it != running.end();) {
        drain(*it);
        if (auto result = poll_child(*it, now)) {
          std::size_t index = it->index;
          it = running.erase(it);
          on_done(index, std::move(*result));
        } else {
          ++it;
        }
      }
    }
  } catch (...) {
    kill_running();
    throw;
  }
}

bool stop_requested() { return stop_request.load(); }

std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::string describe_signal(int signal) {
  const char* text = strsignal(signal);
  return "killed by " + signal_name(signal) + (text ? std::string(" (") + text + ")" : "");
}

}  // namespace conform
