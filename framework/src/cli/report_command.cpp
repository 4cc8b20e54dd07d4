// `conform report`: a JSON report and its artifact folders in, HTML out.
#include "cli/commands.hpp"
#include "common/input_error.hpp"
#include "common/json_file.hpp"
#include "gate/report_reader.hpp"
#include "report/file_reporter.hpp"
#include "report/html.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace conform {

namespace fs = std::filesystem;

int command_report(const ReportCommandOptions& options) {
  refuse_overwriting({{"--html", options.html}}, {options.report});
  const nlohmann::json report = read_json_file(options.report);
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
