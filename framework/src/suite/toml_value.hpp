// Reading typed values out of TOML nodes, with positions for error messages.
// Internal to the suite loader: only its files include toml++.
#pragma once

#include "common/input_error.hpp"

#include <conform/value.hpp>

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <vector>

namespace conform::suite_detail {

/// Collects the problems of one file, each with its position.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  SourcePos at(const toml::source_region& region) const;
  void add(const toml::source_region& region, std::string message);
  void add(SourcePos pos, std::string message);
  std::vector<Diagnostic>& list() { return list_; }

 private:
  std::string file_;
  std::vector<Diagnostic> list_;
};

/// `node` as a Value of `spec.type`, or nullopt after recording why not
/// (`what` names the value in the message: "knob 'mtu' of plugin 'quic'"):
/// a wrong type, a string not in `one_of`, a number outside its bounds, a
/// float that is NaN or infinite.
std::optional<Value> to_value(const toml::node& node, const ValueSpec& spec,
                              const std::string& what, Problems& problems);

/// "integer", "string", ... as TOML names the node's type.
std::string toml_type_name(const toml::node& node);

/// The spec named `name`, or nullptr.
const ValueSpec* find_spec(const std::vector<ValueSpec>& specs, const std::string& name);

/// The names of `specs`, for "did you mean".
std::vector<std::string> spec_names(const std::vector<ValueSpec>& specs);

/// Reads a table of values against `specs`: each key must name a spec and
/// hold its type. `what` is e.g. "knob" or "parameter of scenario 'x'".
/// Keys in `skip` are the caller's and are left alone.
ValueMap read_values(const toml::table& table, const std::vector<ValueSpec>& specs,
                     const std::string& what, Problems& problems,
                     const std::vector<std::string>& skip = {});

/// `specs`' defaults overlaid with `values`.
ValueMap with_defaults(const std::vector<ValueSpec>& specs, const ValueMap& values);

}  // namespace conform::suite_detail
