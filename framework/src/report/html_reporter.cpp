// The HTML report written at the end of `conform run --html`.
#include "report/file_reporter.hpp"
#include "report/html.hpp"
#include "report/report_json.hpp"

namespace conform {

HtmlReporter::HtmlReporter(std::string path)
    : CollectingReporter(std::move(path)), chart_js_(report::read_chart_js()) {}

std::string HtmlReporter::render(const RunTotals& totals) const {
  // Artifact folders are named as the run made them: relative to here.
  return report::render_html(report_document(results_, plan_, totals), {"."}, chart_js_);
}

}  // namespace conform
