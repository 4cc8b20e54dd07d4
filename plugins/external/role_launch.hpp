// One role of an external run made ready to start: its placeholder values,
// its program (found, or the package that would provide it), its throwaway
// {profile_dir} with the profile's files and prepare commands done, and its
// command line (inside a PID namespace of its own when the program forks).
#pragma once

#include "profile.hpp"

#include <conform/run_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace external {

/// How long a server may take to bind its port: Node.js and Deno servers
/// load a runtime first, which on a loaded machine takes seconds. A
/// server's {time_limit_ms} is the scenario's plus this.
constexpr std::chrono::milliseconds kServerStartLimit{15000};

/// Per-run facts the placeholders need beyond the case's settings: the
/// run's folder, the port (the server's own, or the relay's for the
/// client), the certificate pin, and the build folder (its peers/).
struct RunFacts {
  std::string dir;
  std::uint16_t port = 0;
  std::string spki_sha256;
  std::string tools;
  /// What the pair plays the scenario in (pair_workload).
  Workload workload = Workload::http3;
};

/// The placeholder values of `role` (command_template.hpp lists them).
std::map<std::string, std::string> values_for(const conform::CaseSettings& s, const std::string& role,
                                              const RunFacts& facts);

/// Whether any template of `c` (args, env, files, prepare) uses `{name}`.
bool uses_placeholder(const RoleCommand& c, const std::string& name);

/// The absolute path of `c.program` (a relative path from `tools`; a name
/// looked up in `tools` first, then as program_path() does), or empty with
/// `problem` saying "WHAT: " (unless `what` is empty), the program, where
/// it was looked for and the package that installs it.
std::string find_command(const Command& c, const std::string& tools, const std::string& what, std::string& problem);

/// A program ready to start.
struct Launch {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};

/// `l` as one line for a log: its environment, then its arguments.
std::string shell_line(const Launch& l);

/// `program` (the resolved c.program) with `c`'s args and env expanded;
/// when `c.forks`, run by `unshare` (its path) as the first process of a
/// new PID namespace that dies with it (--kill-child), so that stopping it
/// ends every process it forked.
Launch launch_of(const RoleCommand& c, const std::string& program, const std::string& unshare,
                 const std::map<std::string, std::string>& values);

/// How preparing a role went: `missing` when a prepare program is not
/// installed (the run is then UNSUPPORTED), else `problem` is an error.
struct Prepared {
  std::string problem;
  bool missing = false;
  /// `stop` turned true during a step, which was stopped.
  bool stopped = false;
};

/// Makes `values["profile_dir"]` (a copy of `template_dir` when given),
/// writes `c.files` into it and runs `c.prepare` in order (each at most
/// 20 s, exit status 0), giving up when `stop` turns true (conform stopping
/// the run).
Prepared prepare_role(const RoleCommand& c, const std::string& tools, const std::map<std::string, std::string>& values,
                      const std::string& log_prefix, const std::function<bool()>& stop,
                      const std::string& template_dir = {});

/// How long a profile template's program may take.
inline constexpr std::chrono::seconds kTemplateLimit{30};

/// Makes c's profile template in `folder`: runs `program` (launched as
/// launch_of does) with c.template_args, {profile_dir} being `folder` and
/// {keylog} a file in it, waits for it to exit 0 (at most kTemplateLimit,
/// giving up when `stop` turns true), then removes c.template_leave_out
/// from it. Empty, or why not: also when the program removed `folder` or
/// left in it what a copy cannot hold (a FIFO, a socket).
std::string make_profile_template(const RoleCommand& c, const std::string& program, const std::string& unshare,
                                  std::map<std::string, std::string> values, const std::string& folder,
                                  const std::string& log_prefix, const std::function<bool()>& stop);

}  // namespace external
