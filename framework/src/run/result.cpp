// Status names.
#include "run/result.hpp"

#include "suite/check_selector.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <utility>

namespace conform {
namespace {
constexpr std::array<const char*, 11> kNames = {"PASS",          "FAIL",       "XFAIL",         "XPASS",
                                                "UNSUPPORTED",   "ERROR",      "TIMEOUT",       "INTERRUPTED",
                                                "NOT EXERCISED", "NOT JUDGED", "NOT APPLICABLE"};
}

const char* to_string(Status s) { return kNames[static_cast<std::size_t>(s)]; }

std::optional<Status> parse_status(const std::string& s) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (s == kNames[i]) return static_cast<Status>(i);
  return std::nullopt;
}

bool is_failure(Status s) {
  return s == Status::fail || s == Status::xpass || s == Status::error || s == Status::timeout ||
         s == Status::interrupted || s == Status::not_judged;
}

bool is_skipped(Status s) { return s == Status::unsupported || s == Status::not_exercised; }

std::string verdict_label(const CheckOutcome& o) {
  const auto v = o.result.verdict;
  std::string out(to_string(v));
  if (v == Verdict::pass || v == Verdict::fail) out += fmt::format(" [{}]", to_string(o.level));
  return out;
}

std::string mutant_verdict(const MutantOutcome& m) {
  const std::string every = m.seeds.size() > 1 ? fmt::format(" on each of {} seeds", m.seeds.size()) : "";
  if (m.killed)
    return m.fails.empty() ? "killed" + every : fmt::format("killed{} ({} failed)", every, fmt::join(m.fails, ", "));
  std::vector<std::string> why;
  for (const auto& entry : m.survived) {
    std::string problem;
    const auto selector = parse_check_selector(entry, problem);  // as judge_mutant() read it
    for (const auto& c : m.run.checks)
      if (selector && selects(*selector, c.check, c.params) && c.result.verdict != Verdict::fail)
        why.push_back(fmt::format("{} {}: {}", verdict_label(c), c.check, c.result.summary));
  }
  // Which seeds, when it ran on several: the reason is the first one's.
  const std::string on = m.seeds.size() > 1 ? fmt::format(" on seed{} {} of {}", m.survived_seeds.size() == 1 ? "" : "s",
                                                          fmt::join(m.survived_seeds, ", "), m.seeds.size())
                                            : "";
  // No check of `fails` passed: the run ended before any was judged.
  if (why.empty())
    return fmt::format("NOT JUDGED{}: the run ended {}{}{}", on, to_string(m.run.status),
                       m.run.reason.empty() ? "" : ": ", m.run.reason);
  return fmt::format("SURVIVED{}: {} ({})", on, fmt::join(why, "; "), m.run.artifact_dir);
}

std::optional<FailOn> parse_fail_on(std::string_view text) {
  auto comma = text.find(',');
  const std::string_view word = text.substr(0, comma);
  FailOn out;
  if (word == "must") out.level = FailLevel::must;
  else if (word == "should") out.level = FailLevel::should;
  else if (word == "any") out.level = FailLevel::any;
  else return std::nullopt;
  bool judged_said = false, exercised_said = false;
  while (comma != std::string_view::npos) {
    text.remove_prefix(comma + 1);
    comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if ((item == "not-judged=fail" || item == "not-judged=ok") && !std::exchange(judged_said, true))
      out.not_judged = item == "not-judged=fail";
    else if ((item == "not-exercised=fail" || item == "not-exercised=ok") && !std::exchange(exercised_said, true))
      out.not_exercised = item == "not-exercised=fail";
    else
      return std::nullopt;
  }
  return out;
}

bool fails_gate(Status s, const FailOn& fail_on) {
  if (s == Status::not_judged) return fail_on.not_judged;
  if (s == Status::not_exercised) return fail_on.not_exercised;
  return is_failure(s);
}

bool counts(FailLevel level, RequirementLevel failed) {
  switch (level) {
    case FailLevel::must: return failed == RequirementLevel::must;
    case FailLevel::should: return failed != RequirementLevel::expectation;
    case FailLevel::any: return true;
  }
  return true;
}

namespace {

// RequirementLevel from the strongest: must < should < expectation.
RequirementLevel stronger(RequirementLevel a, RequirementLevel b) { return a < b ? a : b; }

}  // namespace

std::optional<RequirementLevel> failure_level(const CaseResult& r) {
  if (!is_failure(r.status)) return std::nullopt;
  if (r.status != Status::fail) return RequirementLevel::must;
  for (const auto& m : r.mutants)
    if (!m.killed) return RequirementLevel::must;
  std::optional<RequirementLevel> level;
  for (const auto& run : r.runs) {
    if (run.status != Status::fail) continue;
    std::optional<RequirementLevel> of_run;
    for (const auto& c : run.checks)
      if (c.result.verdict == Verdict::fail) of_run = of_run ? stronger(*of_run, c.level) : c.level;
    // A FAIL with no failed check is an expected check not exercised.
    const RequirementLevel l = of_run.value_or(RequirementLevel::must);
    level = level ? stronger(*level, l) : l;
  }
  return level.value_or(RequirementLevel::must);
}

}  // namespace conform
