// How values are spelled back to users: in messages, case ids and reports.
#pragma once

#include <conform/value.hpp>

#include <string>

namespace conform {

/// The value as TOML writes it: true, 42, 0.5, "text", ["a", "b"].
std::string format_toml(const Value& v);

/// As format_toml but strings unquoted; used in expanded case ids
/// (`id[frames=200,cc=newreno]`).
std::string format_bare(const Value& v);

/// "from 1 to 1048576", "at least 0", "at most 9": an integer spec's
/// bounds (ValueSpec::min, max) in words; "" when it has none.
std::string range_text(const ValueSpec& spec);

/// One line for listings (`conform plugins`, `conform checks`): `frames
/// (integer) = 200, from 1 to 100000  frames to send`; `required` where
/// there is no default, `one of a|b` for a closed set.
std::string describe(const ValueSpec& spec);

}  // namespace conform
