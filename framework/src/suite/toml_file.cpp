// Reading one TOML file, refusing what would crash or hang toml++.
#include "suite/toml_file.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace conform::suite_detail {
namespace {

// toml++ recurses once per part of a dotted key, so a key of tens of
// thousands of parts overflows the stack; no suite needs more than a few.
constexpr std::size_t kMaxKeyDepth = 64;

// The line (from 1) of the first line with a dotted key of more than
// kMaxKeyDepth parts, counting dots outside quotes before any '=' (values
// such as floats hold dots too); nullopt if none.
std::optional<std::uint32_t> too_deep(const std::string& text) {
  std::uint32_t line = 1;
  std::size_t dots = 0;
  char quote = 0;
  for (char ch : text) {
    if (ch == '\n') {
      ++line;
      dots = 0;
      quote = 0;
    } else if (quote) {
      if (ch == quote) quote = 0;
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == '#' || ch == '=') {
      quote = '\n';
    } else if (ch == '.' && ++dots >= kMaxKeyDepth) {
      return line;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<toml::table> parse_toml_file(const std::string& path, Problems& problems) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(status)) {
    problems.add(SourcePos{path}, ec ? "cannot read: " + ec.message() : "not a regular file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    problems.add(SourcePos{path}, "cannot read the file");
    return std::nullopt;
  }
  if (auto deep = too_deep(text)) {
    problems.add(SourcePos{path, *deep, 1}, "keys nested more than " + std::to_string(kMaxKeyDepth) + " levels deep");
    return std::nullopt;
  }
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    problems.add(e.source(), std::string(e.description()));
    return std::nullopt;
  }
}

}  // namespace conform::suite_detail
