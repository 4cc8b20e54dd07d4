// RunRecord as JSON: what a child run sends its parent, what `verdict.json`
// holds, and the runs inside the JSON report.
#pragma once

#include "run/result.hpp"

#include <nlohmann/json_fwd.hpp>

namespace conform {

nlohmann::json to_json(const Value& v);
nlohmann::json to_json(const ValueMap& values);
nlohmann::json to_json(const Evidence& e);
nlohmann::json to_json(const RunRecord& r);

/// The inverse of to_json(ValueMap); throws nlohmann::json::exception on a
/// member that is not a boolean, number, string or array of strings.
ValueMap value_map_from_json(const nlohmann::json& j);

/// The inverse of to_json(RunRecord); throws nlohmann::json::exception on a
/// document of another shape, std::invalid_argument on a status, verdict
/// or level word it does not know.
RunRecord record_from_json(const nlohmann::json& j);

}  // namespace conform
