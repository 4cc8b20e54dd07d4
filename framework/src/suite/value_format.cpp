// Spelling of suite values in messages, case ids and reports.
#include "suite/value_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace conform {
namespace {

std::string format(const Value& v, bool quote) {
  struct Visitor {
    bool quote;
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    // TOML spells a whole float with a point (10.0); case ids keep it short.
    std::string operator()(double d) const {
      std::string s = fmt::format("{}", d);
      if (quote && s.find_first_of(".eEn") == std::string::npos) s += ".0";
      return s;
    }
    std::string operator()(const std::string& s) const {
      return quote ? fmt::format("\"{}\"", s) : s;
    }
    std::string operator()(const std::vector<std::string>& list) const {
      std::string out = "[";
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (i) out += ", ";
        out += quote ? fmt::format("\"{}\"", list[i]) : list[i];
      }
      return out + "]";
    }
  };
  return std::visit(Visitor{quote}, v);
}

}  // namespace

std::string format_toml(const Value& v) { return format(v, true); }
std::string format_bare(const Value& v) { return format(v, false); }

std::string describe(const ValueSpec& spec, const std::string& unit, const std::string& absent) {
  std::string line = fmt::format("{} ({}{})", spec.name, to_string(spec.type), unit.empty() ? "" : ", " + unit);
  line += spec.default_value ? " = " + format_toml(*spec.default_value) : " " + absent;
  if (!spec.one_of.empty()) line += fmt::format(" one of {}", fmt::join(spec.one_of, "|"));
  if (const std::string range = range_text(spec); !range.empty()) line += ", " + range;
  if (!spec.doc.empty()) line += "  " + spec.doc;
  return line;
}

}  // namespace conform
