// The HTML report's own script and style sheet, compiled into conform from
// src/report/html/ (see framework/CMakeLists.txt), so a report needs no file
// beside the binary but Chart.js.
#pragma once

namespace conform::report {

/// src/report/html/report.js: draws the page from its embedded JSON.
extern const char* const kReportScript;
/// src/report/html/report.css.
extern const char* const kReportStyle;

}  // namespace conform::report
