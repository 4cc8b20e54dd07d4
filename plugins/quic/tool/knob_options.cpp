// Knob options read by the knob's own spec.
#include "tool/knob_options.hpp"

#include "scenarios/knobs.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace conform::quic::tool {
namespace {

std::optional<std::int64_t> integer(const std::string& text, const ValueSpec& spec, std::string& why) {
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    why = "expected an integer, got '" + text + "'";
    return std::nullopt;
  }
  const std::int64_t min = spec.min.value_or(std::numeric_limits<std::int64_t>::min());
  const std::int64_t max = spec.max.value_or(std::numeric_limits<std::int64_t>::max());
  if (x < min || x > max) {
    why = text + " is out of range: from " + std::to_string(min) + " to " + std::to_string(max);
    return std::nullopt;
  }
  return x;
}

std::optional<double> floating(const std::string& text, const ValueSpec& spec, std::string& why) {
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(text.c_str(), &end);
  // ERANGE on underflow still reads the nearest value (a denormal, 0): only
  // an overflow, or a text that is not a number, is refused here.
  if (text.empty() || *end != '\0' || std::isnan(x) || std::isspace(static_cast<unsigned char>(text.front()))) {
    why = "expected a number, got '" + text + "'";
    return std::nullopt;
  }
  if (errno == ERANGE && std::isinf(x)) {
    why = text + " is out of range";
    return std::nullopt;
  }
  if (const auto& r = spec.range; r && (x > r->max || x < r->min || (r->min_excluded && x == r->min))) {
    why = text + " is out of range: " + (r->min_excluded ? "above " : "from ") + knob_text(r->min) + " to " +
          knob_text(r->max);
    return std::nullopt;
  }
  return x;
}

// `text` read as `spec` declares it, or nothing with `why` set.
std::optional<Value> read(const std::string& text, const ValueSpec& spec, std::string& why) {
  switch (spec.type) {
    case ValueType::boolean:
      if (text == "true" || text == "false") return Value{text == "true"};
      why = "expected true or false, got '" + text + "'";
      return std::nullopt;
    case ValueType::integer:
      if (auto x = integer(text, spec, why)) return Value{*x};
      return std::nullopt;
    case ValueType::floating:
      if (auto x = floating(text, spec, why)) return Value{*x};
      return std::nullopt;
    case ValueType::string:
      if (!spec.one_of.empty() && std::find(spec.one_of.begin(), spec.one_of.end(), text) == spec.one_of.end()) {
        why = "'" + text + "' is not one of " + knob_text(spec.one_of);
        return std::nullopt;
      }
      return Value{text};
    case ValueType::string_list: {
      std::vector<std::string> list;
      for (std::size_t from = 0; from <= text.size();) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        list.push_back(text.substr(from, comma - from));
        if (list.back().empty()) {
          why = "an empty item in '" + text + "'";
          return std::nullopt;
        }
        from = comma + 1;
      }
      return Value{list};
    }
  }
  return std::nullopt;
}

// CLI11's spelling of a type in the help.
const char* type_name(ValueType type) {
  switch (type) {
    case ValueType::boolean: return "BOOLEAN";
    case ValueType::integer: return "INT";
    case ValueType::floating: return "FLOAT";
    case ValueType::string: return "TEXT";
    case ValueType::string_list: return "LIST";
  }
  return "";
}

// What the help shows after the type: the values the knob allows.
std::string allowed(const ValueSpec& spec) {
  switch (spec.type) {
    case ValueType::boolean: return "true|false";
    case ValueType::integer:
      if (!spec.min && !spec.max) return "";
      return "in [" + (spec.min ? std::to_string(*spec.min) : "") + " - " +
             (spec.max ? std::to_string(*spec.max) : "") + "]";
    case ValueType::floating:
      if (!spec.range) return "";
      return std::string("in ") + (spec.range->min_excluded ? "(" : "[") + knob_text(spec.range->min) + " - " +
             knob_text(spec.range->max) + "]";
    case ValueType::string: {
      std::string out;
      for (const auto& s : spec.one_of) out += (out.empty() ? "" : "|") + s;
      return out;
    }
    case ValueType::string_list: return "comma-separated";
  }
  return "";
}

CLI::Validator validator(const ValueSpec& spec) {
  return CLI::Validator(
      [spec](std::string& text) {
        std::string why;
        read(text, spec, why);
        return why;
      },
      allowed(spec));
}

}  // namespace

void add_knob_options(CLI::App& cmd, ValueMap& values) {
  for (const ValueSpec& spec : knob_specs()) {
    auto store = [&values, spec](const std::string& text) {
      std::string why;
      if (auto v = read(text, spec, why)) values[spec.name] = *v;
    };
    CLI::Option* option = cmd.add_option_function<std::string>(knob_option(spec.name), store, spec.doc);
    option->check(validator(spec))->type_name(type_name(spec.type));
    if (spec.default_value) option->default_str(knob_text(*spec.default_value));
  }
}

}  // namespace conform::quic::tool
