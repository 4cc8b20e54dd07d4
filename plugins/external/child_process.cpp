// Spawning and stopping the third-party programs of a run.
#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace external {

bool executable_file(const std::string& path) {
  // A folder is "executable" (searchable) to access().
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

std::string program_path(const std::string& program, const std::vector<std::string>& first_dirs) {
  if (program.find('/') != std::string::npos) return executable_file(program) ? program : "";
  std::vector<std::string> dirs = first_dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string d; std::getline(ss, d, ':');)
      if (!d.empty()) dirs.push_back(d);
  }
  for (const char* d : {"/usr/local/sbin", "/usr/sbin", "/sbin"}) dirs.emplace_back(d);
  for (const auto& d : dirs) {
    const std::string candidate = d + "/" + program;
    if (executable_file(candidate)) return candidate;
  }
  return {};
}

namespace {

// The forked child until exec: async-signal-safe calls only (the parent may
// have threads). A failure's errno goes to `report` for the parent's message.
[[noreturn]] void exec_child(char* const* argv, char* const* envp, const char* out_path, const char* err_path,
                             const char* cwd, pid_t parent, int report) {
  // Dies with the run that started it, however that ends: a second Ctrl-C
  // kills conform and its runs outright, and no peer may outlive them.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  const int in = open("/dev/null", O_RDONLY);
  const int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in >= 0 && out >= 0 && err >= 0 && dup2(in, STDIN_FILENO) >= 0 && dup2(out, STDOUT_FILENO) >= 0 &&
      dup2(err, STDERR_FILENO) >= 0 && (!*cwd || chdir(cwd) == 0))
    execve(argv[0], argv, envp);
  const int error = errno;
  [[maybe_unused]] const auto sent = write(report, &error, sizeof error);
  _exit(127);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                           const std::string& log_prefix, const std::string& cwd)
    : err_path_(log_prefix + ".err") {
  std::vector<std::string> vars;
  for (char** e = environ; *e; ++e) {
    const std::string var = *e;
    if (!env.contains(var.substr(0, var.find('=')))) vars.push_back(var);
  }
  for (const auto& [k, v] : env) vars.push_back(k + "=" + v);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (auto& v : vars) envp.push_back(v.data());
  envp.push_back(nullptr);
  const std::string out_path = log_prefix + ".out";
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    error_ = "cannot start " + argv[0] + ": " + std::strerror(errno);
    return;
  }
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ == 0)
    exec_child(args.data(), envp.data(), out_path.c_str(), err_path_.c_str(), cwd.c_str(), parent, report[1]);
  close(report[1]);
  int error = errno;
  if (pid_ > 0) {
    // The pipe closes at a successful exec; an errno arrives if it failed.
    ssize_t n;
    while ((n = read(report[0], &error, sizeof error)) < 0 && errno == EINTR) {
    }
    if (n == static_cast<ssize_t>(sizeof error)) {
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  close(report[0]);
  if (pid_ <= 0) {
    pid_ = -1;
    error_ = "cannot start " + argv[0] + ": " + std::strerror(error);
  }
}

ChildProcess::~ChildProcess() {
  if (running()) stop(std::chrono::milliseconds(0));
}

void ChildProcess::reap(int status) {
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (WIFSIGNALED(status)) signal_ = WTERMSIG(status);
  pid_ = -1;
}

std::string ChildProcess::how_it_ended() const {
  if (!status_) return "it is still running";
  if (!signal_) return "exit status " + std::to_string(*status_);
  const char* abbrev = sigabbrev_np(*signal_);
  return "killed by " + (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(*signal_));
}

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) reap(status);
  return pid_ > 0;
}

std::optional<int> ChildProcess::wait_for(std::chrono::milliseconds limit, const std::function<bool()>& give_up) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (running()) {
    if (std::chrono::steady_clock::now() >= end || (give_up && give_up())) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status_;
}

int ChildProcess::wait() {
  int status = 0;
  if (pid_ > 0 && waitpid(pid_, &status, 0) == pid_) reap(status);
  return status_.value_or(-1);
}

void ChildProcess::signal_children(int signal) const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) + "/children");
  for (pid_t child; in >> child;) kill(child, signal);
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (running()) {
    // Its children too: `unshare --fork` blocks SIGTERM, the browser it
    // started does not.
    signal_children(SIGTERM);
    kill(pid_, SIGTERM);
    if (!wait_for(grace)) {
      // Children first, so that a parent that waits for them (unshare)
      // reaps them before it goes: none is left a zombie for init.
      signal_children(SIGKILL);
      wait_for(std::chrono::milliseconds(200));
      if (pid_ > 0) kill(pid_, SIGKILL);
      int status = 0;
      if (pid_ > 0 && waitpid(pid_, &status, 0) == pid_) reap(status);
    }
  }
  return status_.value_or(-1);
}

std::string ChildProcess::stderr_tail(std::size_t bytes) const {
  std::ifstream in(err_path_, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > bytes) text = "..." + text.substr(text.size() - bytes);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  // Error messages end with this: an empty tail would read as a lost reason.
  return text.empty() ? "it wrote nothing on stderr" : text;
}

}  // namespace external
