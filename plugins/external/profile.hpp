// Profiles: how the external plugin starts a third-party QUIC client or
// server. One TOML file per implementation, `[profile]` naming it and
// `[client]` / `[server]` giving a program, its argument templates and
// environment (docs/plugins.md, "The external plugin").
#pragma once

#include "stack_version.hpp"
#include "workload.hpp"

#include <conform/plugin.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace external {

/// One program: `program` is a name looked up as program_path() says, or a
/// path (a relative one from the build folder); `args` and `env` values are
/// command templates; `package` names what installs it, for the reason of a
/// run that cannot happen without it.
struct Command {
  std::string program;
  /// Where `program` is written in its profile file (from 1).
  std::uint32_t line = 0, column = 0;
  std::string package;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
};

/// How to start one role: its program; `keylog` false for a program that
/// writes no key log (the run then decrypts with the other role's);
/// `needs`, files (relative: from the build folder) without which the role
/// cannot run, such as an npm package its script imports; the commands that
/// prepare its throwaway {profile_dir} first (each must exit 0), the files
/// written there (name inside it → template of its text), and whether the
/// program forks helpers (a browser), so that it runs as the first process
/// of a PID namespace of its own and stopping it ends them all; and
/// `quic_knobs`, whether the program takes every knob of the in-house QUIC
/// as `--knob-name VALUE` (conform-quic: the in-house QUIC as a scripted
/// peer; in_house_knobs.hpp).
struct RoleCommand : Command {
  bool keylog = true;
  std::vector<std::string> needs;
  std::vector<Command> prepare;
  std::map<std::string, std::string> files;
  bool forks = false;
  bool quic_knobs = false;
  /// `[role.profile_template]`: the program run once with these args makes
  /// a {profile_dir} that each run then starts from a copy of (a browser
  /// spends a second making a new profile); `leave_out`, names of what it
  /// leaves there that a copy must not hold (a lock naming its process).
  std::optional<std::vector<std::string>> template_args;
  std::vector<std::string> template_leave_out;
};

/// One implementation: its name (the `implementation` knob's value), a
/// summary, its version (stack_version.hpp), the workload its programs
/// speak, and the roles it plays.
struct Profile {
  std::string name;
  std::string summary;
  /// The stack's own version, where what installs it does not say it.
  std::string version;
  /// Where the installed version is read.
  std::optional<VersionSource> version_from;
  /// What its programs speak, in the order given.
  std::vector<Workload> workloads = {Workload::http3};
  std::string file;
  std::optional<RoleCommand> client, server;
  const std::optional<RoleCommand>& role(const std::string& r) const { return r == "client" ? client : server; }
};

/// The knob whose value names a profile.
inline constexpr const char* kProfileKnob = "implementation";

/// Every profile found, and every problem of the files read. A problem of
/// a profile file concerns the cases that name it (PluginProblem::value:
/// the profile's name, empty when unreadable); `broken` holds those
/// profiles as far as they were read, so that every problem of one is found
/// at once.
struct ProfileSet {
  std::vector<Profile> profiles;
  std::vector<Profile> broken;
  std::vector<conform::PluginProblem> problems;
  const Profile* find(const std::string& name) const;
};

/// Reads every `*.toml` of each folder of `dirs` (in name order; a missing
/// folder is a problem of no profile). A file with a problem is left out of
/// `profiles` whole; a name defined twice keeps the first and reports the
/// second.
ProfileSet load_profiles(const std::vector<std::string>& dirs);

/// Reads one profile file into `set`.
void load_profile_file(const std::string& path, ProfileSet& set);

}  // namespace external
