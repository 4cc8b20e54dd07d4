// `--baseline`, `--shard` and `--fail-on`.
#include "cli/gate_options.hpp"

#include <charconv>
#include <cstdint>

namespace conform {

const CLI::Validator& names_a_path() {
  static const CLI::Validator validator(
      [](const std::string& s) { return s.empty() ? std::string("an empty path names nothing") : std::string(); }, "");
  return validator;
}

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](const std::string& s) {
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        const bool decimal = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        if (decimal && ec == std::errc() && end == s.data() + s.size() && n >= min && n <= max) return std::string();
        return "'" + s + "' is not a whole number from " + std::to_string(min) + " to " + std::to_string(max);
      },
      "", "whole number");  // no description: the option's type_name says N once
}

namespace {

void add_baseline_option(CLI::App& cmd, std::string& baseline) {
  cmd.add_option("--baseline", baseline,
                 "an earlier JSON report: a case that passed there and fails now fails the run; "
                 "failures also failing there are known and do not")
      ->check(names_a_path())
      ->type_name("FILE");
}

void add_fail_on_option(CLI::App& cmd, FailOn& fail_on) {
  cmd.add_option_function<std::string>(
         "--fail-on", [&fail_on](const std::string& word) { fail_on = *parse_fail_on(word); },
         "which failed cases give exit code 1: those failing a MUST, a MUST or a SHOULD, or any (default); "
         "NOT JUDGED cases too unless ',not-judged=ok' follows, NOT EXERCISED ones with ',not-exercised=fail' (a "
         "gate that judged nothing is not green); ERROR, TIMEOUT and surviving mutants always do")
      ->check(CLI::Validator(
          [](const std::string& s) {
            return parse_fail_on(s) ? std::string()
                                    : "'" + s + "': expected must, should or any, optionally followed by "
                                      ",not-judged=fail|ok and ,not-exercised=ok|fail";
          },
          ""))
      ->type_name("must|should|any[,not-judged=fail|ok][,not-exercised=ok|fail]");
}

}  // namespace

void add_report_options(CLI::App& cmd, ReportOptions& options) {
  cmd.add_option("--json", options.json, "write the JSON report here")->check(names_a_path())->type_name("FILE");
  cmd.add_option("--junit", options.junit, "write a JUnit XML report here")->check(names_a_path())->type_name("FILE");
  cmd.add_option("--html", options.html, "write the HTML report (one self-contained file) here")
      ->check(names_a_path())
      ->type_name("FILE");
  add_baseline_option(cmd, options.baseline);
  add_fail_on_option(cmd, options.fail_on);
  auto* quiet = cmd.add_flag_callback("-q,--quiet", [&] { options.verbosity = Verbosity::quiet; },
                                      "print only failures and the closing line");
  cmd.add_flag_callback("-v,--verbose", [&] { options.verbosity = Verbosity::verbose; },
                        "print every check with its evidence")
      ->excludes(quiet);
}

CLI::Option* add_shard_option(CLI::App& cmd, std::string& shard, const std::string& help) {
  return cmd.add_option("--shard", shard, help)
      ->check(CLI::Validator(
          [](const std::string& s) {
            ShardSpec spec;
            return parse_shard(s, spec);
          },
          "", "shard"))
      ->type_name("K/N");
}

void add_gate_options(CLI::App& cmd, GateOptions& options) {
  add_baseline_option(cmd, options.baseline);
  add_fail_on_option(cmd, options.fail_on);
  add_shard_option(cmd, options.shard,
                   "run only shard K of N of the cases (dealt round robin over their sorted ids); "
                   "`conform merge` joins the shards' JSON reports");
}

}  // namespace conform
