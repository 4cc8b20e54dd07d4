// Strings named by index in the HTML report.
#include "report/string_table.hpp"

namespace conform::report {

std::size_t StringTable::index(const std::string& text, std::size_t label) {
  auto [it, fresh] = index_.emplace(text, text_.size());
  if (fresh) {
    text_.push_back(text);
    label_.push_back(label);
  }
  return it->second;
}

nlohmann::json StringTable::to_json() const { return {{"text", text_}, {"label", label_}}; }

}  // namespace conform::report
