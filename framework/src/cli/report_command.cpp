// `conform report`: a JSON report and its artifact folders in, the HTML page
// or the behaviour matrix as Markdown out.
#include "cli/commands.hpp"
#include "common/input_error.hpp"
#include "common/json_file.hpp"
#include "gate/report_reader.hpp"
#include "report/behaviour_matrix.hpp"
#include "report/file_reporter.hpp"
#include "report/html.hpp"
#include "run/run_events.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <stdexcept>

namespace conform {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `recorded`'s member `key` of `r`: a string of one line matching `form`.
std::string recorded_text(const json& r, const char* key, const std::regex& form, const char* expected,
                          std::string& where) {
  where = std::string("/recorded/") + key;
  if (!r.contains(key)) throw std::invalid_argument("missing");
  const json& v = r.at(key);
  if (!v.is_string() || !std::regex_match(v.get_ref<const std::string&>(), form))
    throw std::invalid_argument(std::string("expected ") + expected);
  return v.get<std::string>();
}

// "`conform run suites/interop -j 2` (2026-12-05, 301.2 s wall): 606 cases,
// 400 passed, ...": what was run, from the `recorded` member
// scripts/update-interop-matrix.sh adds, and the report's totals in the
// order of the console's closing line.
std::string run_line(const json& report, std::string& where) {
  std::string line;
  where = "";
  if (!report.is_object()) throw std::invalid_argument("expected an object");
  if (report.contains("recorded")) {
    where = "/recorded";
    const json& r = report.at("recorded");
    if (!r.is_object()) throw std::invalid_argument("expected an object");
    static const std::regex kCommand("[^`\\x00-\\x1f]+"), kDate("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    const std::string command = recorded_text(r, "command", kCommand, "one line without a backtick", where);
    const std::string date = recorded_text(r, "date", kDate, "a date, YYYY-MM-DD", where);
    where = "/recorded/wall_s";
    if (!r.contains("wall_s")) throw std::invalid_argument("missing");
    const json& wall = r.at("wall_s");  // null: unknown (a run made elsewhere)
    if (!wall.is_null() && !(wall.is_number() && wall.get<double>() >= 0 && wall.get<double>() < 1e7))
      throw std::invalid_argument("expected seconds (at least 0, below 10^7) or null");
    line = fmt::format("`{}` ({}{}): ", command, date,
                       wall.is_null() ? "" : fmt::format(", {:.1f} s wall", wall.get<double>()));
  }
  where = "/totals";
  if (!report.contains("totals")) throw std::invalid_argument("missing");
  const RunTotals totals = totals_from_json(report.at("totals"), where);
  std::size_t cases = 0;
  std::string counts;
  for (const auto& c : kTotalsCounts) {
    const std::size_t n = totals.*c.count;
    if (__builtin_add_overflow(cases, n, &cases)) {
      where = "/totals";
      throw std::invalid_argument("the counts add up to more than 2^64");
    }
    if (n) counts += fmt::format(", {} {}", n, c.words);
  }
  return line + fmt::format("{} cases{}.\n", cases, counts);
}

std::string behaviour_markdown(const std::string& path, const json& report) {
  std::string where;
  try {
    const std::string line = run_line(report, where);
    where = "/interop";
    if (!report.contains("interop")) throw std::invalid_argument("missing: the report of a run with no interop case");
    const json& interop = report.at("interop");
    if (!interop.is_object()) throw std::invalid_argument("expected an object");
    where = "/interop/behaviours";
    if (!interop.contains("behaviours")) throw std::invalid_argument("missing");
    return line + "\n" + BehaviourMatrix::from_json(interop.at("behaviours"), "/interop/behaviours", where).markdown();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw json_shape_error(path, where, json_error_message(e));
  }
}

}  // namespace

int command_report(const ReportCommandOptions& options) {
  if (options.html.empty() && options.markdown.empty())
    throw InputError(SourcePos{options.report}, "say what to write: --html FILE, --markdown FILE, or both");
  const std::string markdown_file = options.markdown == "-" ? "" : options.markdown;
  refuse_overwriting({{"--html", options.html}, {"--markdown", markdown_file}}, {options.report});
  const nlohmann::json report = read_json_file(options.report);
  // Both outputs are made before either is written: bad input for one
  // leaves the other's older file as it was.
  std::string markdown, page;
  if (!options.markdown.empty()) markdown = behaviour_markdown(options.report, report);
  if (!options.html.empty()) {
    // The page's script trusts the report's shape: refuse a report that
    // `conform merge` would refuse, naming the member, before writing.
    report_from_json(options.report, report);
    const std::string chart_js = report::read_chart_js();
    const std::string report_dir = fs::absolute(options.report).parent_path().string();
    page = report::render_html(report, {".", report_dir}, chart_js);
  }
  if (!options.html.empty()) write_file_atomically(options.html, page);
  if (!markdown_file.empty()) {
    write_file_atomically(markdown_file, markdown);
  } else if (!options.markdown.empty()) {
    if (std::fwrite(markdown.data(), 1, markdown.size(), stdout) != markdown.size() || std::fflush(stdout) != 0)
      throw InputError(SourcePos{"standard output"}, "cannot write the Markdown table");
  }
  return 0;
}

}  // namespace conform
