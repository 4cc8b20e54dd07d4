// The JSON report's document (shape in docs/reports.md), shared by the JSON
// file and the HTML page that embeds it.
#pragma once

#include "report/reporter.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace conform {

/// Every case of `results` with its runs, checks, evidence and mutants, the
/// sections, and the totals.
nlohmann::json report_document(const std::vector<CaseResult>& results, const RunPlan& plan,
                               const RunTotals& totals);

}  // namespace conform
