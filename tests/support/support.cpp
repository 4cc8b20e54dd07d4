// Test helpers.
#include "support/support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace conform::test {
namespace fs = std::filesystem;

std::string scratch_dir(const std::string& name) {
  // ctest -j runs the plain and the sanitizer builds of a test at once: each
  // binary gets its own folder so neither wipes the other's files.
  fs::path dir = fs::path(CONFORM_TEST_TMP) / program_invocation_short_name / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CommandResult run_conform(const std::vector<std::string>& args, const std::string& cwd,
                          const std::vector<std::string>& env) {
  return run_program(CONFORM_BINARY, args, cwd, env);
}

CommandResult run_program(const std::string& binary, const std::vector<std::string>& args, const std::string& cwd,
                          const std::vector<std::string>& env) {
  std::string tmp = scratch_dir("run_conform_io_" + std::to_string(getpid()));
  std::string out_path = tmp + "/out", err_path = tmp + "/err";
  std::vector<std::string> argv_s{binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_s{std::string("CONFORM_PLUGIN_PATH=") + CONFORM_TEST_PLUGIN_DIR};
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("CONFORM_PLUGIN_PATH=", 0) != 0) env_s.push_back(*e);
  for (const auto& e : env) {
    auto name = e.substr(0, e.find('=') + 1);
    std::erase_if(env_s, [&](const std::string& x) { return x.rfind(name, 0) == 0; });
    env_s.push_back(e);
  }
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv_s[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

}  // namespace conform::test
