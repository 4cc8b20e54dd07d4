// Reading one TOML file for the suite loader: a suite file, or the file a
// case's rule_from names.
#pragma once

#include "suite/toml_value.hpp"

#include <optional>
#include <string>

namespace conform::suite_detail {

/// The table of the TOML file at `path`, or nullopt after recording why
/// not, at the file's own positions: not a regular file (a folder, a
/// device, a FIFO), unreadable, keys nested too deep for toml++'s
/// recursion, malformed TOML.
std::optional<toml::table> parse_toml_file(const std::string& path, Problems& problems);

}  // namespace conform::suite_detail
