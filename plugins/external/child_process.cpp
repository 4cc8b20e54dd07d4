// Spawning and stopping the third-party programs of a run.
#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    error_ = "cannot start " + argv[0] + ": " + std::strerror(rc);
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

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (running()) {
    kill(pid_, SIGTERM);
    if (!wait_for(grace)) {
      kill(pid_, SIGKILL);
      int status = 0;
      if (waitpid(pid_, &status, 0) == pid_) reap(status);
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
