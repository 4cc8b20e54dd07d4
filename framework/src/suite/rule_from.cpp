// `rule_from`: finding the named file and case, once per file.
#include "suite/rule_from.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace conform::suite_detail {
namespace fs = std::filesystem;

const toml::table* RuleSources::file(const std::string& path, const toml::source_region& where, Problems& problems) {
  std::error_code ec;
  const std::string key = fs::weakly_canonical(path, ec).string();
  if (auto found = files_.find(key); found != files_.end()) {
    if (!found->second) problems.add(where, "'rule_from' names " + path + ", which has problems (above)");
    return found->second.get();
  }
  auto& slot = files_[key];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problems.add(where, "'rule_from' names " + path + ", which cannot be read");
    return nullptr;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    slot = std::make_unique<toml::table>(toml::parse(text, path));
  } catch (const toml::parse_error& e) {
    problems.add(e.source(), std::string(e.description()));
  }
  return slot.get();
}

const toml::table* RuleSources::rule_of(const toml::table& table, const std::string& suite_path,
                                        Problems& problems) {
  const toml::node* node = table.get("rule_from");
  if (!node) return nullptr;
  const auto* text = node->as_string();
  const std::string value = text ? text->get() : "";
  const auto hash = value.rfind('#');
  if (!text || hash == std::string::npos || hash == 0 || hash + 1 == value.size()) {
    problems.add(node->source(), "'rule_from' must read FILE#CASE-ID (FILE relative to this suite file)");
    return nullptr;
  }
  const std::string path = (fs::path(suite_path).parent_path() / value.substr(0, hash)).lexically_normal().string();
  const std::string id = value.substr(hash + 1);
  const toml::table* root = file(path, node->source(), problems);
  if (!root) return nullptr;
  const toml::table* rule = nullptr;
  if (const auto* cases = root->get_as<toml::array>("case"))
    for (const auto& c : *cases)
      if (const auto* t = c.as_table(); t && t->get_as<std::string>("id") && **t->get_as<std::string>("id") == id)
        rule = t;
  if (!rule) {
    problems.add(node->source(), "'rule_from': " + path + " has no case '" + id + "'");
    return nullptr;
  }
  if (rule->contains("rule_from")) {
    problems.add(node->source(), "'rule_from': case '" + id + "' takes its own rule from elsewhere; name that one");
    return nullptr;
  }
  bool clash = false;
  for (const char* key : kRuleKeys)
    if (const toml::node* own = table.get(key)) {
      problems.add(own->source(), std::string("'") + key + "' is given by the rule this case takes from '" + id +
                                      "' (rule_from): say it once, there");
      clash = true;
    }
  return clash ? nullptr : rule;
}

}  // namespace conform::suite_detail
