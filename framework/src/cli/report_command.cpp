// `conform report`: a JSON report and its artifact folders in, HTML out.
#include "cli/commands.hpp"
#include "common/input_error.hpp"
#include "common/json_file.hpp"
#include "gate/report_reader.hpp"
#include "report/behaviour_matrix.hpp"
#include "report/file_reporter.hpp"
#include "report/html.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

namespace conform {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// nlohmann's message without its "[json.exception.type_error.302] " tag.
std::string plain(const std::exception& e) {
  const std::string what = e.what();
  const auto end = what.find("] ");
  return what.starts_with("[json.exception") && end != std::string::npos ? what.substr(end + 2) : what;
}

// "`conform run suites/interop -j 2` (2026-12-05, 301.2 s wall): 606 cases,
// 400 passed, ...": what was run, from the `recorded` member
// scripts/update-interop-matrix.sh adds, and the report's totals.
std::string run_line(const json& report, std::string& where) {
  std::string line;
  if (report.contains("recorded")) {
    where = "/recorded";
    const json& r = report.at("recorded");
    const json& wall = r.at("wall_s");  // null: unknown (a run made elsewhere)
    line = fmt::format("`{}` ({}{}): ", r.at("command").get<std::string>(), r.at("date").get<std::string>(),
                       wall.is_null() ? "" : fmt::format(", {:.1f} s wall", wall.get<double>()));
  }
  // The states in the order the console's closing line gives them.
  static const std::vector<std::pair<const char*, const char*>> kStates = {
      {"passed", "passed"},           {"failed", "failed"},
      {"skipped", "skipped"},         {"not_judged", "not judged"},
      {"not_exercised", "not exercised"}, {"not_applicable", "not applicable"},
      {"interrupted", "interrupted"}};
  where = "/totals";
  const json& totals = report.at("totals");
  std::uint64_t cases = 0;
  std::string counts;
  for (const auto& [key, words] : kStates) {
    where = std::string("/totals/") + key;
    if (!totals.contains(key)) continue;
    const auto& count = totals.at(key);
    if (!count.is_number_unsigned()) throw std::invalid_argument("expected an integer at least 0");
    const auto n = count.get<std::uint64_t>();
    cases += n;
    if (n) counts += fmt::format(", {} {}", n, words);
  }
  return line + fmt::format("{} cases{}.\n", cases, counts);
}

std::string behaviour_markdown(const std::string& path, const json& report) {
  std::string where;
  try {
    const std::string line = run_line(report, where);
    where = "/interop";
    const json& interop = report.at("interop");
    return line + "\n" + BehaviourMatrix::from_json(interop.at("behaviours"), "/interop/behaviours", where).markdown();
  } catch (const std::exception& e) {
    throw json_shape_error(path, where, plain(e));
  }
}

}  // namespace

int command_report(const ReportCommandOptions& options) {
  if (options.html.empty() && options.markdown.empty())
    throw InputError(SourcePos{options.report}, "say what to write: --html FILE, --markdown FILE, or both");
  const std::string markdown_file = options.markdown == "-" ? "" : options.markdown;
  refuse_overwriting({{"--html", options.html}, {"--markdown", markdown_file}}, {options.report});
  const nlohmann::json report = read_json_file(options.report);
  if (!options.markdown.empty()) {
    const std::string table = behaviour_markdown(options.report, report);
    if (markdown_file.empty())
      std::fwrite(table.data(), 1, table.size(), stdout);
    else
      write_file_atomically(markdown_file, table);
  }
  if (options.html.empty()) return 0;
  // The page's script trusts the report's shape: refuse a report that
  // `conform merge` would refuse, naming the member, before writing.
  report_from_json(options.report, report);
  const std::string chart_js = report::read_chart_js();
  const std::string report_dir = fs::absolute(options.report).parent_path().string();
  const std::string page = report::render_html(report, {".", report_dir}, chart_js);
  write_file_atomically(options.html, page);
  return 0;
}

}  // namespace conform
