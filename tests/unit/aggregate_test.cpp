// From runs and mutants to one case result: status ranking, headlines with
// evidence, mutants killed, surviving or unjudgeable, xfail, unsupported.
#include "run/aggregate.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace conform {
// For Boost.Test's messages (internal linkage: other test files may add their own).
static std::ostream& operator<<(std::ostream& os, Status s) { return os << to_string(s); }
}  // namespace conform

using namespace conform;

namespace {

// One suite file with one case declaration, and its one expanded case.
struct Fixture {
  SuiteFile suite;
  CaseDecl decl;
  Case c;

  explicit Fixture(std::optional<std::string> xfail = std::nullopt) {
    suite.path = "suites/rfc9000/streams.toml";
    decl.id = "max-streams/fanout";
    decl.rfc = "9000§4.6";
    decl.plugin = "fixture";
    decl.scenario = "echo";
    decl.seeds = 3;
    decl.xfail = std::move(xfail);
    c.suite = &suite;
    c.decl = &decl;
    c.settings.id = decl.id;
    c.settings.scenario = decl.scenario;
  }
};

CheckOutcome check(std::string name, bool passed, std::string summary,
                   std::vector<Evidence> evidence = {}) {
  return {std::move(name), {}, {pass_if(passed), std::move(summary), std::move(evidence)}};
}

RunRecord run(std::uint64_t seed, Status status, std::vector<CheckOutcome> checks = {},
              std::string reason = "", double duration = 0.25) {
  RunRecord r;
  r.seed = seed;
  r.status = status;
  r.checks = std::move(checks);
  r.reason = std::move(reason);
  r.duration_s = duration;
  r.artifact_dir = "/out/max-streams/fanout/seed-" + std::to_string(seed);
  return r;
}

RunRecord passing(std::uint64_t seed) {
  return run(seed, Status::pass,
             {check("datagrams_captured", true, "client.pcap holds 6 datagrams"),
              check("stream_limit", true, "opened 100/100")});
}

// A run where `stream_limit` failed with evidence in client.pcap.
RunRecord failing(std::uint64_t seed) {
  return run(seed, Status::fail,
             {check("datagrams_captured", true, "client.pcap holds 6 datagrams"),
              check("stream_limit", false, "opened 101/100",
                    {{"", 0, -1, "about the case as a whole"},
                     {"client.pcap", 42, 1'250'000'000, "stream 100 opened"},
                     {"server.pcap", 43, 1'300'000'000, "never shown"}})});
}

MutantDecl mutant(std::string label, std::vector<std::string> fails) {
  MutantDecl m;
  m.label = std::move(label);
  m.fails = std::move(fails);
  return m;
}

const std::string kFailHeadline =
    "stream_limit [expectation]: opened 101/100 [client.pcap frame 42 at 1.250000 s: stream 100 opened]";

}  // namespace

BOOST_AUTO_TEST_SUITE(aggregate_test)

BOOST_AUTO_TEST_CASE(all_runs_pass) {
  Fixture f;
  auto m = judge_mutant(mutant("client.echo=false", {"stream_limit"}),
                        run(1, Status::fail, {check("stream_limit", false, "opened 0/100")}, "", 1.0));
  CaseResult r = aggregate(f.c, {passing(1), passing(2), passing(3)}, {m});
  BOOST_TEST(r.c == &f.c);
  BOOST_TEST(r.status == Status::pass);
  BOOST_TEST(r.headline.empty());
  BOOST_TEST(r.headline_seed == 0u);
  BOOST_TEST(r.runs_passed == 3u);
  BOOST_TEST(r.runs.size() == 3u);
  BOOST_TEST(r.runs[1].seed == 2u);
  BOOST_TEST(r.mutants.size() == 1u);
  // Durations of seeds and mutants add up.
  BOOST_TEST(r.duration_s == 0.25 * 3 + 1.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(one_failing_seed_fails_the_case_with_its_evidence) {
  Fixture f;
  CaseResult r = aggregate(f.c, {passing(1), failing(2), passing(3)}, {});
  BOOST_TEST(r.status == Status::fail);
  // The first failing check, and its first evidence that names a capture.
  BOOST_TEST(r.headline == kFailHeadline);
  BOOST_TEST(r.headline_seed == 2u);
  BOOST_TEST(r.runs_passed == 2u);
}

BOOST_AUTO_TEST_CASE(first_failing_seed_is_the_headline) {
  Fixture f;
  RunRecord later = failing(3);
  later.checks[1].result.summary = "opened 150/100";
  CaseResult r = aggregate(f.c, {passing(1), failing(2), later}, {});
  BOOST_TEST(r.status == Status::fail);
  BOOST_TEST(r.headline_seed == 2u);
  BOOST_TEST(r.headline == kFailHeadline);
  BOOST_TEST(r.runs_passed == 1u);
}

BOOST_AUTO_TEST_CASE(evidence_without_frame_or_time_is_shortened) {
  Fixture f;
  RunRecord a = run(4, Status::fail,
                    {check("c1", false, "nothing", {{"server.pcap", 0, -1, "empty capture"}})});
  BOOST_TEST(aggregate(f.c, {a}, {}).headline == "c1 [expectation]: nothing [server.pcap: empty capture]");

  RunRecord b = run(5, Status::fail,
                    {check("c2", false, "late", {{"client.pcap", 0, 2'000'000, "timer"}})});
  BOOST_TEST(aggregate(f.c, {b}, {}).headline == "c2 [expectation]: late [client.pcap at 0.002000 s: timer]");

  RunRecord c = run(6, Status::fail, {check("c3", false, "no evidence at all")});
  BOOST_TEST(aggregate(f.c, {c}, {}).headline == "c3 [expectation]: no evidence at all");

  // A FAIL record without a failed check still says something.
  RunRecord d = run(7, Status::fail, {check("c4", true, "fine")});
  BOOST_TEST(aggregate(f.c, {d}, {}).headline == "a check failed");
}

BOOST_AUTO_TEST_CASE(error_outranks_fail) {
  Fixture f;
  const std::string crash = "the run crashed: signal 11 (SIGSEGV: Segmentation fault)";
  CaseResult r = aggregate(f.c, {failing(1), run(2, Status::error, {}, crash), passing(3)}, {});
  BOOST_TEST(r.status == Status::error);
  BOOST_TEST(r.headline == crash);
  BOOST_TEST(r.headline_seed == 2u);
  BOOST_TEST(r.runs_passed == 1u);
}

BOOST_AUTO_TEST_CASE(error_outranks_timeout_which_outranks_fail) {
  Fixture f;
  const std::string late = "no end after 1.5 s (timeout)";
  CaseResult t = aggregate(f.c, {failing(1), run(2, Status::timeout, {}, late)}, {});
  BOOST_TEST(t.status == Status::timeout);
  BOOST_TEST(t.headline == late);
  BOOST_TEST(t.headline_seed == 2u);

  CaseResult e = aggregate(
      f.c, {run(1, Status::timeout, {}, late), run(2, Status::error, {}, "gave up"), failing(3)}, {});
  BOOST_TEST(e.status == Status::error);
  BOOST_TEST(e.headline == "gave up");
  BOOST_TEST(e.headline_seed == 2u);
}

BOOST_AUTO_TEST_CASE(judge_mutant_killed_when_every_named_check_failed) {
  MutantDecl decl = mutant("client.emit_max_streams=false", {"stream_limit", "datagrams_captured"});
  RunRecord r = run(1, Status::fail,
                    {check("datagrams_captured", false, "0 datagrams"),
                     check("stream_limit", false, "opened 0/100"),
                     check("unrelated", true, "fine")});
  MutantOutcome m = judge_mutant(decl, r);
  BOOST_TEST(m.killed);
  BOOST_TEST(m.survived.empty());
  BOOST_TEST(m.label == "client.emit_max_streams=false");
  BOOST_TEST(m.fails == decl.fails, boost::test_tools::per_element());
  BOOST_TEST(m.run.seed == 1u);
  BOOST_TEST(m.run.checks.size() == 3u);

  Fixture f;
  CaseResult c = aggregate(f.c, {passing(1)}, {m});
  BOOST_TEST(c.status == Status::pass);
  BOOST_TEST(c.headline.empty());
  BOOST_TEST(c.mutants.front().killed);
}

BOOST_AUTO_TEST_CASE(mutant_survives_when_a_named_check_passed) {
  MutantOutcome m = judge_mutant(mutant("client.emit_max_streams=false", {"stream_limit"}),
                                 run(1, Status::pass,
                                     {check("datagrams_captured", true, "6 datagrams"),
                                      check("stream_limit", true, "opened 100/100")}));
  BOOST_TEST(!m.killed);
  BOOST_TEST(m.survived == (std::vector<std::string>{"stream_limit"}),
             boost::test_tools::per_element());

  Fixture f;
  CaseResult c = aggregate(f.c, {passing(1), passing(2)}, {m});
  BOOST_TEST(c.status == Status::fail);
  BOOST_TEST(c.headline ==
             "mutant survived: check stream_limit passed with client.emit_max_streams=false");
  BOOST_TEST(c.headline_seed == 1u);
  BOOST_TEST(c.runs_passed == 2u);
}

BOOST_AUTO_TEST_CASE(a_qualified_entry_judges_only_the_instances_it_names) {
  // One check expected at both endpoints: the mutant breaks the client's.
  auto at = [](std::string by, bool passed) {
    CheckOutcome c = check("max_streams_extended", passed, by + (passed ? " raised it" : " never raised it"));
    c.params = {{"by", Value{by}}, {"dir", Value{std::string("uni")}}};
    return c;
  };
  const RunRecord r = run(1, Status::fail, {at("client", false), at("server", true)});
  BOOST_TEST(judge_mutant(mutant("client.emit_max_streams=false", {"max_streams_extended[by=client,dir=uni]"}), r)
                 .killed);
  // Unqualified, the server's passing instance lets the mutant survive.
  const MutantOutcome plain = judge_mutant(mutant("client.emit_max_streams=false", {"max_streams_extended"}), r);
  BOOST_TEST(!plain.killed);
  BOOST_TEST(plain.survived == (std::vector<std::string>{"max_streams_extended"}), boost::test_tools::per_element());
  const MutantOutcome wrong = judge_mutant(mutant("server.emit_max_streams=false", {"max_streams_extended[by=server]"}), r);
  BOOST_TEST(wrong.survived == (std::vector<std::string>{"max_streams_extended[by=server]"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_surviving_check_is_named) {
  // A FAIL mutant run can still let some of its named checks pass.
  MutantOutcome m = judge_mutant(mutant("server.echo=false", {"a", "b", "c"}),
                                 run(9, Status::fail,
                                     {check("a", true, "ok"), check("b", false, "bad"),
                                      check("c", true, "ok")}));
  BOOST_TEST(!m.killed);
  BOOST_TEST(m.survived == (std::vector<std::string>{"a", "c"}), boost::test_tools::per_element());
  Fixture f;
  CaseResult r = aggregate(f.c, {passing(1)}, {m});
  BOOST_TEST(r.headline == "mutant survived: check a, c passed with server.echo=false");
  BOOST_TEST(r.headline_seed == 9u);
}

BOOST_AUTO_TEST_CASE(first_surviving_mutant_is_the_headline) {
  auto killed = judge_mutant(mutant("m1", {"x"}), run(1, Status::fail, {check("x", false, "no")}));
  auto first = judge_mutant(mutant("m2", {"x"}), run(2, Status::pass, {check("x", true, "yes")}));
  auto second = judge_mutant(mutant("m3", {"x"}), run(3, Status::pass, {check("x", true, "yes")}));
  Fixture f;
  CaseResult r = aggregate(f.c, {passing(1)}, {killed, first, second});
  BOOST_TEST(r.status == Status::fail);
  BOOST_TEST(r.headline == "mutant survived: check x passed with m2");
  BOOST_TEST(r.headline_seed == 2u);
}

BOOST_AUTO_TEST_CASE(failing_run_outranks_surviving_mutant) {
  auto survived = judge_mutant(mutant("m", {"stream_limit"}),
                               run(1, Status::pass, {check("stream_limit", true, "fine")}));
  Fixture f;
  CaseResult r = aggregate(f.c, {failing(1)}, {survived});
  BOOST_TEST(r.status == Status::fail);
  BOOST_TEST(r.headline == kFailHeadline);
}

BOOST_AUTO_TEST_CASE(mutant_that_errored_cannot_be_judged) {
  MutantOutcome m = judge_mutant(mutant("client.initial_rtt_ms=0", {"stream_limit"}),
                                 run(1, Status::error, {}, "the run exited with status 3 before reporting"));
  BOOST_TEST(!m.killed);
  BOOST_TEST(m.survived.empty());

  Fixture f;
  CaseResult r = aggregate(f.c, {passing(1)}, {m});
  BOOST_TEST(r.status == Status::fail);
  BOOST_TEST(r.headline ==
             "mutant client.initial_rtt_ms=0 could not be judged: ERROR the run exited with "
             "status 3 before reporting");
  BOOST_TEST(r.headline_seed == 1u);

  // Killed by the wall-clock limit, the run left no checks.
  MutantOutcome t = judge_mutant(mutant("slow", {"x"}), run(4, Status::timeout, {}, "no end after 2 s (timeout)"));
  BOOST_TEST(!t.killed);
  CaseResult rt = aggregate(f.c, {passing(1)}, {t});
  BOOST_TEST(rt.headline == "mutant slow could not be judged: TIMEOUT no end after 2 s (timeout)");
  BOOST_TEST(rt.headline_seed == 4u);
}

// A mutant runs on every seed of its case and is killed only when killed on
// each; the outcome shows the first seed it survived and lists them all.
BOOST_AUTO_TEST_CASE(a_mutant_is_killed_only_when_killed_on_every_seed) {
  const auto decl = mutant("m", {"x"});
  const auto failed = [](std::uint64_t seed) { return run(seed, Status::fail, {check("x", false, "none")}); };
  const auto passed = [](std::uint64_t seed) { return run(seed, Status::pass, {check("x", true, "some")}); };
  const MutantOutcome all = judge_mutant(decl, std::vector<RunRecord>{failed(1), failed(2)});
  BOOST_TEST(all.killed);
  BOOST_TEST(all.seeds == std::vector<std::uint64_t>({1, 2}), boost::test_tools::per_element());
  BOOST_TEST(all.survived_seeds.empty());
  BOOST_TEST(all.run.seed == 1u);
  BOOST_TEST(mutant_verdict(all) == "killed on each of 2 seeds (x failed)");

  const MutantOutcome some = judge_mutant(decl, std::vector<RunRecord>{failed(1), passed(2), passed(3)});
  BOOST_TEST(!some.killed);
  BOOST_TEST(some.survived_seeds == std::vector<std::uint64_t>({2, 3}), boost::test_tools::per_element());
  BOOST_TEST(some.survived == std::vector<std::string>{"x"}, boost::test_tools::per_element());
  BOOST_TEST(some.run.seed == 2u);
  BOOST_TEST(mutant_verdict(some).rfind("SURVIVED on seeds 2, 3 of 3: PASS [", 0) == 0u, mutant_verdict(some));
  Fixture f;
  const CaseResult r = aggregate(f.c, {passing(1), passing(2), passing(3)}, {some});
  BOOST_TEST((r.status == Status::fail));
  BOOST_TEST(r.headline_seed == 2u);
}

// A mutant that deadlocks reaches the virtual-time budget: its run is a
// TIMEOUT judged on the captures it left, and its checks kill it, or
// show that it survived.
BOOST_AUTO_TEST_CASE(mutant_that_timed_out_is_judged_on_its_checks) {
  const std::string budget = "no end within the virtual-time budget of 3000 ms";
  MutantOutcome killed = judge_mutant(mutant("deadlock", {"x"}),
                                      run(1, Status::timeout, {check("x", false, "received=2/6")}, budget));
  BOOST_TEST(killed.killed);
  BOOST_TEST((killed.run.status == Status::timeout));
  Fixture f;
  BOOST_TEST((aggregate(f.c, {passing(1)}, {killed}).status == Status::pass));

  MutantOutcome survived = judge_mutant(mutant("deadlock", {"x"}),
                                        run(1, Status::timeout, {check("x", true, "received=6/6")}, budget));
  BOOST_TEST(!survived.killed);
  BOOST_TEST(survived.survived == std::vector<std::string>{"x"}, boost::test_tools::per_element());
  CaseResult r = aggregate(f.c, {passing(1)}, {survived});
  BOOST_TEST((r.status == Status::fail));
  BOOST_TEST(r.headline == "mutant survived: check x passed with deadlock");
}

BOOST_AUTO_TEST_CASE(xfail_turns_fail_into_xfail) {
  Fixture f("the stack ignores the limit (issue 12)");
  CaseResult r = aggregate(f.c, {failing(1)}, {});
  BOOST_TEST(r.status == Status::xfail);
  BOOST_TEST(r.headline == "the stack ignores the limit (issue 12) (" + kFailHeadline + ")");
  BOOST_TEST(!is_failure(r.status));

  // A surviving mutant is never an expected failure: it fails the case
  // whatever xfail says, whether the case's own runs pass or fail.
  auto survived = judge_mutant(mutant("m", {"x"}), run(1, Status::pass, {check("x", true, "ok")}));
  CaseResult s = aggregate(f.c, {passing(1)}, {survived});
  BOOST_TEST(s.status == Status::fail);
  BOOST_TEST(s.headline == "mutant survived: check x passed with m");
  BOOST_TEST(is_failure(s.status));
  CaseResult t = aggregate(f.c, {failing(1)}, {survived});
  BOOST_TEST(t.status == Status::fail);
  BOOST_TEST(t.headline == "mutant survived: check x passed with m");
}

BOOST_AUTO_TEST_CASE(xfail_turns_pass_into_xpass) {
  Fixture f("the stack ignores the limit");
  CaseResult r = aggregate(f.c, {passing(7), passing(8)}, {});
  BOOST_TEST(r.status == Status::xpass);
  BOOST_TEST(r.headline == "passed, but the case says it fails: the stack ignores the limit");
  BOOST_TEST(is_failure(r.status));
  // A failure replays with a seed of its own runs, never 0.
  BOOST_TEST(r.headline_seed == 7u);
}

BOOST_AUTO_TEST_CASE(xfail_leaves_error_and_timeout_alone) {
  Fixture f("known bug");
  CaseResult e = aggregate(f.c, {failing(1), run(2, Status::error, {}, "boom")}, {});
  BOOST_TEST(e.status == Status::error);
  BOOST_TEST(e.headline == "boom");
  CaseResult t = aggregate(f.c, {run(1, Status::timeout, {}, "late")}, {});
  BOOST_TEST(t.status == Status::timeout);
  BOOST_TEST(t.headline == "late");
}

BOOST_AUTO_TEST_CASE(all_runs_unsupported_is_unsupported) {
  Fixture f;
  CaseResult r = aggregate(f.c,
                           {run(1, Status::unsupported, {}, "needs CAP_NET_RAW"),
                            run(2, Status::unsupported, {}, "second reason")},
                           {});
  BOOST_TEST(r.status == Status::unsupported);
  BOOST_TEST(r.headline == "needs CAP_NET_RAW");
  BOOST_TEST(r.runs_passed == 0u);
  BOOST_TEST(!is_failure(r.status));

  // Even a case with xfail stays UNSUPPORTED.
  Fixture x("known bug");
  CaseResult rx = aggregate(x.c, {run(1, Status::unsupported, {}, "no relay")}, {});
  BOOST_TEST(rx.status == Status::unsupported);
  BOOST_TEST(rx.headline == "no relay");
}

BOOST_AUTO_TEST_CASE(some_runs_unsupported_are_ignored) {
  Fixture f;
  CaseResult p = aggregate(f.c, {run(1, Status::unsupported, {}, "skip"), passing(2)}, {});
  BOOST_TEST(p.status == Status::pass);
  BOOST_TEST(p.headline.empty());
  BOOST_TEST(p.runs_passed == 1u);

  CaseResult fl = aggregate(f.c, {run(1, Status::unsupported, {}, "skip"), failing(2)}, {});
  BOOST_TEST(fl.status == Status::fail);
  BOOST_TEST(fl.headline == kFailHeadline);
  BOOST_TEST(fl.headline_seed == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
