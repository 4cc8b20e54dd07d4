// Test helpers.
#include "support/support.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

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

namespace {

std::map<std::string, std::string> environment(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> vars{{"CONFORM_PLUGIN_PATH", CONFORM_TEST_PLUGIN_DIR}};
  for (const auto& e : entries) {
    const auto eq = e.find('=');
    vars[e.substr(0, eq)] = eq == std::string::npos ? "" : e.substr(eq + 1);
  }
  return vars;
}

}  // namespace

BackgroundProgram::BackgroundProgram(const std::vector<std::string>& argv, const std::string& log_prefix,
                                     const std::string& cwd, const std::vector<std::string>& env)
    : log_prefix_(log_prefix), child_(argv, environment(env), log_prefix, cwd) {
  if (!child_.error().empty()) throw std::runtime_error(child_.error());
}

int BackgroundProgram::wait(double seconds) {
  const auto limit = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(seconds));
  return child_.wait_for(limit).value_or(-1);
}

CommandResult run_program(const std::string& binary, const std::vector<std::string>& args, const std::string& cwd,
                          const std::vector<std::string>& env) {
  const std::string io = scratch_dir("run_conform_io_" + std::to_string(getpid())) + "/io";
  std::vector<std::string> argv{binary};
  argv.insert(argv.end(), args.begin(), args.end());
  BackgroundProgram program(argv, io, cwd, env);
  CommandResult result;
  result.exit_code = program.wait();
  result.out = program.out();
  result.err = program.err();
  return result;
}

std::string build_plugins_env() { return std::string("CONFORM_PLUGIN_PATH=") + CONFORM_PLUGIN_DIR; }

CommandResult run_with_jumbo_handshake(const std::string& dir,
                                       const std::vector<std::pair<std::string, std::string>>& suites,
                                       const std::vector<std::string>& filters,
                                       const std::vector<std::string>& options) {
  for (const auto& [name, toml] : suites) write_file(dir + "/suites/" + name, toml);
  std::vector<std::string> args{"run", dir + "/suites",
                                std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000/handshake_recovery.toml"};
  for (const auto& f : filters) args.insert(args.end(), {"--filter", f});
  args.insert(args.end(), {"--filter", kJumboHandshake, "--out", dir + "/out"});
  args.insert(args.end(), options.begin(), options.end());
  return run_conform(args, ".", {build_plugins_env()});
}

}  // namespace conform::test
