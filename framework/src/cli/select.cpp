// Case selection.
#include "cli/select.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace conform {

bool id_matches(const std::string& id, const std::string& glob) {
  return id == glob || fnmatch(glob.c_str(), id.c_str(), 0) == 0;
}

bool section_matches(const std::string& section, const std::string& prefix) {
  if (section.compare(0, prefix.size(), prefix) != 0) return false;
  if (section.size() == prefix.size()) return true;
  const std::string rest = section.substr(prefix.size());
  return rest.front() == '.' || rest.rfind("§", 0) == 0;
}

std::vector<Case> select_cases(std::vector<Case> cases, const std::vector<std::string>& filters,
                               const std::vector<std::string>& sections) {
  std::erase_if(cases, [&](const Case& c) {
    bool by_id = filters.empty() || std::any_of(filters.begin(), filters.end(), [&](const auto& f) {
                   return id_matches(c.id(), f);
                 });
    bool by_section =
        sections.empty() || std::any_of(sections.begin(), sections.end(), [&](const auto& s) {
          return section_matches(c.decl->rfc, s);
        });
    return !(by_id && by_section);
  });
  return cases;
}

}  // namespace conform
