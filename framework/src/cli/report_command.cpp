// `conform report`: a JSON report and its artifact folders in, HTML out.
#include "cli/commands.hpp"
#include "common/input_error.hpp"
#include "report/file_reporter.hpp"
#include "report/html.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace conform {
namespace {

namespace fs = std::filesystem;

// Line and column (from 1) of byte `offset` of `text`.
SourcePos position_of(const std::string& file, const std::string& text, std::size_t offset) {
  SourcePos pos{file, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

nlohmann::json read_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path}, "cannot read the JSON report");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is one past the offending byte.
    throw InputError(position_of(path, text, e.byte ? e.byte - 1 : 0), "not JSON: " + std::string(e.what()));
  }
  if (!report.is_object() || !report.contains("cases") || !report["cases"].is_array())
    throw InputError({path}, "not a conform JSON report (conform run --json): no \"cases\" list");
  return report;
}

}  // namespace

int command_report(const ReportCommandOptions& options) {
  const nlohmann::json report = read_report(options.report);
  const std::string chart_js = report::read_chart_js();
  const std::string report_dir = fs::absolute(options.report).parent_path().string();
  const std::string page = report::render_html(report, {".", report_dir}, chart_js);
  try {
    write_file_atomically(options.html, page);
  } catch (const std::runtime_error& e) {
    throw InputError({options.html}, std::string("--html: ") + e.what());
  }
  return 0;
}

}  // namespace conform
