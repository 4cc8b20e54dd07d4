// What all reports share: the totals and the replay command.
#include "report/reporter.hpp"

namespace conform {

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789-_./=:,@%+") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

void RunTotals::add(const CaseResult& result) {
  if (is_skipped(result.status)) ++skipped;
  else if (is_failure(result.status)) ++failed;
  else ++passed;
  if (const auto level = failure_level(result)) ++failed_at[static_cast<std::size_t>(*level)];
  duration_s += result.duration_s;
}

std::size_t RunTotals::failures(FailOn fail_on) const {
  std::size_t n = 0;
  for (auto level : {RequirementLevel::must, RequirementLevel::should, RequirementLevel::expectation})
    if (counts(fail_on, level)) n += failed_at[static_cast<std::size_t>(level)];
  return n;
}

std::string replay_command(const RunPlan& plan, const CaseResult& result) {
  if (plan.replay) return plan.replay(result);
  std::string cmd = "conform run " + shell_quote(result.c->suite->path);
  for (const auto& a : plan.replay_args) cmd += " " + shell_quote(a);
  cmd += " --seed " + std::to_string(result.headline_seed);
  cmd += " --filter " + shell_quote(result.c->id());
  return cmd;
}

}  // namespace conform
