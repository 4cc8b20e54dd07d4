// `rule_from`: finding the named file and case, each file once per load.
#include "suite/rule_from.hpp"

#include "suite/toml_file.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace conform::suite_detail {
namespace fs = std::filesystem;
namespace {

// One name for a file however it is reached; the path itself when that
// cannot be worked out.
std::string canonical_name(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return ec || canonical.empty() ? path : canonical.string();
}

const std::string kForm = "'rule_from' must read FILE#CASE-ID (FILE relative to this suite file)";

}  // namespace

const RuleSources::File& RuleSources::file(const std::string& path, Problems& problems) {
  auto [slot, fresh] = files_.try_emplace(canonical_name(path));
  File& f = slot->second;
  if (!fresh) return f;
  Problems own(path);
  if (auto parsed = parse_toml_file(path, own)) {
    f.table = std::make_unique<toml::table>(std::move(*parsed));
    return f;
  }
  // A problem inside the file is told there; one with the file as a whole
  // (missing, a folder) is told with the rule_from that names it.
  const Diagnostic& d = own.list().front();
  if (d.pos.line > 0) {
    problems.add(d.pos, d.message);
    f.why = "which has a problem at " + d.pos.str();
  } else {
    f.why = "which cannot be read (" + d.message + "; FILE is relative to the folder of the suite file)";
  }
  return f;
}

Rule RuleSources::rule_of(const toml::table& table, const std::string& suite_path, Problems& problems) {
  const toml::node* node = table.get("rule_from");
  if (!node) return {};
  const Rule failed{true, nullptr};
  const auto* text = node->as_string();
  if (!text) {
    problems.add(node->source(), kForm + ", not " + toml_type_name(*node));
    return failed;
  }
  const std::string& value = text->get();
  if (std::any_of(value.begin(), value.end(), [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; })) {
    problems.add(node->source(), "'rule_from' must not hold control characters");
    return failed;
  }
  // A file name seldom holds '#'; a case id may.
  const auto hash = value.find('#');
  if (hash == std::string::npos || hash == 0 || hash + 1 == value.size()) {
    problems.add(node->source(), kForm);
    return failed;
  }
  // Opened as written: ".." after a symbolic link goes where the system says.
  const std::string path = (fs::path(suite_path).parent_path() / value.substr(0, hash)).string();
  const std::string id = value.substr(hash + 1);
  const File& source = file(path, problems);
  if (!source.table) {
    problems.add(node->source(), "'rule_from' names " + path + ", " + source.why);
    return failed;
  }
  const toml::table* root = source.table.get();
  const toml::table* rule = nullptr;
  std::vector<std::string> ids;
  if (const auto* cases = root->get_as<toml::array>("case"))
    for (const auto& c : *cases) {
      const auto* t = c.as_table();
      const auto* case_id = t ? t->get_as<std::string>("id") : nullptr;
      if (case_id) ids.push_back(case_id->get());
      if (!case_id || case_id->get() != id) continue;
      if (rule) {
        problems.add(node->source(), "'rule_from': " + path + " has case '" + id + "' twice (lines " +
                                         std::to_string(rule->source().begin.line) + " and " +
                                         std::to_string(t->source().begin.line) + ")");
        return failed;
      }
      rule = t;
    }
  if (!rule) {
    problems.add(node->source(), "'rule_from': " + path + " has no case '" + id + "'" + did_you_mean(id, ids));
    return failed;
  }
  const auto* own_id = table.get_as<std::string>("id");
  if (own_id && own_id->get() == id && canonical_name(path) == canonical_name(suite_path)) {
    problems.add(node->source(), "'rule_from' names this case itself");
    return failed;
  }
  if (rule->contains("rule_from")) {
    problems.add(node->source(), "'rule_from': case '" + id + "' takes its own rule from elsewhere; name that one");
    return failed;
  }
  for (const char* key : kRuleKeys)
    if (const toml::node* own = table.get(key))
      problems.add(own->source(), std::string("'") + key + "' is given by the rule this case takes from '" + id +
                                      "' (rule_from): say it once, there");
  return {true, rule};
}

}  // namespace conform::suite_detail
