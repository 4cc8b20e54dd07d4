// Reading a JSON document a user hands conform (an earlier report used as a
// baseline, shard reports to merge), with errors that name the file and the
// line and column, or the JSON pointer, of the problem.
#pragma once

#include "common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <exception>
#include <string>

namespace conform {

/// The parsed document of `path`. Throws InputError `path:line:col: ...`
/// for malformed JSON and `path: ...` for a file that cannot be read.
nlohmann::json read_json_file(const std::string& path);

/// `path: at /cases/3/status: message`: a document of the wrong shape, named
/// by the JSON pointer of the offending member (RFC 6901).
InputError json_shape_error(const std::string& path, const std::string& pointer,
                            const std::string& message);

/// `e`'s message, without the "[json.exception.type_error.302] " tag
/// nlohmann puts before its own: the part a user can act on.
std::string json_error_message(const std::exception& e);

/// `j[key]` as a string, or json_shape_error naming `pointer/key`.
std::string json_string(const std::string& path, const nlohmann::json& j,
                        const std::string& pointer, const char* key);

}  // namespace conform
