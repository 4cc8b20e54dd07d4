// Input errors and their one-line spelling.
#include "common/input_error.hpp"

#include <algorithm>

namespace conform {
namespace {

std::string join_lines(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += d.str();
  }
  return out;
}

// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours ("ecoh" is one step from "echo").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string SourcePos::str() const {
  if (line == 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string Diagnostic::str() const { return pos.str() + ": " + message; }

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_lines(diagnostics)), diagnostics_(std::move(diagnostics)) {}

InputError::InputError(SourcePos pos, std::string message)
    : InputError(std::vector<Diagnostic>{{std::move(pos), std::move(message)}}) {}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  // Nobody mistypes a 200-character name; skip the quadratic work.
  if (word.size() > 64) return "";
  if (std::find(candidates.begin(), candidates.end(), word) != candidates.end()) return "";
  // A name cut short (`network.rtt` for `network.rtt_ms`) beats one a few
  // letters away (`network.mtu`): the shortest that begins with it.
  const std::string* prefixed = nullptr;
  for (const auto& c : candidates)
    if (word.size() >= 3 && c.starts_with(word) && (!prefixed || c.size() < prefixed->size())) prefixed = &c;
  if (prefixed) return " (did you mean '" + *prefixed + "'?)";
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (!best || d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  std::size_t allowed = std::max<std::size_t>(1, word.size() / 3);
  if (!best || best_distance == 0 || best_distance > allowed) return "";
  return " (did you mean '" + *best + "'?)";
}

}  // namespace conform
