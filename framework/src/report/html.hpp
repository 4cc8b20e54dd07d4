// The HTML report: one self-contained page (no fetch when opened: a Content
// Security Policy forbids any) holding the JSON report, each run's view from
// its artifact folder (run_view.hpp), Chart.js, and the page's own script
// and style sheet (src/report/html/). Opens offline; attachable to a CI run.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace conform::report {

/// Where Chart.js is read from: $CONFORM_CHART_JS when set, else Debian's
/// libjs-chart.js (/usr/share/javascript/chart.js/chart.min.js).
std::string chart_js_path();

/// Chart.js's source. Throws InputError naming the path and the package to
/// install when it cannot be read.
std::string read_chart_js();

/// The page for `report` (a JSON report document, docs/reports.md). Each
/// run's artifact folder is read as given when absolute, else relative to
/// the first of `base_dirs` where it exists (the first when none has it:
/// the run's view then says the folder is missing).
std::string render_html(const nlohmann::json& report, const std::vector<std::string>& base_dirs,
                        const std::string& chart_js);

}  // namespace conform::report
