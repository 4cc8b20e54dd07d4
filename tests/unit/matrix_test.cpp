// Matrix expansion (ids, cartesian order, settings per point), overrides of
// single settings and of mutants, and how values are spelled back.
#include "suite/loader.hpp"
#include "suite/matrix.hpp"
#include "suite/value_format.hpp"
#include "support/suite_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace conform;
using namespace conform::test;

namespace {

// A case of the quic plugin's fanout scenario with `extra` lines after its
// head and one valid expect.
std::string matrix_case(const std::string& id, const std::string& extra) {
  return "[[case]]\n"
         "id = \"" + id + "\"\n"
         "rfc = \"9000§4.6\"\n"
         "requirement = \"it MUST hold\"\n"
         "plugin = \"quic\"\n"
         "scenario = \"fanout\"\n" +
         extra +
         "  [[case.expect]]\n"
         "  check = \"datagrams_captured\"\n"
         "  vantage = \"client\"\n";
}

// Loads `files` (name, text) from a fresh scratch folder and expands them.
struct Expanded {
  std::vector<std::unique_ptr<SuiteFile>> suites;
  std::vector<Case> cases;
  std::vector<std::string> ids() const {
    std::vector<std::string> out;
    for (const auto& c : cases) out.push_back(c.id());
    return out;
  }
};

Expanded expand(const std::string& scratch, const std::vector<std::pair<std::string, std::string>>& files) {
  const auto dir = scratch_dir(scratch);
  for (const auto& [name, text] : files) write_file(dir + "/" + name, text);
  Expanded e;
  e.suites = load_suites({dir}, test_catalogue());
  e.cases = expand_cases(e.suites, test_catalogue());
  return e;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(matrix_test)

BOOST_AUTO_TEST_CASE(two_axes_expand_in_declaration_order_last_fastest) {
  const auto e = expand("matrix_two_axes",
                        {{"m.toml", matrix_case("m/two", "matrix = { frames = [100, 200], "
                                                         "\"client.initial_mtu\" = [1200, 1500] }\n")}});
  const std::vector<std::string> expected = {
      "m/two[frames=100,client.initial_mtu=1200]",
      "m/two[frames=100,client.initial_mtu=1500]",
      "m/two[frames=200,client.initial_mtu=1200]",
      "m/two[frames=200,client.initial_mtu=1500]",
  };
  BOOST_TEST(e.ids() == expected, boost::test_tools::per_element());
  const auto& matrix = e.suites.at(0)->cases.at(0).matrix;
  BOOST_REQUIRE_EQUAL(matrix.size(), 2u);
  BOOST_TEST(matrix[0].key == "frames");
  BOOST_TEST(matrix[1].key == "client.initial_mtu");

  const std::int64_t frames[] = {100, 100, 200, 200};
  const std::int64_t mtu[] = {1200, 1500, 1200, 1500};
  for (std::size_t i = 0; i < e.cases.size(); ++i) {
    const CaseSettings& s = e.cases[i].settings;
    BOOST_TEST(describe(s.params.at("frames")) == "integer " + std::to_string(frames[i]));
    BOOST_TEST(describe(s.knobs.at("client").at("initial_mtu")) == "integer " + std::to_string(mtu[i]));
    // Only the client's knob is on the axis; the server keeps its default.
    BOOST_TEST(describe(s.knobs.at("server").at("initial_mtu")) == "integer 1200");
    // Everything else is the defaults.
    BOOST_TEST(describe(s.params.at("cc")) == "string \"newreno\"");
    BOOST_TEST(describe(s.network.at("rtt_ms")) == "float 10.0");
    BOOST_TEST(s.scenario == "fanout");
    BOOST_TEST(s.seed == 0u);
    BOOST_TEST(e.cases[i].decl == &e.suites[0]->cases[0]);
    BOOST_TEST(e.cases[i].suite == e.suites[0].get());
  }
}

BOOST_AUTO_TEST_CASE(axes_follow_declaration_not_name_order) {
  const auto e = expand("matrix_declaration_order",
                        {{"m.toml", matrix_case("m/rev", "  [case.matrix]\n"
                                                         "  zero_rtt = [false, true]\n"
                                                         "  \"client.initial_mtu\" = [1200, 1500]\n"
                                                         "  cc = [\"bbr\"]\n")}});
  const std::vector<std::string> expected = {
      "m/rev[zero_rtt=false,client.initial_mtu=1200,cc=bbr]",
      "m/rev[zero_rtt=false,client.initial_mtu=1500,cc=bbr]",
      "m/rev[zero_rtt=true,client.initial_mtu=1200,cc=bbr]",
      "m/rev[zero_rtt=true,client.initial_mtu=1500,cc=bbr]",
  };
  BOOST_TEST(e.ids() == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(three_axes_form_the_full_cartesian_product) {
  const auto e = expand("matrix_three_axes",
                        {{"m.toml", matrix_case("m/three", "  [case.matrix]\n"
                                                           "  \"network.rtt_ms\" = [5, 7.5]\n"
                                                           "  \"params.cc\" = [\"newreno\", \"cubic\", \"bbr\"]\n"
                                                           "  \"server.emit_max_streams\" = [true, false]\n")}});
  BOOST_REQUIRE_EQUAL(e.cases.size(), 12u);
  std::size_t i = 0;
  for (const char* rtt : {"5", "7.5"})
    for (const char* cc : {"newreno", "cubic", "bbr"})
      for (const char* emit : {"true", "false"}) {
        const CaseSettings& s = e.cases[i++].settings;
        BOOST_TEST(s.id == std::string("m/three[network.rtt_ms=") + rtt + ",params.cc=" + cc +
                               ",server.emit_max_streams=" + emit + "]");
        // An integer on a float axis is a float.
        BOOST_TEST(describe(s.network.at("rtt_ms")) ==
                   std::string("float ") + (rtt == std::string("5") ? "5.0" : rtt));
        BOOST_TEST(describe(s.params.at("cc")) == std::string("string \"") + cc + "\"");
        BOOST_TEST(describe(s.knobs.at("server").at("emit_max_streams")) == std::string("boolean ") + emit);
        BOOST_TEST(describe(s.knobs.at("client").at("emit_max_streams")) == "boolean true");
        // `params.cc` lands in params, not in a role called "params".
        BOOST_TEST(s.knobs.count("params") == 0u);
        BOOST_TEST(s.knobs.count("network") == 0u);
        // Every network key with a default (server_mtu and its like have none).
        BOOST_TEST(s.network.size() == static_cast<std::size_t>(std::count_if(
                                           network_spec().begin(), network_spec().end(),
                                           [](const ValueSpec& v) { return v.default_value.has_value(); })));
      }
}

BOOST_AUTO_TEST_CASE(matrix_values_override_the_case_and_keep_its_other_settings) {
  const auto e = expand("matrix_overrides",
                        {{"m.toml", matrix_case("m/over", "params = { frames = 5, cc = \"bbr\" }\n"
                                                          "client = { initial_mtu = 1300 }\n"
                                                          "network = { mtu = 1400, rtt_ms = 30 }\n"
                                                          "matrix = { frames = [1, 2], "
                                                          "\"client.initial_rtt_ms\" = [50] , "
                                                          "\"network.loss_rate\" = [0.25] }\n")}});
  BOOST_TEST(e.ids() == (std::vector<std::string>{
                            "m/over[frames=1,client.initial_rtt_ms=50,network.loss_rate=0.25]",
                            "m/over[frames=2,client.initial_rtt_ms=50,network.loss_rate=0.25]"}),
             boost::test_tools::per_element());
  for (std::size_t i = 0; i < e.cases.size(); ++i) {
    const CaseSettings& s = e.cases[i].settings;
    BOOST_TEST(describe(s.params) == "cc=string \"bbr\"; frames=integer " + std::to_string(i + 1) +
                                         "; pacing_gain=float 1.25; tags=array of strings [\"t0\"]; "
                                         "zero_rtt=boolean false");
    BOOST_TEST(describe(s.knobs.at("client")) ==
               "alpn=array of strings [\"h3\"]; emit_max_streams=boolean true; initial_mtu=integer 1300; "
               "initial_rtt_ms=float 50.0");
    BOOST_TEST(describe(s.network.at("loss_rate")) == "float 0.25");
    BOOST_TEST(describe(s.network.at("mtu")) == "integer 1400");
    BOOST_TEST(describe(s.network.at("rtt_ms")) == "float 30.0");
    BOOST_TEST(describe(s.network.at("jitter_ms")) == "float 0.0");
  }
}

BOOST_AUTO_TEST_CASE(cases_without_matrix_keep_their_id_in_file_and_declaration_order) {
  const auto e = expand("matrix_order",
                        {{"b.toml", matrix_case("b/one", "")},
                         {"a.toml", matrix_case("a/one", "") + "\n" +
                                        matrix_case("a/two", "matrix = { cc = [\"cubic\", \"bbr\"] }\n") + "\n" +
                                        matrix_case("a/three", "")}});
  const std::vector<std::string> expected = {"a/one", "a/two[cc=cubic]", "a/two[cc=bbr]", "a/three", "b/one"};
  BOOST_TEST(e.ids() == expected, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(e.suites.size(), 2u);
  BOOST_TEST(e.cases[0].suite == e.suites[0].get());
  BOOST_TEST(e.cases[0].decl == &e.suites[0]->cases[0]);
  BOOST_TEST(e.cases[1].decl == &e.suites[0]->cases[1]);
  BOOST_TEST(e.cases[2].decl == &e.suites[0]->cases[1]);
  BOOST_TEST(e.cases[3].decl == &e.suites[0]->cases[2]);
  BOOST_TEST(e.cases[4].suite == e.suites[1].get());
  BOOST_TEST(e.cases[4].decl == &e.suites[1]->cases[0]);
  BOOST_TEST(e.cases[4].suite->path == e.suites[1]->path);
}

BOOST_AUTO_TEST_CASE(a_plugin_without_scenario_params_or_knobs_expands_to_empty_maps) {
  const auto e = expand("matrix_tcp", {{"t.toml", "[[case]]\n"
                                                  "id = \"tcp/bulk\"\n"
                                                  "rfc = \"9293§3.1\"\n"
                                                  "requirement = \"it MUST send\"\n"
                                                  "plugin = \"tcp\"\n"
                                                  "scenario = \"bulk\"\n"
                                                  "network = { rtt_ms = 2.5 }\n"
                                                  "  [[case.expect]]\n"
                                                  "  check = \"datagrams_captured\"\n"
                                                  "  vantage = \"server\"\n"}});
  BOOST_REQUIRE_EQUAL(e.cases.size(), 1u);
  const CaseSettings& s = e.cases[0].settings;
  BOOST_TEST(s.id == "tcp/bulk");
  BOOST_TEST(s.scenario == "bulk");
  BOOST_TEST(s.params.empty());
  BOOST_REQUIRE_EQUAL(s.knobs.size(), 2u);
  BOOST_TEST(s.knobs.at("client").empty());
  BOOST_TEST(s.knobs.at("server").empty());
  BOOST_TEST(describe(s.network.at("rtt_ms")) == "float 2.5");
}

BOOST_AUTO_TEST_CASE(apply_setting_routes_each_key_form) {
  CaseSettings s;
  s.params["frames"] = std::int64_t{1};
  s.knobs["client"]["initial_mtu"] = std::int64_t{1200};
  s.network["rtt_ms"] = 10.0;

  apply_setting(s, "frames", Value{std::int64_t{2}});
  BOOST_TEST(describe(s.params) == "frames=integer 2");
  apply_setting(s, "params.cc", Value{std::string("bbr")});
  BOOST_TEST(describe(s.params) == "cc=string \"bbr\"; frames=integer 2");
  apply_setting(s, "network.rtt_ms", Value{25.5});
  BOOST_TEST(describe(s.network) == "rtt_ms=float 25.5");
  apply_setting(s, "client.initial_mtu", Value{std::int64_t{1500}});
  apply_setting(s, "server.emit_max_streams", Value{false});
  BOOST_REQUIRE_EQUAL(s.knobs.size(), 2u);
  BOOST_TEST(describe(s.knobs.at("client")) == "initial_mtu=integer 1500");
  BOOST_TEST(describe(s.knobs.at("server")) == "emit_max_streams=boolean false");
  // Nothing leaked into another map.
  BOOST_TEST(describe(s.params) == "cc=string \"bbr\"; frames=integer 2");
  BOOST_TEST(describe(s.network) == "rtt_ms=float 25.5");
}

BOOST_AUTO_TEST_CASE(apply_mutant_overrides_only_what_the_mutant_names) {
  const auto e = expand("matrix_mutant",
                        {{"m.toml", matrix_case("m/mutant", "matrix = { frames = [1, 2] }\n"
                                                            "client = { initial_mtu = 1300 }\n") +
                                        "  [[case.mutant]]\n"
                                        "  server = { emit_max_streams = false }\n"
                                        "  params = { frames = 0 }\n"
                                        "  network = { loss_rate = 1 }\n"
                                        "  fails = [\"datagrams_captured\"]\n"}});
  BOOST_REQUIRE_EQUAL(e.cases.size(), 2u);
  const MutantDecl& m = e.cases[0].decl->mutants.at(0);
  BOOST_TEST(m.label == "server.emit_max_streams=false, params.frames=0, network.loss_rate=1.0");
  for (std::size_t i = 0; i < e.cases.size(); ++i) {
    const CaseSettings& base = e.cases[i].settings;
    const CaseSettings mutated = apply_mutant(base, m);
    // The mutant beats the matrix value; the id stays the expanded one.
    BOOST_TEST(mutated.id == base.id);
    BOOST_TEST(describe(mutated.params.at("frames")) == "integer 0");
    BOOST_TEST(describe(mutated.knobs.at("server").at("emit_max_streams")) == "boolean false");
    BOOST_TEST(describe(mutated.network.at("loss_rate")) == "float 1.0");
    // Everything else is untouched.
    BOOST_TEST(describe(mutated.knobs.at("client")) == describe(base.knobs.at("client")));
    BOOST_TEST(describe(mutated.knobs.at("client").at("initial_mtu")) == "integer 1300");
    BOOST_TEST(describe(mutated.knobs.at("server").at("initial_mtu")) == "integer 1200");
    BOOST_TEST(describe(mutated.params.at("cc")) == "string \"newreno\"");
    BOOST_TEST(describe(mutated.network.at("rtt_ms")) == "float 10.0");
    BOOST_TEST(mutated.params.size() == base.params.size());
    BOOST_TEST(mutated.network.size() == base.network.size());
    // The base settings are a copy the mutant did not touch.
    BOOST_TEST(describe(base.params.at("frames")) == "integer " + std::to_string(i + 1));
    BOOST_TEST(describe(base.knobs.at("server").at("emit_max_streams")) == "boolean true");
  }
}

BOOST_AUTO_TEST_CASE(format_toml_and_bare_spell_every_type) {
  BOOST_TEST(format_toml(Value{true}) == "true");
  BOOST_TEST(format_toml(Value{false}) == "false");
  BOOST_TEST(format_toml(Value{std::int64_t{-42}}) == "-42");
  BOOST_TEST(format_toml(Value{0.5}) == "0.5");
  BOOST_TEST(format_toml(Value{1e-3}) == "0.001");
  BOOST_TEST(format_toml(Value{std::string("cubic")}) == "\"cubic\"");
  BOOST_TEST(format_toml(Value{std::vector<std::string>{"a", "b"}}) == "[\"a\", \"b\"]");
  BOOST_TEST(format_toml(Value{std::vector<std::string>{}}) == "[]");

  BOOST_TEST(format_bare(Value{true}) == "true");
  BOOST_TEST(format_bare(Value{std::int64_t{1500}}) == "1500");
  BOOST_TEST(format_bare(Value{2.25}) == "2.25");
  BOOST_TEST(format_bare(Value{std::string("newreno")}) == "newreno");
  BOOST_TEST(format_bare(Value{std::vector<std::string>{"h3", "hq"}}) == "[h3, hq]");
}

BOOST_AUTO_TEST_SUITE_END()
