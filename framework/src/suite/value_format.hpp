// How values are spelled back to users: in messages, case ids and reports.
#pragma once

#include "common/value_range.hpp"

#include <conform/value.hpp>

#include <optional>
#include <string>

namespace conform {

/// The value as TOML writes it: true, 42, 0.5, "text", ["a", "b"].
std::string format_toml(const Value& v);

/// As format_toml but strings unquoted; used in expanded case ids
/// (`id[frames=200,cc=newreno]`).
std::string format_bare(const Value& v);

/// One line for listings (`conform plugins`, `conform checks`): `rtt_ms
/// (float, ms) = 10.0, from 0 to 1000000000  round-trip ...`; `required`
/// where there is no default, `one of a|b` for a closed set; `unit` where
/// the spec's own fields cannot say it.
std::string describe(const ValueSpec& spec, const std::string& unit = "", const std::string& absent = "required");

}  // namespace conform
