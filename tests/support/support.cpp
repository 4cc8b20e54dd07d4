// Test helpers.
#include "support/support.hpp"

#include <boost/test/framework.hpp>
#include <boost/test/tree/test_unit.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace conform::test {
namespace fs = std::filesystem;

namespace {

// The ctest test this process runs (tests/CMakeLists.txt sets
// CONFORM_TEST_NAME), else the top-level suite of the running test (the
// test file's), else "global".
std::string running_suite() {
  if (const char* name = std::getenv("CONFORM_TEST_NAME"); name && *name) return name;
  namespace utf = boost::unit_test;
  if (!utf::framework::test_in_progress()) return "global";
  utf::test_unit_id id = utf::framework::current_test_case().p_id;
  while (true) {
    const utf::test_unit& unit = utf::framework::get(id, utf::TUT_ANY);
    if (unit.p_parent_id == utf::framework::master_test_suite().p_id) return unit.p_name;
    if (unit.p_parent_id == utf::INV_TEST_UNIT_ID) return unit.p_name;
    id = unit.p_parent_id;
  }
}

// <tmp>/<test binary>/<test>, or <test>~2, ~3, ... when another process
// holds it (a second ctest run on the same build tree). Each is held by a
// lock on <folder>.lock for the process's life; the working folder moves
// there, so what a program writes by default stays in it too. What an
// earlier process left there stays until a test asks for the same name.
const fs::path& process_root() {
  static const fs::path root = [] {
    // The plain and the sanitizer builds of a test run at once: each binary
    // has a folder of its own.
    const fs::path base = fs::path(CONFORM_TEST_TMP) / program_invocation_short_name;
    fs::create_directories(base);
    const std::string suite = running_suite();
    for (int n = 1; n <= 100; ++n) {
      const fs::path dir = base / (n == 1 ? suite : suite + "~" + std::to_string(n));
      const int fd = open((dir.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) throw std::runtime_error("cannot create " + dir.string() + ".lock: " + std::strerror(errno));
      if (flock(fd, LOCK_EX | LOCK_NB) == 0) {  // fd stays open: the lock lasts as long as this process
        fs::create_directories(dir);
        fs::current_path(dir);
        return dir;
      }
      close(fd);
    }
    throw std::runtime_error("100 processes hold the scratch folders of " + suite + " under " + base.string());
  }();
  return root;
}

}  // namespace

std::string scratch_dir(const std::string& name) {
  fs::path dir = process_root() / name;
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

std::string tshark_fields(const std::string& run_dir, const std::string& pcap, const std::string& filter,
                          const std::vector<std::string>& fields) {
  std::vector<std::string> args = {"-n", "-r", run_dir + "/" + pcap, "-o", "tls.keylog_file:" + run_dir + "/keys.log",
                                   "-Y", filter, "-T", "fields"};
  args.insert(args.end(), kTsharkQuicFirst.begin(), kTsharkQuicFirst.end());
  for (const auto& f : fields) args.insert(args.end(), {"-e", f});
  return run_program("/usr/bin/tshark", args).out;
}

}  // namespace conform::test
