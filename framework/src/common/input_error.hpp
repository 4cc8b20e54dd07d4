// Errors in what a user gave conform (a suite, a plugin file, a capture): each
// one line `file:line:col: message` (or `file: message` without a position).
// The loaders throw InputError; the CLI prints its lines and exits with 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace conform {

/// A place in an input file; line and column count from 1, 0 when unknown.
struct SourcePos {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  /// `file:line:col`, or `file` when the line is unknown.
  std::string str() const;
};

/// One problem found in an input.
struct Diagnostic {
  SourcePos pos;
  std::string message;
  /// `file:line:col: message`, or `file: message` when the line is unknown.
  std::string str() const;
};

/// One or more diagnostics; what() holds them one per line.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<Diagnostic> diagnostics);
  InputError(SourcePos pos, std::string message);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

/// " (did you mean 'x'?)" naming the candidate nearest to `word` when it is
/// close (edit distance at most a third of its length, and at least 1), else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace conform
