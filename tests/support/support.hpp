// Helpers for conform's tests: scratch folders, files, and running the
// `conform` binary as a user does.
#pragma once

#include "support/build_paths.hpp"

#include <child_process.hpp>

#include <string>
#include <utility>
#include <vector>

namespace conform::test {

/// A fresh, empty folder named `name` in this process's scratch folder, the
/// build's tests/tmp/<test binary>/<ctest test>/ (…/<ctest test>~2/ while
/// another process holds that one, so two ctest runs on one build tree do
/// not collide; the test file's suite when not run by ctest). The process's
/// working folder moves there on first use.
std::string scratch_dir(const std::string& name);

/// Writes `text` to `path` (creating folders), returns `path`.
std::string write_file(const std::string& path, const std::string& text);

/// The whole contents of `path`; empty if unreadable.
std::string read_file(const std::string& path);

/// What a finished command printed and how it ended.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// A program running in the background, started as the external plugin
/// starts its programs (external::ChildProcess): stdin from /dev/null,
/// stdout and stderr to `<log_prefix>.out` and `.err`. Killed when
/// destroyed.
class BackgroundProgram {
 public:
  /// Starts `argv` (argv[0] a path) in `cwd` with this process's
  /// environment, CONFORM_PLUGIN_PATH set to the test plugin folder unless
  /// `env` (entries "NAME=value") says otherwise. Throws std::runtime_error
  /// when it cannot start.
  BackgroundProgram(const std::vector<std::string>& argv, const std::string& log_prefix,
                    const std::string& cwd = ".", const std::vector<std::string>& env = {});

  /// The exit code (128 + signal when killed by one) once it ends.
  int wait() { return child_.wait(); }
  /// The exit code if it ends within `seconds`, else -1 (still running).
  int wait(double seconds);
  /// Its process id until it is reaped, else -1.
  pid_t pid() const { return child_.pid(); }
  /// What it printed so far.
  std::string out() const { return read_file(log_prefix_ + ".out"); }
  std::string err() const { return read_file(log_prefix_ + ".err"); }

 private:
  std::string log_prefix_;
  external::ChildProcess child_;
};

/// Runs `conform` with `args` (no shell) in `cwd`, with
/// CONFORM_PLUGIN_PATH set to the test plugin folder unless `env` says
/// otherwise (entries "NAME=value").
CommandResult run_conform(const std::vector<std::string>& args, const std::string& cwd = ".",
                          const std::vector<std::string>& env = {});

/// As run_conform, for another program of the build (`binary`, a path).
CommandResult run_program(const std::string& binary, const std::vector<std::string>& args,
                          const std::string& cwd = ".", const std::vector<std::string>& env = {});

/// tshark's option to try its QUIC heuristic on every UDP datagram before
/// any dissector registered for the port: a run's ports are random, and one
/// may be a port tshark gives another protocol (44818, EtherNet/IP, which
/// once left a whole capture undecoded).
inline const std::vector<std::string> kTsharkQuicFirst = {"-o", "udp.try_heuristic_first:TRUE"};

/// tshark's `fields` (tab-separated) of every frame matching `filter` in
/// `run_dir`'s capture `pcap`, decrypted with the run's keys.log, a line per
/// frame.
std::string tshark_fields(const std::string& run_dir, const std::string& pcap, const std::string& filter,
                          const std::vector<std::string>& fields);

/// run_conform's environment entry for the build's plugins (quic,
/// tcp_relay, external) in place of the test fixture.
std::string build_plugins_env();

/// The lossy jumbo handshake of suites/rfc9000/handshake_recovery.toml: both
/// first flights exceed the path MTU and are lost; PTO probes recover.
inline constexpr const char* kJumboHandshake = "pq-handshake/classical-jumbo";

/// `conform run` with the build's plugins of the suite files `suites`
/// (file name → TOML), written to `dir`/suites, and of the jumbo handshake
/// case: the written cases matching `filters` (--filter patterns), artifacts
/// in `dir`/out, then `options` (--json, --html).
CommandResult run_with_jumbo_handshake(const std::string& dir,
                                       const std::vector<std::pair<std::string, std::string>>& suites,
                                       const std::vector<std::string>& filters,
                                       const std::vector<std::string>& options = {});

}  // namespace conform::test
