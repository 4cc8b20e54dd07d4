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

}  // namespace conform
