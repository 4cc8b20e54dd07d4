// What a name printed in a report may hold: the external plugin checks its
// profiles' texts and the versions it reads with this, and conform checks
// the names in a report it reads back with it, so that what one writes the
// other reads.
#pragma once

#include <algorithm>
#include <string_view>

namespace conform {

/// Whether `s` can stand on one line of a table: not empty, and no ASCII
/// control character (below 0x20, or DEL), which would end a table row or
/// drive a terminal.
inline bool is_one_line(std::string_view s) {
  return !s.empty() && std::none_of(s.begin(), s.end(), [](char c) { return (c >= 0 && c < 0x20) || c == 0x7f; });
}

}  // namespace conform
