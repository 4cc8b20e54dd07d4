// Suite rules beyond single values: matrix keys written as tables or twice,
// mutants naming roles the plugin does not play, no_mutant, files named
// twice, and problems reported in file order; and the shipped suites'
// promise that every check is proven able to fail.
#include "support/build_paths.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>
#include <toml++/toml.h>

#include <filesystem>
#include <set>

using namespace conform;
using namespace conform::test;

namespace {

const std::string kCase = R"(
[[case]]
id = "r/one"
rfc = "9000§1"
requirement = "it MUST work"
plugin = "quic"
scenario = "fanout"
params = { label = "x" }
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(suite_rules_test)

BOOST_AUTO_TEST_CASE(an_unquoted_dotted_matrix_key_gets_a_hint) {
  const auto p = parse_text(scratch_dir("rules_dotted"), "m.toml",
                            kCase + "matrix = { client.initial_mtu = [1200, 1500] }\n" + kExpect);
  BOOST_TEST(p.lines() == (std::vector<std::string>{at(
                              p.path, 8, 12,
                              "matrix key 'client' holds a table: quote dotted keys, e.g. "
                              "\"client.x\" = [1, 2]")}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_matrix_setting_may_not_appear_twice) {
  const auto p = parse_text(scratch_dir("rules_twice"), "m.toml",
                            kCase + "matrix = { frames = [1, 2], \"params.frames\" = [3] }\n" + kExpect);
  BOOST_TEST(p.lines() == (std::vector<std::string>{at(p.path, 8, 29, "matrix sets 'frames' twice")}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_mutant_may_not_set_a_role_the_plugin_does_not_play) {
  PluginInfo client_only = quic_plugin();
  client_only.roles = {"client"};
  Catalogue catalogue{{&client_only}, &CheckRegistry::builtin(), &network_spec()};
  const auto p = parse_text(scratch_dir("rules_mutant_role"), "m.toml",
                            kCase + kExpect +
                                "  [[case.mutant]]\n"
                                "  server = { emit_max_streams = false }\n"
                                "  client = { initial_mtu = 1300 }\n"
                                "  fails = [\"datagrams_captured\"]\n",
                            catalogue);
  BOOST_TEST(p.lines() == (std::vector<std::string>{at(
                              p.path, 12, 12,
                              "mutant sets knobs of role 'server', which plugin 'quic' does not play")}),
             boost::test_tools::per_element());
  // The same role in the case itself makes the case unsupported, not invalid.
  const auto q = parse_text(scratch_dir("rules_case_role"), "c.toml",
                            kCase + "server = { emit_max_streams = false }\n" + kExpect, catalogue);
  BOOST_TEST(q.problems.empty());
  BOOST_TEST(q.suite->cases.at(0).unsupported == "plugin 'quic' plays no 'server' role");
}

// A case without mutants says why; one with mutants cannot also say so.
BOOST_AUTO_TEST_CASE(no_mutant_says_why_and_only_without_mutants) {
  const auto ok = parse_text(scratch_dir("rules_no_mutant"), "m.toml",
                             kCase + "no_mutant = \"a control: no fault can show here\"\n" + kExpect);
  BOOST_TEST(ok.lines().empty());
  BOOST_TEST(*ok.suite->cases.at(0).no_mutant == "a control: no fault can show here");
  const auto empty = parse_text(scratch_dir("rules_no_mutant_empty"), "m.toml", kCase + "no_mutant = \"\"\n" + kExpect);
  BOOST_TEST(empty.lines() == (std::vector<std::string>{at(empty.path, 8, 13,
                                                          "'no_mutant' must say why the case has no mutant")}),
             boost::test_tools::per_element());
  const auto both = parse_text(scratch_dir("rules_no_mutant_both"), "m.toml",
                               kCase + "no_mutant = \"none\"\n" + kExpect +
                                   "  [[case.mutant]]\n  client = { initial_mtu = 1300 }\n"
                                   "  fails = [\"datagrams_captured\"]\n");
  BOOST_TEST(both.lines() == (std::vector<std::string>{at(both.path, 8, 13,
                                                         "'no_mutant' says why a case has no mutant, but this one "
                                                         "has 1")}),
             boost::test_tools::per_element());
}

// Every check of the catalogue is the target of a mutant somewhere in the
// shipped suites: none is trusted to fail without having been seen to.
// (That each in-house QUIC case has a mutant or says why not, the loader
// holds: mutants_required.)
BOOST_AUTO_TEST_CASE(every_shipped_check_is_proven_able_to_fail) {
  const std::filesystem::path suites = std::filesystem::path(CONFORM_SOURCE_DIR) / "suites";
  std::set<std::string> targets;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(suites)) {
    if (entry.path().extension() != ".toml") continue;
    const toml::table root = toml::parse_file(entry.path().string());
    const toml::array* cases = root["case"].as_array();
    for (std::size_t i = 0; cases && i < cases->size(); ++i) {
      const toml::array* mutants = (*cases->get(i)->as_table())["mutant"].as_array();
      for (std::size_t m = 0; mutants && m < mutants->size(); ++m)
        if (const toml::array* fails = (*mutants->get(m)->as_table())["fails"].as_array())
          for (const auto& f : *fails) {
            const std::string text = f.value_or(std::string());
            targets.insert(text.substr(0, text.find('[')));
          }
    }
  }
  for (const auto& check : CheckRegistry::builtin().names())
    BOOST_TEST(targets.contains(check), "no mutant of the shipped suites targets " << check);
}

BOOST_AUTO_TEST_CASE(a_file_named_twice_is_loaded_once) {
  const auto dir = scratch_dir("rules_twice_named");
  const auto file = write_file(dir + "/s/a.toml", toml_text(kCase + kExpect));
  BOOST_TEST(discover_suite_files({file, dir + "/s", dir + "/s/../s/a.toml"}) ==
                 std::vector<std::string>{file},
             boost::test_tools::per_element());
  BOOST_TEST(load_suites({file, dir + "/s"}, test_catalogue()).size() == 1u);
}

BOOST_AUTO_TEST_CASE(problems_come_in_file_order) {
  const auto dir = scratch_dir("rules_order");
  // toml++ visits keys by name: `zeta` before `alpha` in the file, and the
  // problem with `zeta` must still come first.
  const auto file = write_file(dir + "/o.toml", toml_text(kCase + "zeta = 1\nalpha = 2\n" + kExpect));
  try {
    load_suites({file}, test_catalogue());
    BOOST_FAIL("unknown keys were accepted");
  } catch (const InputError& e) {
    const auto lines = lines_of(e);
    BOOST_REQUIRE_EQUAL(lines.size(), 2u);
    BOOST_TEST(lines[0].rfind(file + ":8:1: unknown key 'zeta'", 0) == 0u, lines[0]);
    BOOST_TEST(lines[1].rfind(file + ":9:1: unknown key 'alpha'", 0) == 0u, lines[1]);
  }
}

BOOST_AUTO_TEST_CASE(absurdly_deep_keys_are_refused_not_a_crash) {
  std::string deep = "[a";
  for (int i = 0; i < 60000; ++i) deep += ".a";
  const auto p = parse_text(scratch_dir("rules_deep"), "d.toml", "x = 1\n" + deep + "]\n");
  BOOST_TEST(p.lines() == (std::vector<std::string>{at(p.path, 2, 1, "keys nested more than 64 levels deep")}),
             boost::test_tools::per_element());
  // Dots in values do not count: seventy floats on one line are fine.
  std::string floats = "values = [";
  for (int i = 0; i < 70; ++i) floats += "0.5, ";
  const auto q = parse_text(scratch_dir("rules_floats"), "f.toml", floats + "]\n");
  BOOST_TEST(q.lines() == (std::vector<std::string>{at(q.path, 1, 1, "unknown top-level key 'values'")}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
