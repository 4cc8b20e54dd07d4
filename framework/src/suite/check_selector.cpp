// Parsing and matching of a mutant's `fails` entries.
#include "suite/check_selector.hpp"

#include "suite/value_format.hpp"

namespace conform {

std::optional<CheckSelector> parse_check_selector(const std::string& text, std::string& problem) {
  CheckSelector s;
  const auto open = text.find('[');
  s.check = text.substr(0, open);
  if (s.check.empty()) {
    problem = "names no check";
    return std::nullopt;
  }
  if (open == std::string::npos) return s;
  if (text.back() != ']' || open + 2 >= text.size()) {
    problem = "must read name[key=value,...]";
    return std::nullopt;
  }
  const std::string inside = text.substr(open + 1, text.size() - open - 2);
  std::size_t start = 0;
  while (start <= inside.size()) {
    const auto comma = std::min(inside.find(',', start), inside.size());
    const std::string pair = inside.substr(start, comma - start);
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size()) {
      problem = "'" + pair + "' is not key=value";
      return std::nullopt;
    }
    s.params.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    start = comma + 1;
  }
  return s;
}

bool selects(const CheckSelector& selector, const std::string& check, const ValueMap& params) {
  if (selector.check != check) return false;
  for (const auto& [key, value] : selector.params) {
    const auto it = params.find(key);
    if (it == params.end() || format_bare(it->second) != value) return false;
  }
  return true;
}

}  // namespace conform
