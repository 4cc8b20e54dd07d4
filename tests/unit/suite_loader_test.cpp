// The suite loader: finding suite files, reading a whole valid case with every
// field typed, defaults, the `[suite]` table and file-level errors, and
// duplicate ids across files.
#include "suite/loader.hpp"
#include "suite/matrix.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <tuple>

using namespace conform;
using namespace conform::test;

namespace {

// A valid case of 9 lines (its id on line 2, column 6), ending in a newline;
// `extra` lines go after its sixth line, before its expect.
std::string valid_case(const std::string& id, const std::string& extra = "") {
  return "[[case]]\n"
         "id = \"" + id + "\"\n"
         "rfc = \"9000§1\"\n"
         "requirement = \"it MUST work\"\n"
         "plugin = \"quic\"\n"
         "scenario = \"handshake\"\n" +
         extra +
         "  [[case.expect]]\n"
         "  check = \"datagrams_captured\"\n"
         "  vantage = \"client\"\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(suite_loader_test)

BOOST_AUTO_TEST_CASE(full_valid_case_loads_with_every_field_typed) {
  const auto dir = scratch_dir("suite_loader_full");
  const auto p = parse_text(dir, "full.toml", R"(
[suite]
title = "Stream limits"
rfc = "9000"

[[case]]
id = "streams/fanout"
summary = "many streams"
rfc = "9000§4.6"
requirement = "an endpoint MUST NOT exceed the limit"
plugin = "quic"
scenario = "fanout"
params = { frames = 200, cc = "cubic", pacing_gain = 2, tags = ["a", "b"], zero_rtt = true, label = "L" }
client = { initial_mtu = 1500, initial_rtt_ms = 100 }
server = { emit_max_streams = false, alpn = ["hq", "h3"] }
network = { rtt_ms = 20, loss_rate = 0.01, mtu = 1400 }
seeds = 3
timeout = 2.5
xfail = "not implemented yet"

  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
  from = "server"
  min = 2
  max = 5

  [[case.expect]]
  check = "datagrams_captured"
  vantage = "server"

  [[case.mutant]]
  server = { emit_max_streams = true }
  params = { frames = 1 }
  network = { rtt_ms = 5.5 }
  fails = ["datagrams_captured"]
)");
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_TEST(p.suite->path == p.path);
  BOOST_TEST(p.suite->title == "Stream limits");
  BOOST_TEST(p.suite->rfc == "9000");
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const CaseDecl& c = p.suite->cases[0];
  BOOST_TEST(c.pos.str() == p.path + ":6:6");
  BOOST_TEST(c.id == "streams/fanout");
  BOOST_TEST(c.summary == "many streams");
  BOOST_TEST(c.rfc == "9000§4.6");
  BOOST_TEST(c.requirement == "an endpoint MUST NOT exceed the limit");
  BOOST_TEST(c.plugin == "quic");
  BOOST_TEST(c.scenario == "fanout");
  // As written, no defaults; pacing_gain = 2 is a float.
  BOOST_TEST(describe(c.params) ==
             "cc=string \"cubic\"; frames=integer 200; label=string \"L\"; pacing_gain=float 2.0; "
             "tags=array of strings [\"a\", \"b\"]; zero_rtt=boolean true");
  BOOST_REQUIRE_EQUAL(c.knobs.size(), 2u);
  BOOST_TEST(describe(c.knobs.at("client")) == "initial_mtu=integer 1500; initial_rtt_ms=float 100.0");
  BOOST_TEST(describe(c.knobs.at("server")) ==
             "alpn=array of strings [\"hq\", \"h3\"]; emit_max_streams=boolean false");
  BOOST_TEST(describe(c.network) == "loss_rate=float 0.01; mtu=integer 1400; rtt_ms=float 20.0");
  BOOST_TEST(c.matrix.empty());
  BOOST_TEST(c.seeds == 3);
  BOOST_REQUIRE(c.timeout_s.has_value());
  BOOST_TEST(*c.timeout_s == 2.5);
  BOOST_REQUIRE(c.xfail.has_value());
  BOOST_TEST(*c.xfail == "not implemented yet");
  BOOST_TEST(c.unsupported == "");

  BOOST_REQUIRE_EQUAL(c.expects.size(), 2u);
  BOOST_TEST(c.expects[0].check == "datagrams_captured");
  BOOST_TEST(c.expects[0].pos.str() == p.path + ":21:11");
  BOOST_TEST(describe(c.expects[0].params) ==
             "from=string \"server\"; max=integer 5; min=integer 2; vantage=string \"client\"");
  // The second expect gets the check's defaults for what it leaves out.
  BOOST_TEST(c.expects[1].pos.str() == p.path + ":28:11");
  BOOST_TEST(describe(c.expects[1].params) ==
             "from=string \"any\"; max=integer -1; min=integer 1; vantage=string \"server\"");

  BOOST_REQUIRE_EQUAL(c.mutants.size(), 1u);
  const MutantDecl& m = c.mutants[0];
  BOOST_TEST(m.label == "server.emit_max_streams=true, params.frames=1, network.rtt_ms=5.5");
  BOOST_TEST(m.knobs.size() == 1u);
  BOOST_TEST(describe(m.knobs.at("server")) == "emit_max_streams=boolean true");
  BOOST_TEST(describe(m.params) == "frames=integer 1");
  BOOST_TEST(describe(m.network) == "rtt_ms=float 5.5");
  BOOST_TEST(m.fails == std::vector<std::string>{"datagrams_captured"}, boost::test_tools::per_element());
  BOOST_TEST(m.pos.str() == p.path + ":31:3");
}

BOOST_AUTO_TEST_CASE(defaults_are_filled_for_every_param_knob_role_and_network_key) {
  const auto dir = scratch_dir("suite_loader_defaults");
  auto p = parse_text(dir, "defaults.toml", R"(
[[case]]
id = "plain"
rfc = "9000§4"
requirement = "it MUST work"
plugin = "quic"
scenario = "fanout"
client = { initial_mtu = 1400 }
  [[case.expect]]
  check = "datagrams_captured"
  vantage = "client"
)");
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const CaseDecl& decl = p.suite->cases[0];
  BOOST_TEST(decl.summary == "");
  BOOST_TEST(decl.seeds == 1);
  BOOST_TEST(!decl.timeout_s.has_value());
  BOOST_TEST(!decl.xfail.has_value());
  BOOST_TEST(decl.params.empty());
  BOOST_TEST(decl.network.empty());
  BOOST_TEST(decl.mutants.empty());

  std::vector<std::unique_ptr<SuiteFile>> suites;
  suites.push_back(std::move(p.suite));
  const auto cases = expand_cases(suites, test_catalogue());
  BOOST_REQUIRE_EQUAL(cases.size(), 1u);
  const Case& c = cases[0];
  BOOST_TEST(c.suite == suites[0].get());
  BOOST_TEST(c.decl == &suites[0]->cases[0]);
  BOOST_TEST(c.id() == "plain");
  BOOST_TEST(c.settings.scenario == "fanout");
  BOOST_TEST(c.settings.seed == 0u);
  // `label` has no default, so it stays unset.
  BOOST_TEST(describe(c.settings.params) ==
             "cc=string \"newreno\"; frames=integer 100; pacing_gain=float 1.25; "
             "tags=array of strings [\"t0\"]; zero_rtt=boolean false");
  BOOST_REQUIRE_EQUAL(c.settings.knobs.size(), 2u);
  BOOST_TEST(describe(c.settings.knobs.at("client")) ==
             "alpn=array of strings [\"h3\"]; emit_max_streams=boolean true; initial_mtu=integer 1400; "
             "initial_rtt_ms=float 333.0");
  BOOST_TEST(describe(c.settings.knobs.at("server")) ==
             "alpn=array of strings [\"h3\"]; emit_max_streams=boolean true; initial_mtu=integer 1200; "
             "initial_rtt_ms=float 333.0");
  // Every key of the network table with a default, each with its declared
  // default; the keys one direction sets apart (server_mtu) stay absent.
  std::size_t with_default = 0;
  for (const auto& spec : network_spec()) {
    if (!spec.default_value) {
      BOOST_TEST(!c.settings.network.contains(spec.name), spec.name);
      continue;
    }
    ++with_default;
    BOOST_TEST(describe(c.settings.network.at(spec.name)) == describe(*spec.default_value), spec.name);
  }
  BOOST_TEST(c.settings.network.size() == with_default);
}

BOOST_AUTO_TEST_CASE(integer_timeout_is_seconds_as_float) {
  const auto dir = scratch_dir("suite_loader_timeout");
  const auto p = parse_text(dir, "t.toml", valid_case("t/int", "timeout = 7\n"));
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_REQUIRE(p.suite->cases[0].timeout_s.has_value());
  BOOST_TEST(*p.suite->cases[0].timeout_s == 7.0);
}

BOOST_AUTO_TEST_CASE(discover_finds_toml_files_recursively_in_name_order) {
  const auto dir = scratch_dir("suite_loader_discover");
  for (const char* f : {"z.toml", "b.toml", "a.toml", "sub/deeper/a.toml", "sub/c.toml", "readme.txt",
                        "sub/data.json", "sub/toml"})
    write_file(dir + "/tree/" + f, "");
  const auto files = discover_suite_files({dir + "/tree"});
  const std::vector<std::string> expected = {dir + "/tree/a.toml", dir + "/tree/b.toml",
                                             dir + "/tree/sub/c.toml", dir + "/tree/sub/deeper/a.toml",
                                             dir + "/tree/z.toml"};
  BOOST_TEST(files == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(discover_keeps_files_as_given_and_paths_in_order) {
  const auto dir = scratch_dir("suite_loader_discover_order");
  const auto given = write_file(dir + "/given.txt", "");
  write_file(dir + "/tree/y.toml", "");
  write_file(dir + "/tree/x.toml", "");
  const std::vector<std::string> folder_first = {dir + "/tree/x.toml", dir + "/tree/y.toml", given};
  BOOST_TEST(discover_suite_files({dir + "/tree", given}) == folder_first, boost::test_tools::per_element());
  const std::vector<std::string> file_first = {given, dir + "/tree/x.toml", dir + "/tree/y.toml"};
  BOOST_TEST(discover_suite_files({given, dir + "/tree"}) == file_first, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(discover_rejects_a_missing_path) {
  const auto dir = scratch_dir("suite_loader_discover_missing");
  write_file(dir + "/a.toml", "");
  try {
    discover_suite_files({dir + "/a.toml", dir + "/nope"});
    BOOST_FAIL("a missing path was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(lines_of(e) == std::vector<std::string>{dir + "/nope: no such suite file or folder"},
               boost::test_tools::per_element());
    BOOST_TEST(std::string(e.what()) == dir + "/nope: no such suite file or folder");
  }
}

BOOST_AUTO_TEST_CASE(discover_rejects_a_folder_without_suite_files) {
  const auto dir = scratch_dir("suite_loader_discover_empty");
  std::filesystem::create_directories(dir + "/empty");
  write_file(dir + "/other/readme.txt", "not a suite");
  write_file(dir + "/other/sub/x.json", "{}");
  for (const auto& folder : {dir + "/empty", dir + "/other"}) {
    try {
      discover_suite_files({folder});
      BOOST_FAIL("a folder without suite files was accepted: " + folder);
    } catch (const InputError& e) {
      BOOST_TEST(lines_of(e) == std::vector<std::string>{folder + ": no suite files (*.toml) in this folder"},
                 boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(malformed_toml_reports_the_parse_error_position) {
  const auto dir = scratch_dir("suite_loader_malformed");
  const auto p = parse_text(dir, "bad.toml", R"(
[[case]]
id = "broken"
seeds = 3 3
rfc = "9000§1"
)");
  BOOST_TEST(p.lines() ==
                 std::vector<std::string>{at(p.path, 3, 11, "Error while parsing key-value pair: expected a comment or whitespace, saw '3'")},
             boost::test_tools::per_element());
  BOOST_TEST(p.suite->cases.empty());
  BOOST_TEST(p.suite->path == p.path);
}

BOOST_AUTO_TEST_CASE(unknown_top_level_and_suite_keys) {
  const auto dir = scratch_dir("suite_loader_top_level");
  const auto p = parse_text(dir, "top.toml", R"(
version = 2
[suite]
titel = "x"
rfc = 9000

[[cases]]
id = "x"
)");
  std::vector<std::string> expected = {
      at(p.path, 6, 3, "unknown top-level key 'cases' (did you mean 'case'?)"),
      at(p.path, 1, 1, "unknown top-level key 'version'"),
      at(p.path, 4, 7, "'suite.rfc' must be a string, not integer"),
      at(p.path, 3, 1, "unknown key 'suite.titel' (did you mean 'title'?)"),
  };
  BOOST_TEST(p.lines() == expected, boost::test_tools::per_element());
  BOOST_TEST(p.suite->cases.empty());
}

BOOST_AUTO_TEST_CASE(suite_and_case_of_the_wrong_shape) {
  const auto dir = scratch_dir("suite_loader_shapes");
  const auto p = parse_text(dir, "shape.toml", R"(
suite = "x"
case = 5
)");
  std::vector<std::string> expected = {
      at(p.path, 1, 9, "'suite' must be a table"),
      at(p.path, 2, 8, "'case' must be an array of tables: write [[case]]"),
  };
  BOOST_TEST(p.lines() == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_file_without_cases_is_an_error_without_position) {
  const auto dir = scratch_dir("suite_loader_no_cases");
  const auto empty = parse_text(dir, "empty.toml", "");
  BOOST_TEST(empty.lines() == std::vector<std::string>{empty.path + ": no [[case]] in this suite file"},
             boost::test_tools::per_element());
  const auto only_suite = parse_text(dir, "only_suite.toml", "[suite]\ntitle = \"t\"\n");
  BOOST_TEST(only_suite.lines() ==
                 std::vector<std::string>{only_suite.path + ": no [[case]] in this suite file"},
             boost::test_tools::per_element());
  BOOST_TEST(only_suite.suite->title == "t");
}

BOOST_AUTO_TEST_CASE(load_suites_returns_files_in_order) {
  const auto dir = scratch_dir("suite_loader_load");
  write_file(dir + "/suites/b.toml", valid_case("b/one"));
  write_file(dir + "/suites/a.toml", valid_case("a/one") + "\n" + valid_case("a/two"));
  const auto suites = load_suites({dir + "/suites"}, test_catalogue());
  BOOST_REQUIRE_EQUAL(suites.size(), 2u);
  BOOST_TEST(suites[0]->path == dir + "/suites/a.toml");
  BOOST_TEST(suites[1]->path == dir + "/suites/b.toml");
  BOOST_REQUIRE_EQUAL(suites[0]->cases.size(), 2u);
  BOOST_TEST(suites[0]->cases[0].id == "a/one");
  BOOST_TEST(suites[0]->cases[1].id == "a/two");
  BOOST_TEST(suites[0]->cases[1].pos.str() == dir + "/suites/a.toml:12:6");
  BOOST_REQUIRE_EQUAL(suites[1]->cases.size(), 1u);
  BOOST_TEST(suites[1]->cases[0].id == "b/one");
}

BOOST_AUTO_TEST_CASE(duplicate_ids_across_files_name_the_first_position) {
  const auto dir = scratch_dir("suite_loader_duplicates");
  const auto a = write_file(dir + "/a.toml", valid_case("dup/one"));
  const auto b = write_file(dir + "/b.toml", valid_case("unique") + "\n" + valid_case("dup/one"));
  try {
    load_suites({dir}, test_catalogue());
    BOOST_FAIL("duplicate ids were accepted");
  } catch (const InputError& e) {
    const std::string line = at(b, 12, 6, "duplicate case id 'dup/one' (first at " + a + ":2:6)");
    BOOST_TEST(lines_of(e) == std::vector<std::string>{line}, boost::test_tools::per_element());
    BOOST_TEST(std::string(e.what()) == line);
  }
}

BOOST_AUTO_TEST_CASE(duplicate_ids_within_one_file) {
  const auto dir = scratch_dir("suite_loader_duplicates_one_file");
  const auto a = write_file(dir + "/a.toml", valid_case("same") + "\n" + valid_case("same") + "\n" +
                                                 valid_case("same"));
  try {
    load_suites({a}, test_catalogue());
    BOOST_FAIL("duplicate ids were accepted");
  } catch (const InputError& e) {
    std::vector<std::string> expected = {
        at(a, 12, 6, "duplicate case id 'same' (first at " + a + ":2:6)"),
        at(a, 22, 6, "duplicate case id 'same' (first at " + a + ":2:6)"),
    };
    BOOST_TEST(lines_of(e) == expected, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(load_suites_reports_the_problems_of_every_file) {
  const auto dir = scratch_dir("suite_loader_every_file");
  const auto a = write_file(dir + "/a.toml", valid_case("a/one", "bogus = 1\n"));
  write_file(dir + "/b.toml", valid_case("b/one"));
  const auto c = write_file(dir + "/c.toml", "[[case]\n");
  try {
    load_suites({dir}, test_catalogue());
    BOOST_FAIL("broken suites were accepted");
  } catch (const InputError& e) {
    const auto lines = lines_of(e);
    BOOST_REQUIRE_EQUAL(lines.size(), 2u);
    BOOST_TEST(lines[0] == at(a, 7, 1, "unknown key 'bogus' in [[case]]"));
    BOOST_TEST(lines[1] == at(c, 1, 8, "Error while parsing table header: expected ']', saw '\\n'"));
    BOOST_TEST(std::string(e.what()) == lines[0] + "\n" + lines[1]);
  }
}

BOOST_AUTO_TEST_CASE(load_suites_rejects_a_missing_path_before_parsing) {
  const auto dir = scratch_dir("suite_loader_load_missing");
  write_file(dir + "/ok.toml", valid_case("ok"));
  try {
    load_suites({dir + "/ok.toml", dir + "/missing.toml"}, test_catalogue());
    BOOST_FAIL("a missing path was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(lines_of(e) == std::vector<std::string>{dir + "/missing.toml: no such suite file or folder"},
               boost::test_tools::per_element());
  }
}

// A plugin problem about one value of a knob (the external plugin's broken
// profile) refuses only the cases where a role takes that value: set, by a
// matrix, by a mutant, or by default. Other cases load, and the problems
// they do not meet are warnings; so is one about a value it cannot name.
BOOST_AUTO_TEST_CASE(a_problem_of_one_knob_value_refuses_only_the_cases_that_take_it) {
  PluginInfo plugin = quic_plugin();
  plugin.knobs.push_back({"stack", ValueType::string, Value{std::string("a")}, "the stack", {"a", "b"}});
  // The profiles sit beside the suite, in a folder that sorts before it:
  // problems are told in path order, and the scratch folder differs by machine.
  const auto dir = scratch_dir("suite_loader_scoped_problem");
  plugin.problems = {{dir + "/p/b.toml", 3, 1, "b is broken", "stack", "b"},
                     {dir + "/p/x.toml", 1, 9, "unreadable", "stack", ""}};
  const Catalogue catalogue{{&plugin}, &CheckRegistry::builtin(), &network_spec()};
  const std::string b_broken = dir + "/p/b.toml:3:1: plugin 'quic': b is broken";
  const std::string unreadable = dir + "/p/x.toml:1:9: plugin 'quic': unreadable";
  const std::string mutant = "\n  [[case.mutant]]\n  client = { stack = \"b\" }\n  fails = [\"datagrams_captured\"]\n";
  const std::vector<std::tuple<std::string, std::string, bool>> cases = {
      {"default", valid_case("default"), false},
      {"set-a", valid_case("set-a", "client = { stack = \"a\" }\nserver = { stack = \"a\" }\n"), false},
      {"set-b", valid_case("set-b", "server = { stack = \"b\" }\n"), true},
      {"matrix", valid_case("matrix", "matrix = { \"client.stack\" = [\"a\", \"b\"] }\n"), true},
      {"mutant", valid_case("mutant") + mutant, true},
  };
  for (const auto& [id, text, refused] : cases) {
    BOOST_TEST_CONTEXT(text) {
      const auto file = write_file(dir + "/s.toml", text);
      // Which case brought the problem in, at the case.
      const std::string which = at(file, 2, 6, "case '" + id + "' is refused: a role's stack is \"b\" (set, by a "
                                                   "matrix or a mutant, or by default), which has problems");
      std::vector<Diagnostic> warnings;
      std::vector<std::string> errors;
      try {
        BOOST_TEST(load_suites({file}, catalogue, &warnings).size() == 1u);
      } catch (const InputError& e) {
        errors = lines_of(e);
      }
      std::vector<std::string> warned;
      for (const auto& w : warnings) warned.push_back(w.str());
      BOOST_TEST(errors == (refused ? std::vector<std::string>{b_broken, which} : std::vector<std::string>{}),
                 boost::test_tools::per_element());
      BOOST_TEST(warned == (refused ? std::vector<std::string>{unreadable} : std::vector<std::string>{b_broken, unreadable}),
                 boost::test_tools::per_element());
    }
  }
  // A default that is the broken value refuses a case that leaves it unset.
  plugin.knobs.back().default_value = Value{std::string("b")};
  try {
    load_suites({write_file(dir + "/s.toml", valid_case("default"))}, catalogue);
    BOOST_FAIL("the default's problem was not met");
  } catch (const InputError& e) {
    BOOST_TEST(lines_of(e).front() == b_broken);
    BOOST_TEST(lines_of(e).size() == 2u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
