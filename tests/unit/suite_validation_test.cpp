// Validation of `[[case]]` tables against the plugins' declarations and the
// check catalogue: every problem as `file:line:col: message`, and "did you
// mean" suggestions.
#include "common/input_error.hpp"
#include "suite/loader.hpp"
#include "suite/matrix.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace conform;
using namespace conform::test;

namespace {

// A check with a required float parameter, for a catalogue of our own.
class RatioCheck final : public Check {
 public:
  std::string name() const override { return "ratio_at_least"; }
  std::string rfc() const override { return "none"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override { return "test check"; }
  std::vector<ValueSpec> params() const override {
    return {{"ratio", ValueType::floating, std::nullopt, "required ratio"},
            {"vantage", ValueType::string, Value{std::string("client")}, "whose capture",
             {"client", "server"}}};
  }
  CheckResult evaluate(const CheckInput&) const override { return {}; }
};

const CheckRegistry& ratio_registry() {
  static const CheckRegistry registry = [] {
    CheckRegistry r;
    r.add(std::make_unique<RatioCheck>());
    return r;
  }();
  return registry;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(suite_validation_test)

// --- did_you_mean and diagnostics -----------------------------------------

BOOST_AUTO_TEST_CASE(did_you_mean_names_the_nearest_close_candidate) {
  BOOST_TEST(did_you_mean("fanot", {"handshake", "fanout"}) == " (did you mean 'fanout'?)");
  BOOST_TEST(did_you_mean("frame", {"frames"}) == " (did you mean 'frames'?)");
  BOOST_TEST(did_you_mean("framess", {"frames"}) == " (did you mean 'frames'?)");
  // Swapping two neighbours is one edit.
  BOOST_TEST(did_you_mean("ecoh", {"echo"}) == " (did you mean 'echo'?)");
  BOOST_TEST(did_you_mean("tpc", {"quic", "tcp"}) == " (did you mean 'tcp'?)");
  // The nearest wins even when a farther one comes first.
  BOOST_TEST(did_you_mean("cubc", {"cubes", "cubic"}) == " (did you mean 'cubic'?)");
  // Of equally near candidates, the first.
  BOOST_TEST(did_you_mean("cat", {"bat", "cut"}) == " (did you mean 'bat'?)");
  // A name cut short wins over a nearer spelling.
  BOOST_TEST(did_you_mean("network.rtt", {"network.mtu", "network.rtt_ms"}) == " (did you mean 'network.rtt_ms'?)");
  BOOST_TEST(did_you_mean("levle", {"by", "check", "level", "may_be_unexercised"}) == " (did you mean 'level'?)");
}

BOOST_AUTO_TEST_CASE(did_you_mean_stays_silent_when_nothing_is_close) {
  BOOST_TEST(did_you_mean("fanout", {}) == "");
  BOOST_TEST(did_you_mean("xyz", {"fanout", "handshake"}) == "");
  // An exact match is no suggestion.
  BOOST_TEST(did_you_mean("fanout", {"fanout", "fanouts"}) == "");
  // Short words still allow one edit, not two.
  BOOST_TEST(did_you_mean("ab", {"ac"}) == " (did you mean 'ac'?)");
  BOOST_TEST(did_you_mean("ab", {"cd"}) == "");
  // A third of the length: 9 letters allow 3 edits, not 4.
  BOOST_TEST(did_you_mean("abcdefghi", {"abcdefxyz"}) == " (did you mean 'abcdefxyz'?)");
  BOOST_TEST(did_you_mean("abcdefghi", {"abcdewxyz"}) == "");
}

BOOST_AUTO_TEST_CASE(diagnostics_spell_file_line_column) {
  BOOST_TEST((SourcePos{"a.toml", 3, 7}.str()) == "a.toml:3:7");
  BOOST_TEST((SourcePos{"a.toml", 0, 0}.str()) == "a.toml");
  BOOST_TEST((Diagnostic{{"a.toml", 3, 7}, "bad"}.str()) == "a.toml:3:7: bad");
  BOOST_TEST((Diagnostic{{"a.toml"}, "bad"}.str()) == "a.toml: bad");
  const InputError e({{{"a.toml", 1, 2}, "one"}, {{"b.toml", 3, 4}, "two"}});
  BOOST_TEST(std::string(e.what()) == "a.toml:1:2: one\nb.toml:3:4: two");
  BOOST_TEST(e.diagnostics().size() == 2u);
  const InputError single(SourcePos{"c.toml", 5, 6}, "three");
  BOOST_TEST(std::string(single.what()) == "c.toml:5:6: three");
}

// --- keys -------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(unknown_case_keys_with_suggestions) {
  const auto dir = scratch_dir("suite_validation_keys");
  const auto p = parse_text(dir, "keys.toml", case_head("v/keys") +
                                                  "summry = \"typo\"\n"               // 7
                                                  "clinet = { initial_mtu = 1 }\n"    // 8
                                                  "proxy = { x = 1 }\n"               // 9
                                                  + kExpect);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({at(p.path, 7, 1, "unknown key 'summry' in [[case]] (did you mean 'summary'?)"),
                         at(p.path, 8, 1, "unknown key 'clinet' in [[case]] (did you mean 'client'?)"),
                         at(p.path, 9, 1, "unknown key 'proxy' in [[case]]")}),
             boost::test_tools::per_element());
  // The case itself is kept; only the run refuses to start.
  BOOST_TEST(p.suite->cases.size() == 1u);
}

BOOST_AUTO_TEST_CASE(unknown_mutant_key_and_missing_fails) {
  const auto dir = scratch_dir("suite_validation_mutant_keys");
  const auto p = parse_text(dir, "mutant.toml", case_head("v/mutant") + kExpect +  // 7-9
                                                    "  [[case.mutant]]\n"          // 10
                                                    "  fail = [\"datagrams_captured\"]\n");  // 11
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({at(p.path, 11, 3, "unknown key 'fail' in [[case.mutant]] (did you mean 'fails'?)"),
                         at(p.path, 10, 3, "[[case.mutant]] needs 'fails', the checks that must fail on it")}),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(p.suite->cases[0].mutants.empty());
}

BOOST_AUTO_TEST_CASE(expect_and_mutant_must_be_arrays_of_tables) {
  const auto dir = scratch_dir("suite_validation_shapes");
  const auto p = parse_text(dir, "shapes.toml", case_head("v/shapes") +
                                                    "expect = 1\n"              // 7
                                                    "mutant = []\n"             // 8
                                                    "params = 3\n");            // 9
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({at(p.path, 7, 10, "'expect' must be written [[case.expect]] (an array of tables)"),
                         at(p.path, 8, 10, "'mutant' must be written [[case.mutant]] (an array of tables)"),
                         at(p.path, 9, 10, "'params' must be a table, not integer")}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_case_without_expect_is_reported_at_its_id) {
  const auto dir = scratch_dir("suite_validation_no_expect");
  const auto p = parse_text(dir, "none.toml", case_head("v/none"));
  BOOST_TEST(p.lines() ==
                 std::vector<std::string>{
                     at(p.path, 2, 6, "case 'v/none' has no [[case.expect]]: nothing would judge it")},
             boost::test_tools::per_element());
}

// --- values -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(wrong_value_types_for_params_knobs_network_and_check_parameters) {
  const auto dir = scratch_dir("suite_validation_types");
  const auto p = parse_text(
      dir, "types.toml",
      case_head("v/types") +
          "params = { frames = \"many\", tags = [1, 2], zero_rtt = \"yes\" }\n"  // 7
          "client = { emit_max_streams = 1, initial_rtt_ms = \"fast\" }\n"      // 8
          "network = { mtu = 1400.5, rtt_ms = true }\n"                        // 9
          "  [[case.expect]]\n"                                                // 10
          "  check = \"datagrams_captured\"\n"                                 // 11
          "  vantage = \"client\"\n"                                           // 12
          "  min = \"2\"\n");                                                  // 13
  const std::string param = "parameter of scenario 'fanout': ";
  const std::string knob = "knob of plugin 'quic': ";
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 7, 21, param + "'frames' must be an integer, not string"),
                     at(p.path, 7, 36, param + "'tags' must be an array of strings, not array"),
                     at(p.path, 7, 55, param + "'zero_rtt' must be a boolean, not string"),
                     at(p.path, 8, 31, knob + "'emit_max_streams' must be a boolean, not integer"),
                     at(p.path, 8, 51, knob + "'initial_rtt_ms' must be a float, not string"),
                     at(p.path, 9, 19, "network setting 'mtu' must be an integer, not float"),
                     at(p.path, 9, 36, "network setting 'rtt_ms' must be a float, not boolean"),
                     at(p.path, 13, 9,
                        "parameter of check 'datagrams_captured': 'min' must be an integer, not string"),
                 }),
             boost::test_tools::per_element());
  // A wrongly typed check parameter is not also reported as missing; the
  // expect keeps the defaults of the check.
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_REQUIRE_EQUAL(p.suite->cases[0].expects.size(), 1u);
  BOOST_TEST(describe(p.suite->cases[0].expects[0].params) ==
             "from=string \"any\"; max=integer -1; min=integer 1; vantage=string \"client\"");
}

BOOST_AUTO_TEST_CASE(integers_are_accepted_and_converted_where_floats_are_declared) {
  const auto dir = scratch_dir("suite_validation_int_as_float");
  const auto p = parse_text(dir, "floats.toml",
                            case_head("v/floats") +
                                "params = { pacing_gain = 3 }\n"
                                "client = { initial_rtt_ms = 100 }\n"
                                "network = { rtt_ms = 20, loss_rate = 0, bandwidth_mbps = -0 }\n" +
                                kExpect);
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const CaseDecl& c = p.suite->cases[0];
  BOOST_TEST(describe(c.params) == "pacing_gain=float 3.0");
  BOOST_TEST(std::get<double>(c.params.at("pacing_gain")) == 3.0);
  BOOST_TEST(describe(c.knobs.at("client")) == "initial_rtt_ms=float 100.0");
  BOOST_TEST(describe(c.network) == "bandwidth_mbps=float 0.0; loss_rate=float 0.0; rtt_ms=float 20.0");
  BOOST_TEST(std::get<double>(c.network.at("rtt_ms")) == 20.0);
}

BOOST_AUTO_TEST_CASE(integer_check_parameter_is_accepted_for_a_float) {
  const auto dir = scratch_dir("suite_validation_check_float");
  const Catalogue catalogue{{&quic_plugin()}, &ratio_registry(), &network_spec()};
  const auto p = parse_text(dir, "ratio.toml",
                            case_head("v/ratio") +
                                "  [[case.expect]]\n"        // 7
                                "  check = \"ratio_at_least\"\n"  // 8
                                "  ratio = 2\n"              // 9
                                "  [[case.expect]]\n"        // 10
                                "  check = \"ratio_at_least\"\n"  // 11
                                "  ratio = 0.5\n"            // 12
                                "  vantage = \"server\"\n",   // 13
                            catalogue);
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const auto& expects = p.suite->cases[0].expects;
  BOOST_REQUIRE_EQUAL(expects.size(), 2u);
  BOOST_TEST(describe(expects[0].params) == "ratio=float 2.0; vantage=string \"client\"");
  BOOST_TEST(describe(expects[1].params) == "ratio=float 0.5; vantage=string \"server\"");
}

BOOST_AUTO_TEST_CASE(check_parameter_problems_with_a_catalogue_of_our_own) {
  const auto dir = scratch_dir("suite_validation_check_params");
  const Catalogue catalogue{{&quic_plugin()}, &ratio_registry(), &network_spec()};
  const auto p = parse_text(dir, "ratio.toml",
                            case_head("v/ratio") +
                                "  [[case.expect]]\n"              // 7
                                "  check = \"ratio_at_least\"\n"   // 8
                                "  ratio = \"half\"\n"             // 9
                                "  [[case.expect]]\n"              // 10
                                "  check = \"ratio_at_least\"\n"   // 11
                                "  vantage = \"server\"\n"         // 12
                                "  [[case.expect]]\n"              // 13
                                "  check = \"ratio_at_lest\"\n",   // 14
                            catalogue);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 9, 11, "parameter of check 'ratio_at_least': 'ratio' must be a float, not string"),
                     at(p.path, 11, 11, "check 'ratio_at_least' needs parameter 'ratio'"),
                     at(p.path, 14, 11, "unknown check 'ratio_at_lest' (did you mean 'ratio_at_least'?)"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_float_parameter_must_be_finite) {
  // A report could not hold it (JSON has no NaN), and no parameter means it.
  const auto dir = scratch_dir("suite_validation_finite");
  const Catalogue catalogue{{&quic_plugin()}, &ratio_registry(), &network_spec()};
  const auto p = parse_text(dir, "finite.toml",
                            case_head("v/finite") +
                                "  [[case.expect]]\n"             // 7
                                "  check = \"ratio_at_least\"\n"  // 8
                                "  ratio = nan\n"                 // 9
                                "  [[case.expect]]\n"             // 10
                                "  check = \"ratio_at_least\"\n"  // 11
                                "  ratio = -inf\n",               // 12
                            catalogue);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 9, 11, "parameter of check 'ratio_at_least': 'ratio' = nan is not a finite number"),
                     at(p.path, 12, 11, "parameter of check 'ratio_at_least': 'ratio' = -inf is not a finite number"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(strings_outside_one_of_are_rejected) {
  const auto dir = scratch_dir("suite_validation_one_of");
  const auto p = parse_text(dir, "one_of.toml",
                            case_head("v/one-of") +
                                "params = { cc = \"cubc\" }\n"      // 7
                                "  [[case.expect]]\n"               // 8
                                "  check = \"datagrams_captured\"\n"  // 9
                                "  vantage = \"clinet\"\n"          // 10
                                "  from = \"both\"\n");             // 11
  BOOST_TEST(
      sorted(p.lines()) ==
          sorted({
              at(p.path, 7, 17,
                 "parameter of scenario 'fanout': 'cc' is \"cubc\", not one of \"newreno\", \"cubic\", "
                 "\"bbr\" (did you mean 'cubic'?)"),
              at(p.path, 10, 13,
                 "parameter of check 'datagrams_captured': 'vantage' is \"clinet\", not one of "
                 "\"client\", \"server\" (did you mean 'client'?)"),
              at(p.path, 11, 10,
                 "parameter of check 'datagrams_captured': 'from' is \"both\", not one of \"any\", "
                 "\"client\", \"server\"; count only datagrams sent from this side's address (127.0.0.1, "
                 "127.0.0.2)"),
          }),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_string_inside_one_of_is_accepted) {
  const auto dir = scratch_dir("suite_validation_one_of_ok");
  const auto p = parse_text(dir, "ok.toml", case_head("v/ok") + "params = { cc = \"bbr\" }\n" + kExpect);
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(describe(p.suite->cases[0].params) == "cc=string \"bbr\"");
}

// --- plugins, scenarios, knobs, checks ----------------------------------------

BOOST_AUTO_TEST_CASE(unknown_plugin_lists_the_plugins_found) {
  const auto dir = scratch_dir("suite_validation_plugin");
  // Knobs and params of an unknown plugin are not judged, in the case or
  // in a mutant: only one problem.
  const auto p = parse_text(dir, "plugin.toml",
                            case_head("v/plugin", "quik") + "client = { nonsense = 1 }\n" + kExpect +
                                "  [[case.mutant]]\n  client = { nonsense = 2 }\n  fails = [\"datagrams_captured\"]\n");
  BOOST_TEST(p.lines() ==
                 std::vector<std::string>{
                     at(p.path, 5, 10, "unknown plugin 'quik' (did you mean 'quic'?); plugins found: quic, tcp")},
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(p.suite->cases[0].unsupported == "");

  const Catalogue none{{}, &CheckRegistry::builtin(), &network_spec()};
  const auto q = parse_text(dir, "none.toml", case_head("v/none") + kExpect, none);
  BOOST_TEST(q.lines() ==
                 std::vector<std::string>{at(q.path, 5, 10, "unknown plugin 'quic'; plugins found: none")},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_scenario_is_reported_with_a_suggestion) {
  const auto dir = scratch_dir("suite_validation_scenario");
  const auto p = parse_text(dir, "scenario.toml",
                            case_head("v/scenario", "quic", "fanot") + "params = { whatever = 1 }\n" + kExpect);
  BOOST_TEST(p.lines() ==
                 std::vector<std::string>{
                     at(p.path, 6, 12, "plugin 'quic' has no scenario 'fanot' (did you mean 'fanout'?)")},
             boost::test_tools::per_element());
  // A scenario of another plugin is no scenario of this one.
  const auto q = parse_text(dir, "other.toml", case_head("v/other", "quic", "bulk") + kExpect);
  BOOST_TEST(q.lines() == std::vector<std::string>{at(q.path, 6, 12, "plugin 'quic' has no scenario 'bulk'")},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_knob_param_and_network_key) {
  const auto dir = scratch_dir("suite_validation_unknown_values");
  const auto p = parse_text(dir, "unknown.toml",
                            case_head("v/unknown") +
                                "params = { frame = 1 }\n"          // 7
                                "client = { initial_mut = 1 }\n"    // 8
                                "network = { rtt_m = 1 }\n"         // 9
                                "server = { colour = \"red\" }\n"   // 10
                                + kExpect);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 7, 12, "unknown parameter of scenario 'fanout': 'frame' (did you mean 'frames'?)"),
                     at(p.path, 8, 12, "unknown knob of plugin 'quic': 'initial_mut' (did you mean 'initial_mtu'?)"),
                     at(p.path, 9, 13, "unknown network setting 'rtt_m' (did you mean 'rtt_ms'?)"),
                     at(p.path, 10, 12, "unknown knob of plugin 'quic': 'colour'"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_check_with_and_without_suggestion) {
  const auto dir = scratch_dir("suite_validation_check");
  const auto p = parse_text(dir, "check.toml",
                            case_head("v/check") +
                                "  [[case.expect]]\n"                  // 7
                                "  check = \"datagram_captured\"\n"    // 8
                                "  vantage = \"client\"\n"             // 9
                                "\n"                                   // 10
                                "  [[case.expect]]\n"                  // 11
                                "  check = \"no_such_check\"\n");      // 12
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 8, 11, "unknown check 'datagram_captured' (did you mean 'datagrams_captured'?)"),
                     at(p.path, 12, 11, "unknown check 'no_such_check'"),
                 }),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(p.suite->cases[0].expects.empty());
}

BOOST_AUTO_TEST_CASE(check_missing_a_required_parameter_or_its_name) {
  const auto dir = scratch_dir("suite_validation_check_required");
  const auto p = parse_text(dir, "required.toml",
                            case_head("v/required") +
                                "  [[case.expect]]\n"                  // 7
                                "  check = \"datagrams_captured\"\n"   // 8
                                "  min = 2\n"                          // 9
                                "  [[case.expect]]\n"                  // 10
                                "  vantage = \"client\"\n"             // 11
                                "  [[case.expect]]\n"                  // 12
                                "  check = 5\n"                        // 13
                                "  [[case.expect]]\n"                  // 14
                                "  check = \"datagrams_captured\"\n"   // 15
                                "  vantage = \"server\"\n"             // 16
                                "  maxx = 2\n"                          // 17
                                "  levle = \"MUST\"\n");                 // 18
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 8, 11, "check 'datagrams_captured' needs parameter 'vantage'"),
                     at(p.path, 10, 3, "[[case.expect]] needs 'check', the name of a check (a string)"),
                     at(p.path, 13, 11, "[[case.expect]] needs 'check', the name of a check (a string)"),
                     at(p.path, 17, 3,
                        "unknown parameter of check 'datagrams_captured': 'maxx' (did you mean 'max'?)"),
                     // The expect's own keys are near misses too.
                     at(p.path, 18, 3,
                        "unknown parameter of check 'datagrams_captured': 'levle' (did you mean 'level'?)"),
                 }),
             boost::test_tools::per_element());
}

// --- matrix -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(matrix_over_unknown_keys) {
  const auto dir = scratch_dir("suite_validation_matrix_keys");
  const auto p = parse_text(dir, "matrix.toml",
                            case_head("v/matrix") +
                                "  [case.matrix]\n"                   // 7
                                "  frame = [1, 2]\n"                  // 8
                                "  \"client.initial_mut\" = [1]\n"    // 9
                                "  \"proxy.x\" = [1]\n"               // 10
                                "  \"network.rtt_m\" = [1]\n"         // 11
                                "  frames = [3]\n"                    // 12
                                + kExpect);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 8, 3, "matrix over unknown key 'frame' (did you mean 'frames'?)"),
                     at(p.path, 9, 3,
                        "matrix over unknown key 'client.initial_mut' (did you mean 'client.initial_mtu'?)"),
                     at(p.path, 10, 3, "matrix over unknown key 'proxy.x'"),
                     at(p.path, 11, 3, "matrix over unknown key 'network.rtt_m' (did you mean 'network.rtt_ms'?)"),
                 }),
             boost::test_tools::per_element());
  // The good axis is kept.
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_REQUIRE_EQUAL(p.suite->cases[0].matrix.size(), 1u);
  BOOST_TEST(p.suite->cases[0].matrix[0].key == "frames");
}

BOOST_AUTO_TEST_CASE(matrix_axes_must_be_non_empty_arrays_of_the_right_type) {
  const auto dir = scratch_dir("suite_validation_matrix_values");
  const auto p = parse_text(dir, "matrix.toml",
                            case_head("v/matrix") +
                                "  [case.matrix]\n"                         // 7
                                "  frames = []\n"                           // 8
                                "  cc = \"cubic\"\n"                        // 9
                                "  \"network.mtu\" = [1500, \"big\"]\n"     // 10
                                "  \"client.initial_rtt_ms\" = [100, 2.5]\n"  // 11
                                + kExpect);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 8, 12, "matrix 'frames' must be a non-empty array"),
                     at(p.path, 9, 8, "matrix 'cc' must be a non-empty array"),
                     at(p.path, 10, 26, "matrix value of 'network.mtu' must be an integer, not string"),
                 }),
             boost::test_tools::per_element());
  const auto& matrix = p.suite->cases.at(0).matrix;
  BOOST_REQUIRE_EQUAL(matrix.size(), 2u);
  const auto rtt = std::find_if(matrix.begin(), matrix.end(),
                                [](const MatrixAxis& a) { return a.key == "client.initial_rtt_ms"; });
  BOOST_REQUIRE(rtt != matrix.end());
  BOOST_REQUIRE_EQUAL(rtt->values.size(), 2u);
  BOOST_TEST(describe(rtt->values[0]) == "float 100.0");
  BOOST_TEST(describe(rtt->values[1]) == "float 2.5");
}

BOOST_AUTO_TEST_CASE(matrix_value_outside_one_of) {
  const auto dir = scratch_dir("suite_validation_matrix_one_of");
  const auto p = parse_text(dir, "matrix.toml",
                            case_head("v/matrix") + "matrix = { cc = [\"cubic\", \"vegas\"] }\n" + kExpect);
  BOOST_TEST(p.lines() ==
                 std::vector<std::string>{
                     at(p.path, 7, 27,
                        "matrix value of 'cc' is \"vegas\", not one of \"newreno\", \"cubic\", \"bbr\"; "
                        "congestion controller")},
             boost::test_tools::per_element());
}

// --- mutants ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(mutant_fails_must_name_checks_the_case_expects) {
  const auto dir = scratch_dir("suite_validation_mutant_fails");
  const auto p = parse_text(dir, "fails.toml",
                            case_head("v/fails") + kExpect +                              // 7-9
                                "\n"                                                      // 10
                                "  [[case.mutant]]\n"                                     // 11
                                "  server = { emit_max_streams = false }\n"               // 12
                                "  fails = [\"datagrams_capturd\", \"handshake_done\"]\n"  // 13
                                "  [[case.mutant]]\n"                                     // 14
                                "  fails = [1]\n"                                         // 15
                                "  [[case.mutant]]\n"                                     // 16
                                "  fails = []\n"                                          // 17
                                "  [[case.mutant]]\n"                                     // 18
                                "  server = { emit_max_streams = false }\n"               // 19
                                "  fails = \"datagrams_captured\"\n");                    // 20
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 13, 12,
                        "mutant expects 'datagrams_capturd' to fail, but the case has no such "
                        "[[case.expect]] (did you mean 'datagrams_captured'?)"),
                     at(p.path, 13, 33,
                        "mutant expects 'handshake_done' to fail, but the case has no such [[case.expect]]"),
                     at(p.path, 15, 12, "'fails' must list check names (strings)"),
                     at(p.path, 14, 3, "[[case.mutant]] overrides nothing: it would be the case itself"),
                     at(p.path, 17, 11, "[[case.mutant]] needs 'fails', the checks that must fail on it"),
                     at(p.path, 20, 11,
                        "'fails' must be an array of check names, e.g. fails = [\"datagrams_captured\"], not string"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(qualified_fails_entries_must_name_an_expect_of_the_case) {
  const auto dir = scratch_dir("suite_validation_mutant_selectors");
  const auto p = parse_text(dir, "selectors.toml",
                            case_head("v/selectors") + kExpect +                                  // 7-9
                                "  [[case.mutant]]\n"                                             // 10
                                "  server = { emit_max_streams = false }\n"                       // 11
                                "  fails = [\"datagrams_captured[vantage=client]\",\n"            // 12
                                "           \"datagrams_captured[vantage=server]\",\n"            // 13
                                "           \"datagrams_captured[vantage]\",\n"                   // 14
                                "           \"datagrams_captured[from=any,vantage=client\"]\n");  // 15
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 13, 12,
                        "'fails' entry 'datagrams_captured[vantage=server]': no [[case.expect]] of "
                        "'datagrams_captured' has those parameters"),
                     at(p.path, 14, 12, "'fails' entry 'datagrams_captured[vantage]': 'vantage' is not key=value"),
                     at(p.path, 15, 12,
                        "'fails' entry 'datagrams_captured[from=any,vantage=client': must read name[key=value,...]"),
                 }),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(mutant_values_are_validated_like_the_case) {
  const auto dir = scratch_dir("suite_validation_mutant_values");
  const auto p = parse_text(dir, "mutant.toml",
                            case_head("v/mutant") + kExpect +                 // 7-9
                                "  [[case.mutant]]\n"                         // 10
                                "  client = { initial_mtu = \"big\" }\n"      // 11
                                "  params = { frams = 1 }\n"                  // 12
                                "  network = { loss_rate = 1 }\n"             // 13
                                "  fails = [\"datagrams_captured\"]\n");      // 14
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 11, 28, "knob of plugin 'quic': 'initial_mtu' must be an integer, not string"),
                     at(p.path, 12, 14, "unknown parameter of scenario 'fanout': 'frams' (did you mean 'frames'?)"),
                 }),
             boost::test_tools::per_element());
  const auto& m = p.suite->cases.at(0).mutants.at(0);
  BOOST_TEST(m.label == "network.loss_rate=1.0");
  BOOST_TEST(describe(m.network) == "loss_rate=float 1.0");
}

// --- required fields and their form -------------------------------------------

BOOST_AUTO_TEST_CASE(missing_required_fields) {
  const auto dir = scratch_dir("suite_validation_required");
  const auto p = parse_text(dir, "required.toml",
                            "[[case]]\n"                           // 1
                            "summary = \"no id\"\n"                // 2
                            "plugin = \"nope\"\n"                  // 3
                            "\n"                                   // 4
                            "[[case]]\n"                           // 5
                            "id = \"v/bare\"\n"                    // 6
                            + kExpect);
  // Every missing field is reported, with or without an id.
  const std::string no_expect = "the case has no [[case.expect]]: nothing would judge it";
  BOOST_TEST(p.lines() == (std::vector<std::string>{
                              at(p.path, 1, 1, "case needs 'id'"),
                              at(p.path, 1, 1, "case needs 'rfc'"),
                              at(p.path, 1, 1, "case needs 'requirement'"),
                              at(p.path, 3, 10, "unknown plugin 'nope'; plugins found: quic, tcp"),
                              at(p.path, 1, 1, "case needs 'scenario'"),
                              at(p.path, 1, 1, no_expect),
                              at(p.path, 5, 1, "case needs 'rfc'"),
                              at(p.path, 5, 1, "case needs 'requirement'"),
                              at(p.path, 5, 1, "case needs 'plugin'"),
                              at(p.path, 5, 1, "case needs 'scenario'"),
                          }),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(p.suite->cases[0].id == "v/bare");
}

BOOST_AUTO_TEST_CASE(required_fields_must_be_non_empty_strings) {
  const auto dir = scratch_dir("suite_validation_required_form");
  const auto p = parse_text(dir, "form.toml",
                            "[[case]]\n"              // 1
                            "id = \"\"\n"             // 2
                            "[[case]]\n"              // 3
                            "id = 7\n"                // 4
                            "[[case]]\n"              // 5
                            "id = \"v/empty\"\n"      // 6
                            "rfc = \"\"\n"            // 7
                            "requirement = \"\"\n"    // 8
                            "plugin = \"\"\n"         // 9
                            "scenario = 3\n"          // 10
                            "summary = 1\n"           // 11
                            "xfail = false\n"         // 12
                            + kExpect);
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 2, 6, "'id' must not be empty"),
                     at(p.path, 4, 6, "'id' must be a string, not integer"),
                     at(p.path, 1, 1, "case needs 'rfc'"),
                     at(p.path, 1, 1, "case needs 'requirement'"),
                     at(p.path, 1, 1, "case needs 'plugin'"),
                     at(p.path, 1, 1, "case needs 'scenario'"),
                     at(p.path, 1, 1, "the case has no [[case.expect]]: nothing would judge it"),
                     at(p.path, 3, 1, "case needs 'rfc'"),
                     at(p.path, 3, 1, "case needs 'requirement'"),
                     at(p.path, 3, 1, "case needs 'plugin'"),
                     at(p.path, 3, 1, "case needs 'scenario'"),
                     at(p.path, 3, 1, "the case has no [[case.expect]]: nothing would judge it"),
                     at(p.path, 7, 7, "'rfc' must not be empty"),
                     at(p.path, 8, 15, "'requirement' must not be empty"),
                     at(p.path, 9, 10, "'plugin' must not be empty"),
                     at(p.path, 10, 12, "'scenario' must be a string, not integer"),
                     at(p.path, 11, 11, "'summary' must be a string, not integer"),
                     at(p.path, 12, 9, "'xfail' must be a string, not boolean"),
                 }),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  BOOST_TEST(p.suite->cases[0].id == "v/empty");
}

BOOST_AUTO_TEST_CASE(rfc_must_read_like_number_section_sign_section) {
  const auto dir = scratch_dir("suite_validation_rfc");
  std::string text;
  const std::vector<std::string> rfcs = {"RFC 9000 4.6", "9000§", "§4.6", "9000-4.6", "RFC9000§4.6",
                                         "9000§4.6",     "9000§A", "9000§4.6.1"};
  for (std::size_t i = 0; i < rfcs.size(); ++i)
    text += "[[case]]\nid = \"rfc/" + std::to_string(i) + "\"\nrfc = \"" + rfcs[i] +
            "\"\nrequirement = \"MUST\"\nplugin = \"quic\"\nscenario = \"handshake\"\n" + kExpect;
  const auto p = parse_text(dir, "rfc.toml", text);
  const std::string message = "'rfc' must read like 9000§4.6 (RFC number, §, section)";
  // Each case is 9 lines; its rfc is on its third.
  std::vector<std::string> expected;
  for (int i : {0, 1, 2, 3, 4}) expected.push_back(at(p.path, 9 * i + 3, 7, message));
  BOOST_TEST(p.lines() == expected, boost::test_tools::per_element());
  BOOST_TEST(p.suite->cases.size() == rfcs.size());
}

BOOST_AUTO_TEST_CASE(requirement_must_name_its_level) {
  const auto dir = scratch_dir("suite_validation_requirement");
  std::string text;
  const std::vector<std::string> requirements = {"servers must send it", "it is nice", "a MUSTARD", "it MUST hold",
                                                 "it SHOULD NOT", "it MAY", "REQUIRED", "RECOMMENDED",
                                                 "OPTIONAL", "expected (no keyword)"};
  for (std::size_t i = 0; i < requirements.size(); ++i)
    text += "[[case]]\nid = \"req/" + std::to_string(i) + "\"\nrfc = \"9000§1\"\nrequirement = \"" +
            requirements[i] + "\"\nplugin = \"quic\"\nscenario = \"handshake\"\n" + kExpect;
  const auto p = parse_text(dir, "req.toml", text);
  const std::string message =
      "'requirement' must name its level as a word: MUST, SHOULD or MAY "
      "(REQUIRED, RECOMMENDED, OPTIONAL), or say 'no keyword' where the RFC gives none";
  BOOST_TEST(p.lines() == (std::vector<std::string>{at(p.path, 4, 15, message), at(p.path, 13, 15, message),
                                                    at(p.path, 22, 15, message)}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(seeds_and_timeout_must_be_positive) {
  const auto dir = scratch_dir("suite_validation_numbers");
  std::string text;
  const std::vector<std::string> settings = {"seeds = 0",       "seeds = -2",     "seeds = 1.5",
                                             "seeds = \"3\"",   "timeout = 0",    "timeout = -1.5",
                                             "timeout = \"9\"", "seeds = 1",      "timeout = 0.25"};
  for (std::size_t i = 0; i < settings.size(); ++i)
    text += case_head("n/" + std::to_string(i), "quic", "handshake") + settings[i] + "\n" + kExpect;
  const auto p = parse_text(dir, "numbers.toml", text);
  // Each case is 10 lines; the setting is on its seventh.
  const std::string seeds = "'seeds' must be an integer from 1 to 10000";
  const std::string timeout = "'timeout' must be a number of seconds above 0 and at most 1000000";
  BOOST_TEST(p.lines() == (std::vector<std::string>{
                              at(p.path, 7, 9, seeds), at(p.path, 17, 9, seeds), at(p.path, 27, 9, seeds),
                              at(p.path, 37, 9, seeds), at(p.path, 47, 11, timeout),
                              at(p.path, 57, 11, timeout), at(p.path, 67, 11, timeout)}),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), settings.size());
  BOOST_TEST(p.suite->cases[0].seeds == 1);  // the default stays
  BOOST_TEST(p.suite->cases[7].seeds == 1);
  BOOST_TEST(!p.suite->cases[4].timeout_s.has_value());
  BOOST_REQUIRE(p.suite->cases[8].timeout_s.has_value());
  BOOST_TEST(*p.suite->cases[8].timeout_s == 0.25);
}

// --- roles ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(knobs_of_a_role_the_plugin_does_not_play_make_the_case_unsupported) {
  const auto dir = scratch_dir("suite_validation_unsupported");
  const auto p = parse_text(dir, "roles.toml",
                            case_head("v/relay") +
                                "subscriber = { anything = \"goes\" }\n"
                                "relay = { mode = 1 }\n" + kExpect);
  BOOST_TEST(p.lines() == std::vector<std::string>{}, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 1u);
  const CaseDecl& c = p.suite->cases[0];
  BOOST_TEST(c.unsupported == "plugin 'quic' plays no 'relay' role");
  BOOST_TEST(c.knobs.empty());
  // It still expands, with the roles the plugin plays.
  std::vector<std::unique_ptr<SuiteFile>> suites;
  suites.push_back(std::make_unique<SuiteFile>(*p.suite));
  const auto cases = expand_cases(suites, test_catalogue());
  BOOST_REQUIRE_EQUAL(cases.size(), 1u);
  BOOST_TEST(cases[0].decl->unsupported == "plugin 'quic' plays no 'relay' role");
  BOOST_TEST(cases[0].settings.knobs.size() == 2u);
  BOOST_TEST(cases[0].settings.knobs.count("relay") == 0u);
}

BOOST_AUTO_TEST_CASE(knobs_of_a_played_role_are_validated) {
  PluginInfo info = quic_plugin();
  info.name = "moq";
  info.roles = {"publisher", "relay", "subscriber"};
  const Catalogue catalogue{{&info}, &CheckRegistry::builtin(), &network_spec()};
  const auto dir = scratch_dir("suite_validation_played_role");
  const auto p = parse_text(dir, "moq.toml",
                            case_head("v/moq", "moq") +
                                "relay = { initial_mtu = 1300, mode = 1 }\n"  // 7
                                "client = { initial_mtu = 1 }\n"              // 8
                                + kExpect,
                            catalogue);
  BOOST_TEST(p.lines() == std::vector<std::string>{at(p.path, 7, 31, "unknown knob of plugin 'moq': 'mode'")},
             boost::test_tools::per_element());
  const CaseDecl& c = p.suite->cases.at(0);
  BOOST_TEST(c.unsupported == "plugin 'moq' plays no 'client' role");
  BOOST_TEST(describe(c.knobs.at("relay")) == "initial_mtu=integer 1300");
}

// --- many problems at once ----------------------------------------------------

BOOST_AUTO_TEST_CASE(every_problem_of_a_file_is_reported) {
  const auto dir = scratch_dir("suite_validation_many");
  const auto p = parse_text(dir, "many.toml",
                            "[suite]\n"                                     // 1
                            "title = \"many problems\"\n"                   // 2
                            "\n"                                            // 3
                            "[[case]]\n"                                    // 4
                            "id = \"many/one\"\n"                           // 5
                            "rfc = \"9000\"\n"                              // 6
                            "requirement = \"should\"\n"                    // 7
                            "plugin = \"quic\"\n"                           // 8
                            "scenario = \"fanout\"\n"                       // 9
                            "params = { frames = 1.5 }\n"                   // 10
                            "seeds = 0\n"                                   // 11
                            "  [[case.expect]]\n"                           // 12
                            "  check = \"datagrams_captured\"\n"            // 13
                            "\n"                                            // 14
                            "[[case]]\n"                                    // 15
                            "id = \"many/ok\"\n"                            // 16
                            "rfc = \"9000§2\"\n"                            // 17
                            "requirement = \"MUST\"\n"                      // 18
                            "plugin = \"quic\"\n"                           // 19
                            "scenario = \"handshake\"\n"                    // 20
                            + kExpect +                                     // 21-23
                            "\n"                                            // 24
                            "[[case]]\n"                                    // 25
                            "id = \"many/two\"\n"                           // 26
                            "rfc = \"9000§3\"\n"                            // 27
                            "requirement = \"MAY\"\n"                       // 28
                            "plugin = \"tpc\"\n"                            // 29
                            "scenario = \"bulk\"\n"                         // 30
                            "  [[case.expect]]\n"                           // 31
                            "  check = \"datagrams\"\n");                   // 32
  BOOST_TEST(sorted(p.lines()) ==
                 sorted({
                     at(p.path, 6, 7, "'rfc' must read like 9000§4.6 (RFC number, §, section)"),
                     at(p.path, 7, 15,
                        "'requirement' must name its level as a word: MUST, SHOULD or MAY "
                        "(REQUIRED, RECOMMENDED, OPTIONAL), or say 'no keyword' where the RFC gives none"),
                     at(p.path, 10, 21, "parameter of scenario 'fanout': 'frames' must be an integer, not float"),
                     at(p.path, 11, 9, "'seeds' must be an integer from 1 to 10000"),
                     at(p.path, 13, 11, "check 'datagrams_captured' needs parameter 'vantage'"),
                     at(p.path, 29, 10, "unknown plugin 'tpc' (did you mean 'tcp'?); plugins found: quic, tcp"),
                     at(p.path, 32, 11, "unknown check 'datagrams' (did you mean 'datagrams_captured'?)"),
                 }),
             boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(p.suite->cases.size(), 3u);
  BOOST_TEST(p.suite->cases[0].id == "many/one");
  BOOST_TEST(p.suite->cases[1].id == "many/ok");
  BOOST_TEST(p.suite->cases[2].id == "many/two");
  BOOST_TEST(p.suite->title == "many problems");
}

BOOST_AUTO_TEST_SUITE_END()
