// Command templates of a profile: strings with `{name}` placeholders that the
// external plugin fills per run (address, port, key log path, files, request
// count, stream limits). `{{` and `}}` stand for literal braces.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace external {

/// Every placeholder a template may use, with what it becomes; for the
/// profile checker and docs/plugins.md.
const std::vector<std::pair<std::string, std::string>>& placeholders();

/// A problem in a template: the byte offset in it and what is wrong.
struct TemplateProblem {
  std::size_t offset = 0;
  std::string message;
};

/// The first problem of `text`: an unknown placeholder, an unclosed `{`, a
/// lone `}`; nothing when it expands.
std::optional<TemplateProblem> check_template(const std::string& text);

/// `text` with every placeholder replaced by its value in `values` (a
/// checked template names only known placeholders; one missing from
/// `values` becomes the empty string).
std::string expand(const std::string& text, const std::map<std::string, std::string>& values);

}  // namespace external
