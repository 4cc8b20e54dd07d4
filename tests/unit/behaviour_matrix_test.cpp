// Stacks × behaviours from hand-made interop results: which expects become
// behaviours (by `by`, by a role-named check, none for a pair-wide check),
// which stack each judgement goes to, and how a cell sums its judgements.
#include "report/behaviour_matrix.hpp"
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <deque>

using namespace conform;
using nlohmann::json;

namespace {

ExpectDecl expect(std::string check, ValueMap params, RequirementLevel level) {
  ExpectDecl e;
  e.check = std::move(check);
  e.params = std::move(params);
  e.level = level;
  return e;
}

CheckOutcome outcome(const ExpectDecl& e, Verdict v) { return {e.check, e.params, {v, "summary", {}}, e.level}; }

// One case with three expects: streams_blocked_sent by the client (SHOULD),
// max_streams_extended by the server on uni, streams_delivered (the pair).
struct World {
  CaseDecl decl;
  std::deque<Case> cases;
  std::deque<CaseResult> results;

  World() {
    decl.id = "interop/held";
    decl.expects = {expect("streams_blocked_sent", {{"by", std::string("client")}, {"dir", std::string("bidi")}},
                           RequirementLevel::should),
                    expect("max_streams_extended", {{"by", std::string("server")}, {"dir", std::string("uni")}},
                           RequirementLevel::expectation),
                    expect("streams_delivered", {{"from", std::string("client")}}, RequirementLevel::must)};
  }

  // A run of the pair whose three checks gave `v`; no checks when `status`
  // is not a verdict's.
  const CaseResult& pair(const std::string& client, const std::string& server, std::vector<Verdict> v,
                         Status status = Status::pass) {
    Case& c = cases.emplace_back();
    c.decl = &decl;
    c.settings.id = "interop/held[" + client + "," + server + "]";
    CaseResult& r = results.emplace_back();
    r.c = &c;
    r.status = status;
    RunRecord run;
    run.status = status;
    for (std::size_t k = 0; k < v.size(); ++k) run.checks.push_back(outcome(decl.expects[k], v[k]));
    r.runs.push_back(run);
    return r;
  }
};

// The matrix of a_cell_fails_at_its_level_when_any_pair_failed_and_counts_the_judged.
BehaviourMatrix four_pairs(World& w) {
  BehaviourMatrix m;
  for (const auto& [client, server, blocked] :
       std::vector<std::tuple<std::string, std::string, Verdict>>{{"ngtcp2", "conform", Verdict::fail},
                                                                  {"ngtcp2", "quic-go", Verdict::pass},
                                                                  {"ngtcp2", "lsquic", Verdict::not_exercised},
                                                                  {"quic-go", "conform", Verdict::pass}})
    m.add(behaviour_judgements(w.pair(client, server, {blocked, Verdict::not_exercised, Verdict::pass}), client,
                               server));
  return m;
}

// from_json's error on `j`: the JSON pointer it left and its message.
std::string read_back_error(const json& j) {
  std::string where;
  try {
    BehaviourMatrix::from_json(j, "/b", where);
  } catch (const std::exception& e) {
    return where + ": " + e.what();
  }
  return "read without error";
}

const json& cell_of(const json& m, const std::string& stack, const std::string& behaviour) {
  for (const auto& c : m.at("cells"))
    if (c.at("stack") == stack && c.at("behaviour") == behaviour) return c;
  BOOST_FAIL("no cell " + stack + " × " + behaviour);
  throw;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(behaviour_matrix_test)

BOOST_AUTO_TEST_CASE(each_role_judged_goes_to_the_stack_that_played_it) {
  World w;
  const auto j = behaviour_judgements(w.pair("quic-go", "ngtcp2", {Verdict::pass, Verdict::fail, Verdict::pass}),
                                      "quic-go", "ngtcp2");
  BOOST_TEST_REQUIRE(j.size() == 2u);  // streams_delivered judges the pair
  BOOST_TEST(j[0].stack == "quic-go");
  BOOST_TEST(j[0].role == "client");
  BOOST_TEST(j[0].behaviour == "streams_blocked_sent bidi");
  BOOST_TEST(j[0].verdict == "PASS");
  BOOST_TEST(j[1].stack == "ngtcp2");
  BOOST_TEST(j[1].behaviour == "max_streams_extended uni");
  BOOST_TEST(j[1].verdict == "FAIL");
  BOOST_TEST(j[1].case_id == "interop/held[quic-go,ngtcp2]");
}

BOOST_AUTO_TEST_CASE(a_check_named_after_its_role_judges_that_role) {
  CaseDecl decl;
  decl.id = "interop/early";
  decl.expects = {expect("client_buffers_early_packets", {}, RequirementLevel::expectation),
                  expect("no_connection_error", {}, RequirementLevel::expectation)};
  Case c;
  c.decl = &decl;
  c.settings.id = decl.id;
  CaseResult r;
  r.c = &c;
  r.status = Status::fail;
  RunRecord run;
  run.checks = {outcome(decl.expects[0], Verdict::fail), outcome(decl.expects[1], Verdict::pass)};
  r.runs = {run};
  const auto j = behaviour_judgements(r, "lsquic", "conform");
  BOOST_TEST_REQUIRE(j.size() == 1u);
  BOOST_TEST(j[0].stack == "lsquic");
  BOOST_TEST(j[0].behaviour == "client_buffers_early_packets");
}

BOOST_AUTO_TEST_CASE(a_run_that_ended_before_its_checks_is_its_status_and_an_unsupported_one_is_nothing) {
  World w;
  const auto timed_out = behaviour_judgements(w.pair("lsquic", "conform", {}, Status::timeout), "lsquic", "conform");
  BOOST_TEST_REQUIRE(timed_out.size() == 2u);
  BOOST_TEST(timed_out[0].verdict == "TIMEOUT");
  BOOST_TEST(behaviour_judgements(w.pair("lsquic", "lsquic", {}, Status::unsupported), "lsquic", "lsquic").empty());
}

BOOST_AUTO_TEST_CASE(a_cell_fails_at_its_level_when_any_pair_failed_and_counts_the_judged) {
  World w;
  const BehaviourMatrix m = four_pairs(w);
  const json j = m.to_json();
  BOOST_TEST(j.at("stacks").dump() == R"(["ngtcp2","conform","quic-go","lsquic"])");
  BOOST_TEST(j.at("behaviours").dump() == R"(["streams_blocked_sent bidi","max_streams_extended uni"])");
  const json& ngtcp2 = cell_of(j, "ngtcp2", "streams_blocked_sent bidi");
  BOOST_TEST(ngtcp2.at("verdict") == "FAIL");
  BOOST_TEST(ngtcp2.at("level") == "SHOULD");
  BOOST_TEST(ngtcp2.at("passed") == 1);
  BOOST_TEST(ngtcp2.at("judged") == 2);
  BOOST_TEST(ngtcp2.at("judgements").size() == 3u);
  BOOST_TEST(ngtcp2.at("judgements")[0].dump() == R"({"id":"interop/held[ngtcp2,conform]","role":"client","verdict":"FAIL"})");
  const json& quic_go = cell_of(j, "quic-go", "streams_blocked_sent bidi");
  BOOST_TEST(quic_go.at("verdict") == "PASS");
  BOOST_TEST(quic_go.at("level").is_null());
  const json& conform = cell_of(j, "conform", "max_streams_extended uni");
  BOOST_TEST(conform.at("verdict") == "NOT EXERCISED");
  BOOST_TEST(conform.at("judged") == 0);

  const std::string path = conform::test::scratch_dir("behaviour-matrix") + "/console.txt";
  std::FILE* out = std::fopen(path.c_str(), "w");
  m.print(out);
  std::fclose(out);
  const std::string text = conform::test::read_file(path);
  // ngtcp2 never played the server, so its uni cell is "-", not NOT
  // EXERCISED; its run that judged nothing is counted beside the 1/2, and
  // the column is as wide as that cell.
  BOOST_TEST(text.find("\nngtcp2   FAIL [SHOULD] 1/2 +1 NOT EXERCISED  -") != std::string::npos, text);
  BOOST_TEST(text.find("\nquic-go  PASS 1/1 ") != std::string::npos, text);
  BOOST_TEST(text.find("\nconform  -" + std::string(35, ' ') + "NOT EXERCISED") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(passing_somewhere_and_failing_nowhere_is_a_pass) {
  World w;
  BehaviourMatrix m;
  m.add(behaviour_judgements(w.pair("conform", "ngtcp2", {Verdict::not_judged, Verdict::pass, Verdict::pass}),
                             "conform", "ngtcp2"));
  m.add(behaviour_judgements(w.pair("conform", "quic-go", {Verdict::pass, Verdict::pass, Verdict::pass}), "conform",
                             "quic-go"));
  const json j = m.to_json();
  const json& c = cell_of(j, "conform", "streams_blocked_sent bidi");
  BOOST_TEST(c.at("verdict") == "PASS");
  BOOST_TEST(c.at("passed") == 1);
  BOOST_TEST(c.at("judged") == 1);
}

// suites/violations' pair of expects on one rule: the close at MUST and the
// code named at SHOULD are two columns, each counting the rules.
BOOST_AUTO_TEST_CASE(violations_answered_are_two_columns_counting_the_rules) {
  CaseDecl decl;
  decl.id = "interop/violation/x";
  decl.expects = {expect("connection_closed_with", {{"by", std::string("server")}}, RequirementLevel::must),
                  expect("connection_closed_with", {{"by", std::string("server")}}, RequirementLevel::should)};
  std::deque<Case> cases;
  std::deque<CaseResult> results;
  BehaviourMatrix m;
  for (const auto& [id, closes, named] : std::vector<std::tuple<std::string, Verdict, Verdict>>{
           {"a", Verdict::pass, Verdict::fail}, {"b", Verdict::pass, Verdict::pass}, {"c", Verdict::fail, Verdict::fail}}) {
    Case& c = cases.emplace_back();
    c.decl = &decl;
    c.settings.id = "interop/violation/" + id;
    CaseResult& r = results.emplace_back();
    r.c = &c;
    r.status = Status::fail;
    RunRecord run;
    run.checks = {outcome(decl.expects[0], closes), outcome(decl.expects[1], named)};
    r.runs = {run};
    m.add(behaviour_judgements(r, "conform", "quiche"));
  }
  const json j = m.to_json();
  BOOST_TEST(j.at("behaviours").dump() == R"(["answers violations: closes","answers violations: code named"])");
  const json& closes = cell_of(j, "quiche", "answers violations: closes");
  BOOST_TEST(closes.at("verdict") == "FAIL");
  BOOST_TEST(closes.at("level") == "MUST");
  BOOST_TEST(closes.at("passed") == 2);
  BOOST_TEST(closes.at("judged") == 3);
  const json& named = cell_of(j, "quiche", "answers violations: code named");
  BOOST_TEST(named.at("level") == "SHOULD");
  BOOST_TEST(named.at("passed") == 1);
}

// docs/interop.md's table: the console's cells, "-" where no case asks it.
BOOST_AUTO_TEST_CASE(the_markdown_table_has_the_console_cells) {
  World w;
  BOOST_TEST(four_pairs(w).markdown() ==
             "| stack | streams_blocked_sent bidi | max_streams_extended uni |\n"
             "|---|---|---|\n"
             "| ngtcp2 | FAIL [SHOULD] 1/2 +1 NOT EXERCISED | - |\n"
             "| conform | - | NOT EXERCISED |\n"
             "| quic-go | PASS 1/1 | NOT EXERCISED |\n"
             "| lsquic | - | NOT EXERCISED |\n");
}

// `conform report --markdown` reads a report's matrix back: the same
// matrix, or the pointer of what is wrong.
BOOST_AUTO_TEST_CASE(a_matrix_read_back_is_the_same_and_a_wrong_one_is_named) {
  World w;
  const json j = four_pairs(w).to_json();
  std::string where;
  const BehaviourMatrix back = BehaviourMatrix::from_json(j, "/b", where);
  BOOST_TEST(back.to_json() == j);
  BOOST_TEST(back.markdown() == four_pairs(w).markdown());

  json wrong = j;
  wrong["cells"][0]["judgements"][0]["verdict"] = "MAYBE";
  BOOST_TEST(read_back_error(wrong) ==
             "/b/cells/0/judgements/0/verdict: expected one of FAIL, ERROR, TIMEOUT, NOT JUDGED, NOT EXERCISED, "
             "NOT APPLICABLE, PASS");
  wrong = j;
  wrong["cells"][0]["verdict"] = "PASS";  // its judgements hold a FAIL
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/verdict: \"PASS\", but its judgements give \"FAIL\"");
  wrong = j;
  wrong["cells"][0]["level"] = nullptr;
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/level: a FAIL needs the level of what failed");
  wrong = j;
  wrong["cells"][1]["stack"] = "msquic";
  BOOST_TEST(read_back_error(wrong) == "/b/cells/1/stack: \"msquic\" is not in /b/stacks");
  wrong = j;
  wrong["cells"].push_back(j["cells"][0]);
  BOOST_TEST(read_back_error(wrong) == "/b/cells/" + std::to_string(j["cells"].size()) +
                                           "/behaviour: a second cell of ngtcp2 × streams_blocked_sent bidi");
  wrong = j;
  wrong.erase("cells");
  BOOST_TEST(read_back_error(wrong) == "/b/cells: missing");
  wrong = j;
  wrong["stacks"].push_back("ngtcp2");
  BOOST_TEST(read_back_error(wrong) == "/b/stacks/4: \"ngtcp2\" is listed twice");
  wrong = j;
  wrong["behaviours"][1] = "max_streams\nextended";  // a line break would end the table's row
  BOOST_TEST(read_back_error(wrong) == "/b/behaviours/1: expected a name: not empty, no control characters");
  wrong = j;
  wrong["cells"][0]["passed"] = 2;
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/passed: expected 1, the count its judgements give");
  wrong = j;
  wrong["cells"][1]["level"] = "MUST";  // cell 1 is NOT EXERCISED
  BOOST_TEST(read_back_error(wrong) == "/b/cells/1/level: a level goes with a FAIL only: expected null");
  wrong = j;
  wrong["cells"][0]["role"] = "relay";
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/role: expected client or server");
  BOOST_TEST(read_back_error(json::array()) == "/b: expected an object");
}

// One stack judged as client in one case and as server in another (conform's
// pto_backoff in suites/interop): each judgement keeps its own role in the
// JSON, the cell names its first's; read back as written. A report written
// before judgements had a role gives each the cell's.
BOOST_AUTO_TEST_CASE(a_stack_judged_in_both_roles_keeps_each_judgements_role) {
  BehaviourJudgement as_client{"conform", "client", "pto_backoff", "PASS", RequirementLevel::must, "slow[conform]"};
  BehaviourJudgement as_server = as_client;
  as_server.role = "server";
  as_server.case_id = "stale-acks[conform]";
  BehaviourMatrix m;
  m.add({as_client, as_server});
  const json j = m.to_json();
  BOOST_TEST(j["cells"][0]["role"] == "client");
  BOOST_TEST(j["cells"][0]["judgements"][0]["role"] == "client");
  BOOST_TEST(j["cells"][0]["judgements"][1]["role"] == "server");
  std::string where;
  BOOST_TEST(BehaviourMatrix::from_json(j, "/b", where).to_json() == j);
  json old = j;
  for (auto& judgement : old["cells"][0]["judgements"]) judgement.erase("role");
  BOOST_TEST(BehaviourMatrix::from_json(old, "/b", where).to_json()["cells"][0]["judgements"][1]["role"] == "client");
  json wrong = j;
  wrong["cells"][0]["judgements"][1]["role"] = "relay";
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/judgements/1/role: expected client or server");
  wrong = j;
  wrong["cells"][0]["role"] = "server";
  BOOST_TEST(read_back_error(wrong) == "/b/cells/0/role: expected \"client\", the role of its first judgement");
}

// The external plugin names each stack with its installed version: the
// rows' headers on the console and in Markdown, `versions` in the JSON (for
// the stacks in the matrix only), read back as written.
BOOST_AUTO_TEST_CASE(rows_are_named_with_each_stacks_version) {
  World w;
  BehaviourMatrix m = four_pairs(w);
  m.set_versions({{"ngtcp2", "ngtcp2 (Debian ngtcp2-client 0.12.1+dfsg-1+deb12u1)"}, {"msquic", "msquic 2.4"}});
  BOOST_TEST(m.markdown() ==
             "| stack | streams_blocked_sent bidi | max_streams_extended uni |\n"
             "|---|---|---|\n"
             "| ngtcp2 (Debian ngtcp2-client 0.12.1+dfsg-1+deb12u1) | FAIL [SHOULD] 1/2 +1 NOT EXERCISED | - |\n"
             "| conform | - | NOT EXERCISED |\n"
             "| quic-go | PASS 1/1 | NOT EXERCISED |\n"
             "| lsquic | - | NOT EXERCISED |\n");
  const json j = m.to_json();
  BOOST_TEST(j.at("versions") == (json{{"ngtcp2", "ngtcp2 (Debian ngtcp2-client 0.12.1+dfsg-1+deb12u1)"}}));
  BOOST_TEST(four_pairs(w).to_json().at("versions") == json::object());

  std::FILE* out = std::tmpfile();
  m.print(out);
  std::rewind(out);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  BOOST_TEST(text.find("\nngtcp2 (Debian ngtcp2-client 0.12.1+dfsg-1+deb12u1)  FAIL [SHOULD] 1/2 +1 NOT EXERCISED") !=
                 std::string::npos,
             text);
  BOOST_TEST(text.find("\nquic-go                                              PASS 1/1") != std::string::npos, text);

  std::string where;
  const BehaviourMatrix back = BehaviourMatrix::from_json(j, "/b", where);
  BOOST_TEST(back.to_json() == j);
  BOOST_TEST(back.markdown() == m.markdown());
  json wrong = j;
  wrong["versions"]["ms/quic"] = "msquic 2.4";
  BOOST_TEST(read_back_error(wrong) == "/b/versions/ms~1quic: \"ms/quic\" is not in /b/stacks");
  wrong = j;
  wrong["versions"]["ngtcp2"] = "ngtcp2\n0.12";
  BOOST_TEST(read_back_error(wrong) == "/b/versions/ngtcp2: expected a name: not empty, no control characters");
  wrong = j;
  wrong["versions"] = json::array();
  BOOST_TEST(read_back_error(wrong) == "/b/versions: expected an object");
}

// A name's `|`, a backslash before it, and a line break would each break the
// table's row: escaped, and the break turned into a space.
BOOST_AUTO_TEST_CASE(names_that_would_break_a_markdown_row_are_escaped) {
  World w;
  BehaviourMatrix m;
  m.add(behaviour_judgements(w.pair("a|b", "c\\|", {Verdict::pass, Verdict::pass, Verdict::pass}), "a|b", "c\\|"));
  const std::string text = m.markdown();
  BOOST_TEST(text.find("| a\\|b | PASS 1/1 | - |\n") != std::string::npos, text);
  BOOST_TEST(text.find("| c\\\\\\| | - | PASS 1/1 |\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_SUITE_END()
