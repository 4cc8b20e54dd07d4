// The JUnit XML of a real `conform run`, read back with an XML parser
// (Boost.PropertyTree's) as a CI system reads it: each testcase's
// <properties> carry its RFC section, its requirement and each mutant's
// verdict, ahead of its <failure>. On the fixture plugin.
#include "support/support.hpp"

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <boost/test/unit_test.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace conform::test;
namespace pt = boost::property_tree;

namespace {

// A fixture case whose check fails when the server does not echo.
std::string echo_case(const std::string& id, bool echo, const std::string& mutants) {
  return "[[case]]\nid = \"" + id + "\"\nrfc = \"9000§4.6\"\n"
         "requirement = \"the server MUST answer <each> datagram (fixture)\"\nplugin = \"fixture\"\n"
         "scenario = \"echo\"\nserver = { echo = " + (echo ? "true" : "false") + " }\n"
         "  [[case.expect]]\n  check = \"datagrams_captured\"\n  vantage = \"client\"\n  from = \"server\"\n" +
         mutants + "\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(junit_report_test)

BOOST_AUTO_TEST_CASE(testcases_carry_section_requirement_and_mutants) {
  const std::string dir = scratch_dir("junit-report");
  // j/mutants: one mutant that silences the server (killed), one that
  // changes nothing the check sees (survives, so the case fails).
  const std::string suite = write_file(
      dir + "/j.toml",
      echo_case("j/mutants", true,
                "  [[case.mutant]]\n  server = { echo = false }\n  fails = [\"datagrams_captured\"]\n"
                "  [[case.mutant]]\n  server = { label = \"y\" }\n  fails = [\"datagrams_captured\"]\n") +
          echo_case("j/plain", true, ""));
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--junit", dir + "/j.xml"});
  BOOST_TEST_REQUIRE(r.exit_code == 1, r.out + r.err);

  pt::ptree doc;
  std::istringstream xml(read_file(dir + "/j.xml"));
  pt::read_xml(xml, doc);  // throws on XML that is not well formed
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> properties;
  std::map<std::string, std::vector<std::string>> children;
  for (const auto& [tag, testcase] : doc.get_child("testsuites.testsuite")) {
    if (tag != "testcase") continue;
    const std::string name = testcase.get<std::string>("<xmlattr>.name");
    for (const auto& [child, content] : testcase) {
      if (child == "<xmlattr>") continue;
      children[name].push_back(child);
      if (child != "properties") continue;
      for (const auto& [p, property] : content)
        properties[name].emplace_back(property.get<std::string>("<xmlattr>.name"),
                                      property.get<std::string>("<xmlattr>.value"));
    }
  }
  using Properties = std::vector<std::pair<std::string, std::string>>;
  const std::string requirement = "the server MUST answer <each> datagram (fixture)";
  BOOST_TEST((properties["j/mutants"] == Properties{{"rfc", "9000§4.6"},
                                                     {"requirement", requirement},
                                                     {"mutant server.echo=false", "killed"},
                                                     {"mutant server.label=\"y\"", "survived"}}));
  BOOST_TEST((properties["j/plain"] == Properties{{"rfc", "9000§4.6"}, {"requirement", requirement}}));
  // <properties> first, then the verdict, as the JUnit schemas order them.
  BOOST_TEST((children["j/mutants"] == std::vector<std::string>{"properties", "failure"}));
  BOOST_TEST((children["j/plain"] == std::vector<std::string>{"properties"}));
}

BOOST_AUTO_TEST_CASE(characters_xml_does_not_allow_become_question_marks) {
  // U+FFFE and U+FFFF are valid in TOML and UTF-8, not in XML 1.0 (§2.2).
  const std::string dir = scratch_dir("junit-noncharacters");
  const std::string suite = write_file(dir + "/n.toml", echo_case("j/odd\\uFFFF<&>", true, ""));
  auto r = run_conform({"run", suite, "--out", dir + "/out", "--junit", dir + "/n.xml"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.out + r.err);
  const std::string xml = read_file(dir + "/n.xml");
  BOOST_TEST(xml.find("\xEF\xBF\xBF") == std::string::npos);
  BOOST_TEST(xml.find("name=\"j/odd?&lt;&amp;&gt;\"") != std::string::npos, xml);
}

BOOST_AUTO_TEST_SUITE_END()
