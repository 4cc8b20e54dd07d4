// Profiles: how the external plugin starts a third-party QUIC client or
// server. One TOML file per implementation, `[profile]` naming it and
// `[client]` / `[server]` giving a program, its argument templates and
// environment (docs/plugins.md, "The external plugin").
#pragma once

#include <conform/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace external {

/// One program: `program` is a name looked up as program_path() says, or a
/// path; `args` and `env` values are command templates; `package` names
/// what installs it, for the reason of a run that cannot happen without it.
struct Command {
  std::string program;
  std::string package;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
};

/// How to start one role: its program, the commands that prepare its
/// throwaway {profile_dir} first (each must exit 0), the files written
/// there (name inside it → template of its text), and whether the program
/// forks helpers (a browser), so that it runs as the first process of a
/// PID namespace of its own and stopping it ends them all.
struct RoleCommand : Command {
  std::vector<Command> prepare;
  std::map<std::string, std::string> files;
  bool forks = false;
};

/// One implementation: its name (the `implementation` knob's value), a
/// summary, and the roles it plays.
struct Profile {
  std::string name;
  std::string summary;
  std::string file;
  std::optional<RoleCommand> client, server;
  const std::optional<RoleCommand>& role(const std::string& r) const { return r == "client" ? client : server; }
};

/// Every profile found, and every problem of the files read.
struct ProfileSet {
  std::vector<Profile> profiles;
  std::vector<conform::PluginProblem> problems;
  const Profile* find(const std::string& name) const;
};

/// Reads every `*.toml` of each folder of `dirs` (in name order; a missing
/// folder is a problem). A file with a problem is left out whole; a name
/// defined twice keeps the first and reports the second.
ProfileSet load_profiles(const std::vector<std::string>& dirs);

/// Reads one profile file into `set`.
void load_profile_file(const std::string& path, ProfileSet& set);

}  // namespace external
