// Whether a check instance can be judged on a capture made elsewhere: an
// instance whose expect sets a parameter its check declares as carrying the
// case's scenario (Check::scenario_params) is NOT APPLICABLE there, since
// the capture never played that scenario (docs/offline.md).
#pragma once

#include "check/check.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conform {

/// Whether `params` (defaults filled in) give `name` a value of the case's
/// own: one other than its spec's default, or any for a spec without one.
bool set_by_case(const std::vector<ValueSpec>& specs, const ValueMap& params, const std::string& name);

/// The reason an instance of `check` with `params` (defaults filled in)
/// cannot apply offline ("needs the case's induced fault: error =
/// FLOW_CONTROL_ERROR"), naming every scenario parameter it sets; nullopt
/// when its judgement holds on any capture.
std::optional<std::string> scenario_need(const Check& check, const ValueMap& params);

/// Texts about scenario parameters, grouped by what they carry, the groups
/// in the order their first text comes: how every listing of them reads.
using ScenarioGroups = std::vector<std::pair<ScenarioPart, std::vector<std::string>>>;
ScenarioGroups group_by_part(const std::vector<std::pair<ScenarioPart, std::string>>& texts);

}  // namespace conform
