// A typed value of a suite: a scenario parameter, a knob, a network setting or
// a check parameter, as written in TOML.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace conform {

/// The types a suite value may have. `integer` is a 64-bit signed TOML
/// integer; `floating` also accepts a TOML integer (10 reads as 10.0);
/// `string_list` is a TOML array of strings.
enum class ValueType { boolean, integer, floating, string, string_list };

/// One suite value. Holds exactly the alternative its ValueType names.
using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

/// Values by name (a scenario's params, an endpoint's knobs, a network table).
using ValueMap = std::map<std::string, Value>;

/// The type a Value holds.
inline ValueType type_of(const Value& v) { return static_cast<ValueType>(v.index()); }

/// "boolean", "integer", "float", "string", "array of strings".
inline std::string to_string(ValueType t) {
  switch (t) {
    case ValueType::boolean: return "boolean";
    case ValueType::integer: return "integer";
    case ValueType::floating: return "float";
    case ValueType::string: return "string";
    case ValueType::string_list: return "array of strings";
  }
  return "?";
}


/// The bounds of a float value, inclusive unless `min_excluded` ((0, 1]:
/// above 0, at most 1). Since ABI version 7.
struct FloatRange {
  double min;
  double max;
  bool min_excluded = false;
};

/// The declaration of one named, typed value a plugin or check accepts.
struct ValueSpec {
  std::string name;
  ValueType type;
  /// The value when a suite does not set it; none means the suite must.
  std::optional<Value> default_value;
  /// One line for `conform plugins`, with units (bytes, ms) where they apply.
  std::string doc;
  /// For strings: the only values allowed; empty means any.
  std::vector<std::string> one_of = {};
  /// For integers: the smallest and largest values allowed (inclusive);
  /// none means the type's own limit. The suite loader refuses a value
  /// outside, naming its file, line and column, before anything runs.
  std::optional<std::int64_t> min = {};
  std::optional<std::int64_t> max = {};
  /// For floats: the values allowed, refused outside as integers are; none
  /// means any finite or infinite value. Since ABI version 7.
  std::optional<FloatRange> range = {};
  /// For strings of `one_of`: how reports name a value, where it says more
  /// than the value itself (the external plugin's `implementation`: each
  /// profile's stack with the version installed here). Since ABI version 10.
  std::map<std::string, std::string> value_labels = {};
};

/// Value of `name` in `values`, else `fallback`; the caller names the type.
/// A present value of another type yields `fallback` (validation prevents it).
template <typename T>
T value_or(const ValueMap& values, const std::string& name, T fallback) {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  if (const T* v = std::get_if<T>(&it->second)) return *v;
  return fallback;
}

}  // namespace conform
