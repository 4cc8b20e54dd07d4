// The `conform` executable: sub-commands parsed with CLI11, and the one
// funnel that turns input errors into `file:line:col: message` and exit 2.
#include "cli/check_command.hpp"
#include "cli/checks_command.hpp"
#include "cli/commands.hpp"
#include "cli/gate_options.hpp"
#include "cli/merge_command.hpp"
#include "common/input_error.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kExitInputError = 2;

void add_plugin_options(CLI::App& cmd, conform::PluginOptions& options) {
  cmd.add_option("--plugin-dir", options.dirs,
                 "folder of plugin files (*.so); repeatable. Default: CONFORM_PLUGIN_PATH "
                 "(colon-separated), else the build's plugin folder")
      ->type_name("DIR");
  cmd.add_option("--plugin", options.files, "one plugin file to load; repeatable")
      ->type_name("FILE");
}

void add_select_options(CLI::App& cmd, conform::SelectOptions& options) {
  cmd.add_option("paths", options.paths, "suite files or folders (searched recursively for *.toml)")
      ->required()
      ->type_name("PATH");
  cmd.add_option("--filter", options.filters, "only the cases whose id matches this glob; repeatable")
      ->type_name("GLOB");
  cmd.add_option("--section", options.sections,
                 "only the cases citing this RFC section or below it, e.g. 9000§4.6; repeatable")
      ->type_name("SECTION");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"conform: conformance tests for transport protocols, judged from packet captures"};
  app.set_version_flag("--version", std::string("conform ") + CONFORM_VERSION);
  app.require_subcommand(1);
  // The commands that judge cases share one set of exit codes; the others
  // either print what was asked (0) or refuse bad input (2).
  const std::string judging_exit_codes =
      "Exit codes: 0 no case failed (each passed, or was unsupported, not exercised or not applicable); 1 a case "
      "failed (at a level --fail-on counts), errored, timed out, was not judged (unless --fail-on says "
      "not-judged=ok) or was interrupted, or a mutant survived; 2 bad input, one `file:line:col: message` line "
      "per problem; 130 interrupted by SIGINT (Ctrl-C; 128 + the signal for SIGTERM, SIGHUP, SIGQUIT): `run` and "
      "`check` start nothing more, kill what runs, and write the reports with the finished cases and the others "
      "INTERRUPTED; a second SIGINT ends conform at once.";
  const std::string listing_exit_codes =
      "Exit codes: 0 printed; 2 bad input, one `file:line:col: message` line per problem.";
  app.footer(listing_exit_codes);

  conform::RunCommandOptions run;
  auto* run_cmd = app.add_subcommand("run", "run the cases of suites and judge them from their captures");
  run_cmd->footer(judging_exit_codes);
  add_plugin_options(*run_cmd, run.plugins);
  add_select_options(*run_cmd, run.select);
  run_cmd->add_option("--out", run.out_dir, "folder for each case's captures, key log and verdict.json")
      ->capture_default_str()->check(conform::names_a_path())->type_name("DIR");
  run_cmd->add_option("-j,--jobs", run.jobs, "cases run in parallel (default: one per CPU; three per CPU when every case runs real "
                      "programs on the wall clock)")
      ->check(conform::whole_number(1, 256))->type_name("N");
  run_cmd->add_option("--seed", run.seed, "run every case with exactly this seed (replays a failure)")
      ->check(conform::whole_number(0, UINT64_MAX))->type_name("N");
  run_cmd->add_option("--timeout", run.timeout_s, "limit per run of a case, seconds")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](const std::string& s) {
            // CLI::Range lets NaN through; a timeout must be a real number.
            char* end = nullptr;
            double t = std::strtod(s.c_str(), &end);
            return end && *end == '\0' && std::isfinite(t) && t >= 0.001 && t <= 1e6
                       ? std::string()
                       : "--timeout takes seconds from 0.001 to 1000000";
          },
          "", "timeout"))
      ->type_name("SECONDS");
  run_cmd->add_option("--junit", run.junit, "write a JUnit XML report here")
      ->check(conform::names_a_path())->type_name("FILE");
  run_cmd->add_option("--json", run.json, "write the JSON report here")->check(conform::names_a_path())->type_name("FILE");
  run_cmd->add_option("--html", run.html, "write the HTML report (one self-contained file) here")
      ->check(conform::names_a_path())->type_name("FILE");
  conform::add_gate_options(*run_cmd, run.gate);
  auto* quiet = run_cmd->add_flag_callback("-q,--quiet", [&] { run.verbosity = conform::Verbosity::quiet; },
                                           "print only failures and the closing line");
  run_cmd->add_flag_callback("-v,--verbose", [&] { run.verbosity = conform::Verbosity::verbose; },
                             "print every check with its evidence")->excludes(quiet);

  conform::PluginOptions list_plugins;
  conform::SelectOptions list_select;
  auto* list_cmd = app.add_subcommand("list", "list the cases after matrix expansion, with plugin and scenario");
  add_plugin_options(*list_cmd, list_plugins);
  add_select_options(*list_cmd, list_select);
  bool list_verbose = false;
  list_cmd->add_flag("-v,--verbose", list_verbose, "also list each case's checks with their levels and parameters, "
                                                   "and its mutants with the checks they must fail");

  conform::PluginOptions plugins;
  auto* plugins_cmd = app.add_subcommand("plugins", "describe each plugin found: scenarios, knobs, time model");
  add_plugin_options(*plugins_cmd, plugins);
  std::string plugins_markdown;
  plugins_cmd->add_option("--markdown", plugins_markdown,
                          "print one settings table of the docs instead: network, knobs-<plugin> "
                          "(scripts/update-docs.sh writes them into docs/)")
      ->type_name("SECTION");

  conform::ChecksCommandOptions checks;
  auto* checks_cmd = conform::add_checks_command(app, checks);

  conform::DissectCommandOptions dissect;
  auto* dissect_cmd = app.add_subcommand(
      "dissect", "print the decrypted QUIC timeline of a capture: one datagram a line, with its packets and frames");
  dissect_cmd->add_option("capture", dissect.capture, "pcap or pcapng file")->required()->type_name("CAPTURE");
  dissect_cmd->add_option("--keylog", dissect.keylogs,
                          "NSS key log (SSLKEYLOGFILE) with the TLS secrets; repeatable. Without one, "
                          "only Initial packets decrypt")
      ->type_name("FILE");
  auto* dissect_json = dissect_cmd->add_flag("--json", dissect.json, "print the timeline as JSON for tools");
  auto* dissect_qlog =
      dissect_cmd->add_option("--qlog", dissect.qlog, "write the timeline as qlog (JSON-SEQ) to FILE ('-': stdout)")
          ->check(conform::names_a_path())->type_name("FILE")->excludes(dissect_json);
  dissect_cmd->add_option("--vantage", dissect.vantage,
                          "where the capture was taken, for --qlog's vantage point: client, server, path or both "
                          "(qlog's `network`; also accepted), instead of inferring it as `conform check` does")
      ->check(CLI::IsMember({"client", "server", "path", "both", "network"}))
      ->needs(dissect_qlog)
      ->type_name("VANTAGE");
  dissect_cmd->footer(
      "Exit codes: 0 the timeline is printed, or written as qlog instead with --qlog (a capture cut inside its last record is shown up to it, with a "
      "warning); 2 bad input, one `file: message` line and nothing printed: an unreadable capture or key log, a "
      "malformed key log line, a corrupt record or Decryption Secrets Block (its frame or block and byte named), "
      "or a capture with no QUIC connection.");

  conform::ReportCommandOptions report;
  auto* report_cmd = app.add_subcommand("report", "turn a JSON report and its artifact folders into an HTML report, or its behaviour matrix into Markdown");
  report_cmd->add_option("report", report.report, "the JSON report of a run (--json)")->required()->type_name("REPORT");
  report_cmd->add_option("--html", report.html, "write the HTML report here")->type_name("FILE");
  report_cmd
      ->add_option("--markdown", report.markdown,
                   "write the stacks × behaviours matrix of an interop run here as a Markdown table, after a line "
                   "saying what was run (\"-\": standard output); the report needs only its totals and "
                   "interop.behaviours (docs/reports.md)")
      ->type_name("FILE");

  conform::MergeCommandOptions merge;
  auto* merge_cmd = conform::add_merge_command(app, merge);
  merge_cmd->footer(judging_exit_codes);
  conform::CheckCommandOptions check;
  auto* check_cmd = conform::add_check_command(app, check);
  check_cmd->footer(judging_exit_codes);
  add_plugin_options(*check_cmd, check.plugins);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitInputError;
  }

  try {
    if (*run_cmd) return conform::command_run(run);
    if (*list_cmd) return conform::command_list(list_plugins, list_select, list_verbose);
    if (*dissect_cmd) return conform::command_dissect(dissect);
    if (*report_cmd) return conform::command_report(report);
    if (*merge_cmd) return conform::command_merge(merge);
    if (*check_cmd) return conform::command_check(check);
    if (*checks_cmd) return conform::command_checks(checks);
    return conform::command_plugins(plugins, plugins_markdown);
  } catch (const conform::InputError& e) {
    std::fflush(stdout);
    for (const auto& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.str().c_str());
    return kExitInputError;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "conform: internal error: %s\n", e.what());
    return 3;
  }
}
