// JSON input files with positioned errors.
#include "common/json_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace conform {

namespace {

// Line and column (from 1) of the byte at `offset` (from 0) of `text`.
SourcePos position_of(const std::string& path, const std::string& text, std::size_t offset) {
  SourcePos pos{path, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

// Where `text` first nests arrays and objects deeper than `limit`, if it
// does. Reports are a few levels deep; a hostile file thousands deep would
// exhaust the stack of whatever walks the parsed tree.
std::optional<std::size_t> too_deep(const std::string& text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > limit) return i;
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) {
  // Only a regular file: a device such as /dev/zero never ends, and a FIFO
  // without a writer blocks the open.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) throw InputError({path}, "cannot read the file: " + ec.message());
  if (std::filesystem::is_directory(status)) throw InputError({path}, "cannot read the file: is a folder");
  if (!std::filesystem::is_regular_file(status)) throw InputError({path}, "cannot read the file: not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path}, "cannot read the file");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  constexpr std::size_t kMaxDepth = 256;
  if (auto at = too_deep(text, kMaxDepth))
    throw InputError(position_of(path, text, *at), fmt::format("malformed JSON: nested deeper than {} levels",
                                                                kMaxDepth));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte counts from 1 and points just past the offending character.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: x": keep x.
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(position_of(path, text, offset), "malformed JSON: " + what);
  }
}

InputError json_shape_error(const std::string& path, const std::string& pointer,
                            const std::string& message) {
  return InputError({path}, "at " + (pointer.empty() ? std::string("/") : pointer) + ": " + message);
}

std::string json_error_message(const std::exception& e) {
  const std::string what = e.what();
  const auto end = what.find("] ");
  return what.starts_with("[json.exception") && end != std::string::npos ? what.substr(end + 2) : what;
}

std::string json_string(const std::string& path, const nlohmann::json& j, const std::string& pointer,
                        const char* key) {
  if (!j.is_object()) throw json_shape_error(path, pointer, "expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw json_shape_error(path, pointer, std::string("no \"") + key + "\"");
  if (!it->is_string()) throw json_shape_error(path, pointer + "/" + key, "expected a string");
  return it->get<std::string>();
}

}  // namespace conform
