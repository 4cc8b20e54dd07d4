// What all reports share: the replay command.
#include "report/reporter.hpp"

#include <cstdlib>

namespace conform {

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789-_./=:,@%+") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

namespace {

// The environment a run read that changes what its suites mean: the
// external plugin's own profiles (`implementation = "mystack"` is valid
// only with them). A replay line without it fails as bad input.
std::string replay_environment() {
  const char* profiles = std::getenv("CONFORM_EXTERNAL_PROFILES");
  return profiles && *profiles ? "CONFORM_EXTERNAL_PROFILES=" + shell_quote(profiles) + " " : std::string();
}

}  // namespace

std::string replay_command(const RunPlan& plan, const CaseResult& result) {
  if (plan.replay) return replay_environment() + plan.replay(result);
  std::string cmd = replay_environment() + "conform run " + shell_quote(result.c->suite->path);
  for (const auto& a : plan.replay_args) cmd += " " + shell_quote(a);
  cmd += " --seed " + std::to_string(result.headline_seed);
  cmd += " --filter " + shell_quote(result.c->id());
  return cmd;
}

}  // namespace conform
