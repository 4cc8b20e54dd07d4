// The level of a requirement a check judges: the BCP 14 keyword of the RFC
// sentence it comes from (RFC 2119, RFC 8174), or none where the RFC states
// an expectation without a keyword (RFC 9000 §4.6: "implementations will
// likely want to increase the maximum number of streams").
#pragma once

#include <optional>
#include <string_view>

namespace conform {

enum class RequirementLevel {
  must,         ///< MUST, MUST NOT, REQUIRED, SHALL
  should,       ///< SHOULD, SHOULD NOT, RECOMMENDED
  expectation,  ///< no BCP 14 keyword: what the RFC expects of a good stack
};

/// "MUST", "SHOULD", "expectation": the spelling of suites, reports and docs.
constexpr std::string_view to_string(RequirementLevel level) {
  switch (level) {
    case RequirementLevel::must: return "MUST";
    case RequirementLevel::should: return "SHOULD";
    case RequirementLevel::expectation: return "expectation";
  }
  return "expectation";
}

/// The level spelled as `to_string` spells it, or nullopt.
constexpr std::optional<RequirementLevel> parse_requirement_level(std::string_view text) {
  for (auto level : {RequirementLevel::must, RequirementLevel::should, RequirementLevel::expectation})
    if (text == to_string(level)) return level;
  return std::nullopt;
}

}  // namespace conform
