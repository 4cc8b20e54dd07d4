// The HTML report written at the end of `conform run --html`.
#include "report/file_reporter.hpp"
#include "report/html.hpp"

namespace conform {

HtmlReporter::HtmlReporter(std::string path)
    : DocumentReporter(std::move(path)), chart_js_(report::read_chart_js()) {}

std::string HtmlReporter::render(const RunTotals& totals) const {
  // Artifact folders are named as the run made them: relative to here.
  return report::render_html(document(totals), {"."}, chart_js_);
}

}  // namespace conform
