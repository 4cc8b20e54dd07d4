// Typed values from TOML nodes.
#include "suite/toml_value.hpp"

#include "common/value_range.hpp"
#include "suite/value_format.hpp"

#include <algorithm>
#include <cmath>

namespace conform::suite_detail {

SourcePos Problems::at(const toml::source_region& region) const {
  // A node read from another file (a case's rule_from) names that file.
  return {region.path ? *region.path : file_, region.begin.line, region.begin.column};
}

void Problems::add(const toml::source_region& region, std::string message) {
  add(at(region), std::move(message));
}

void Problems::add(SourcePos pos, std::string message) {
  list_.push_back({std::move(pos), std::move(message)});
}

std::string toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::string: return "string";
    case toml::node_type::array: return "array";
    case toml::node_type::table: return "table";
    default: return "date/time";
  }
}

namespace {

std::optional<Value> convert(const toml::node& node, ValueType type) {
  switch (type) {
    case ValueType::boolean:
      if (auto v = node.as_boolean()) return Value{v->get()};
      break;
    case ValueType::integer:
      if (auto v = node.as_integer()) return Value{v->get()};
      break;
    case ValueType::floating:
      if (auto v = node.as_floating_point()) return Value{v->get()};
      if (auto v = node.as_integer()) return Value{static_cast<double>(v->get())};
      break;
    case ValueType::string:
      if (auto v = node.as_string()) return Value{v->get()};
      break;
    case ValueType::string_list:
      if (auto arr = node.as_array()) {
        std::vector<std::string> list;
        for (const auto& item : *arr) {
          auto s = item.as_string();
          if (!s) return std::nullopt;
          list.push_back(s->get());
        }
        return Value{std::move(list)};
      }
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Value> to_value(const toml::node& node, const ValueSpec& spec,
                              const std::string& what, Problems& problems) {
  auto value = convert(node, spec.type);
  if (!value) {
    const bool vowel = spec.type == ValueType::integer || spec.type == ValueType::string_list;
    problems.add(node.source(), what + " must be " + (vowel ? "an " : "a ") + to_string(spec.type) +
                                    ", not " + toml_type_name(node));
    return std::nullopt;
  }
  if (const auto* text = std::get_if<std::string>(&*value); text && !spec.one_of.empty()) {
    const auto& s = *text;
    if (std::find(spec.one_of.begin(), spec.one_of.end(), s) == spec.one_of.end()) {
      std::string choices;
      for (const auto& c : spec.one_of) choices += (choices.empty() ? "" : ", ") + ('"' + c + '"');
      // No near miss: what the setting is, which may say where its
      // choices come from (the external plugin's profiles).
      const std::string near = did_you_mean(s, spec.one_of);
      // Its first sentence: a long documentation says first why a value
      // may be missing (the quic plugin's HTTP/3 violations).
      const std::size_t stop = spec.doc.find(". ");
      const std::string doc = stop == std::string::npos ? spec.doc : spec.doc.substr(0, stop + 1);
      problems.add(node.source(), what + " is \"" + s + "\", not one of " + choices +
                                      (near.empty() && !doc.empty() ? "; " + doc : near));
      return std::nullopt;
    }
  }
  // JSON reports cannot hold NaN or infinity, and no setting means either.
  if (const auto* d = std::get_if<double>(&*value); d && !std::isfinite(*d)) {
    problems.add(node.source(), what + " = " + format_toml(*value) + " is not a finite number");
    return std::nullopt;
  }
  if (out_of_range(spec, *value)) {
    // An integer written for a float is echoed as written: `budget_ms = 0`, not 0.0.
    const std::string written = node.is_integer() ? std::to_string(node.as_integer()->get()) : format_toml(*value);
    problems.add(node.source(), what + " = " + written + " is out of range: " + range_text(spec));
    return std::nullopt;
  }
  return value;
}


const ValueSpec* find_spec(const std::vector<ValueSpec>& specs, const std::string& name) {
  for (const auto& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> spec_names(const std::vector<ValueSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names;
}

ValueMap read_values(const toml::table& table, const std::vector<ValueSpec>& specs,
                     const std::string& what, Problems& problems,
                     const std::vector<std::string>& skip) {
  ValueMap out;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
    const ValueSpec* spec = find_spec(specs, name);
    if (!spec) {
      // The keys the table takes besides the specs (`level` of an expect)
      // are near misses too.
      std::vector<std::string> names = spec_names(specs);
      names.insert(names.end(), skip.begin(), skip.end());
      problems.add(key.source(), "unknown " + what + " '" + name + "'" + did_you_mean(name, names));
      continue;
    }
    if (auto v = to_value(node, *spec, what + " '" + name + "'", problems)) out[name] = *v;
  }
  return out;
}

ValueMap with_defaults(const std::vector<ValueSpec>& specs, const ValueMap& values) {
  ValueMap out;
  for (const auto& s : specs)
    if (s.default_value) out[s.name] = *s.default_value;
  for (const auto& [k, v] : values) out[k] = v;
  return out;
}

}  // namespace conform::suite_detail
