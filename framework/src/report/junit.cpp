// JUnit XML in the shape Jenkins and GitLab read.
#include "report/file_reporter.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>

namespace conform {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  return n;
}

// Escaped for an attribute or text of an XML 1.0 document in UTF-8: bytes
// that are not UTF-8 and control characters XML forbids become '?'.
std::string xml_escape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    if (n > 1) {
      // U+FFFE and U+FFFF are valid UTF-8 but not XML 1.0 characters (§2.2).
      const bool non_character = n == 3 && s.compare(i, 2, "\xEF\xBF") == 0 &&
                                 (s[i + 2] == '\xBE' || s[i + 2] == '\xBF');
      out += non_character ? std::string("?") : s.substr(i, n);
      i += n;
      continue;
    }
    ++i;
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
          out += '?';
        else
          out += ch;
    }
  }
  return out;
}

std::string failure_text(const CaseResult& r, bool seeded) {
  std::string text;
  for (const auto& run : r.runs) {
    if (seeded) text += fmt::format("seed {}: ", run.seed);
    text += fmt::format("{} {}\n", to_string(run.status), run.reason);
    for (const auto& c : run.checks) {
      text += fmt::format("  {} {}: {}\n", verdict_label(c), c.check, c.result.summary);
      for (const auto& e : c.result.evidence)
        text += fmt::format("    {} frame {}: {}\n", e.capture, e.frame, e.text);
    }
  }
  for (const auto& m : r.mutants)
    text += fmt::format("mutant {}: {}\n", m.label, mutant_verdict(m));
  return text;
}

// What a CI page shows beside the verdict: the RFC section, the requirement
// (with its level, MUST, SHOULD, MAY, in its words) and each mutant's
// verdict, as the <properties> of the testcase that JUnit XML readers take.
std::string properties(const CaseResult& r) {
  std::string xml = "      <properties>\n";
  auto add = [&](const std::string& name, const std::string& value) {
    xml += fmt::format("        <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
  };
  add("rfc", r.c->decl->rfc);
  if (!r.c->decl->requirement.empty()) add("requirement", r.c->decl->requirement);
  for (const auto& m : r.mutants) add("mutant " + m.label, m.killed ? "killed" : "survived");
  return xml + "      </properties>\n";
}

std::string testcase(const CaseResult& r, const std::string& classname, bool seeded) {
  std::string xml = fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n",
                                xml_escape(classname), xml_escape(r.c->id()), r.duration_s) +
                    properties(r);
  const std::string message = xml_escape(r.headline);
  switch (r.status) {
    case Status::pass:
    case Status::xfail:
      break;
    case Status::unsupported:
      xml += fmt::format("      <skipped message=\"{}\"/>\n", message);
      break;
    case Status::interrupted:
      xml += fmt::format("      <skipped message=\"INTERRUPTED: {}\"/>\n", message);
      break;
    case Status::not_exercised:
    case Status::not_judged:
    case Status::not_applicable:
      xml += fmt::format("      <skipped message=\"{}: {}\">{}</skipped>\n", to_string(r.status), message,
                         xml_escape(failure_text(r, seeded)));
      break;
    case Status::fail:
    case Status::xpass:
      xml += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", to_string(r.status), message,
                         xml_escape(failure_text(r, seeded)));
      break;
    default:
      xml += fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n", to_string(r.status), message,
                         xml_escape(failure_text(r, seeded)));
  }
  return xml + "    </testcase>\n";
}

}  // namespace

std::string JunitReporter::render(const RunTotals&) const {
  // Suites in the order their first case ran.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CaseResult*>> by_suite;
  for (const auto& r : results_) {
    auto& list = by_suite[r.c->suite->path];
    if (list.empty()) order.push_back(r.c->suite->path);
    list.push_back(&r);
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conform\">\n";
  for (const auto& path : order) {
    const auto& list = by_suite[path];
    std::size_t failures = 0, errors = 0, skipped = 0;
    double time = 0;
    for (const auto* r : list) {
      failures += r->status == Status::fail || r->status == Status::xpass;
      errors += r->status == Status::error || r->status == Status::timeout;
      skipped += is_skipped(r->status) || r->status == Status::interrupted || r->status == Status::not_judged ||
                 r->status == Status::not_applicable;
      time += r->duration_s;
    }
    xml += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
        xml_escape(path), list.size(), failures, errors, skipped, time);
    const std::string classname = std::filesystem::path(path).stem().string();
    for (const auto* r : list) xml += testcase(*r, classname, plan_.seeded);
    xml += "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

}  // namespace conform
