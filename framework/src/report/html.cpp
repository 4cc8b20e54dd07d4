// Assembling the self-contained HTML page.
#include "report/html.hpp"

#include "common/input_error.hpp"
#include "report/html_assets.hpp"
#include "report/run_view.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace conform::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Nothing the page needs comes from outside it; whatever tried would be refused.
constexpr const char* kPolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

// JSON inside <script>: every '<' (only ever inside strings) as \u003c, so
// no "</script>" or "<!--" can end or disturb the element.
std::string script_safe_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    if (ch == '<') out += "\\u003c";
    else out += ch;
  }
  return out;
}

// A script inlined as is, except that a literal "</script" (which would end
// the element early) is written "<\/script", the same string to JavaScript.
std::string script_safe_source(std::string source) {
  for (std::size_t at = 0; (at = source.find("</", at)) != std::string::npos; at += 3)
    if (source.compare(at + 2, 6, "script") == 0 || source.compare(at + 2, 6, "SCRIPT") == 0)
      source.replace(at, 2, "<\\/");
  return source;
}

std::string resolve(const std::string& dir, const std::vector<std::string>& base_dirs) {
  if (dir.empty() || fs::path(dir).is_absolute() || base_dirs.empty()) return dir;
  std::error_code ec;
  for (const auto& base : base_dirs)
    if (fs::is_directory(fs::path(base) / dir, ec)) return (fs::path(base) / dir).lexically_normal().string();
  return (fs::path(base_dirs.front()) / dir).lexically_normal().string();
}

// Every run of every case (mutants' included), viewed once per folder.
json run_views(const json& report, const std::vector<std::string>& base_dirs, StringTable& strings) {
  json views = json::object();
  auto add = [&](const json& run) {
    const std::string dir = run.value("artifact_dir", "");
    if (dir.empty() || views.contains(dir)) return;
    views[dir] = run_view(resolve(dir, base_dirs), strings);
  };
  for (const auto& c : report.value("cases", json::array())) {
    for (const auto& run : c.value("runs", json::array())) add(run);
    for (const auto& m : c.value("mutants", json::array()))
      if (m.contains("run")) add(m["run"]);
  }
  return views;
}

}  // namespace

std::string chart_js_path() {
  const char* env = std::getenv("CONFORM_CHART_JS");
  return env && *env ? env : "/usr/share/javascript/chart.js/chart.min.js";
}

std::string read_chart_js() {
  const std::string path = chart_js_path();
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty())
    throw InputError({path}, "the HTML report inlines Chart.js from this file, which cannot be read: install "
                             "Debian's libjs-chart.js (scripts/setup.sh does) or set CONFORM_CHART_JS");
  return text.str();
}

std::string render_html(const json& report, const std::vector<std::string>& base_dirs, const std::string& chart_js) {
  StringTable strings;
  json views = run_views(report, base_dirs, strings);
  const json data = {{"report", report}, {"views", std::move(views)}, {"strings", strings.to_json()}};
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += std::string("<meta http-equiv=\"Content-Security-Policy\" content=\"") + kPolicy + "\">\n";
  page += "<title>conform report</title>\n<style>\n";
  page += kReportStyle;
  page += "</style>\n</head>\n<body>\n<div id=\"status\" data-state=\"loading\">loading</div>\n<div id=\"app\"></div>\n";
  page += "<script id=\"conform-data\" type=\"application/json\">" + script_safe_json(data) + "</script>\n";
  page += "<script>\n" + script_safe_source(chart_js) + "\n</script>\n";
  page += "<script>\n" + script_safe_source(kReportScript) + "\n</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace conform::report
