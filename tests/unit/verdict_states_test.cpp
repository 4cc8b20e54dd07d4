// Verdict states and levels: how a run settles from its check instances
// (PASS, FAIL, NOT EXERCISED, NOT JUDGED) under `conform run` and
// `conform check`, how QUIC units fold, and which failed cases `--fail-on`
// counts.
#include "check/quic/support/quic_check.hpp"
#include "check/registry.hpp"
#include "report/reporter.hpp"
#include "run/aggregate.hpp"
#include "run/execute.hpp"

#include <boost/test/unit_test.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace conform {
// For Boost.Test's messages (internal linkage: other test files may add their own).
static std::ostream& operator<<(std::ostream& os, Status s) { return os << to_string(s); }
static std::ostream& operator<<(std::ostream& os, Verdict v) { return os << to_string(v); }
}  // namespace conform

using namespace conform;

namespace {

// A check whose verdict is its name's: "says_pass", "says_fail", ...; its
// `bound` carries a bound of the case's simulated path.
class FixedCheck final : public Check {
 public:
  FixedCheck(std::string name, Verdict v) : name_(std::move(name)), verdict_(v) {}
  std::string name() const override { return name_; }
  std::string rfc() const override { return "test"; }
  RequirementLevel level() const override { return RequirementLevel::expectation; }
  std::string summary() const override { return "a fixed verdict"; }
  std::vector<ValueSpec> params() const override {
    return {{"bound", ValueType::floating, Value{-1.0}, "a bound of the path, ms"}};
  }
  std::vector<ScenarioParam> scenario_params() const override { return {{"bound", ScenarioPart::simulated_path}}; }
  CheckResult evaluate(const CheckInput&) const override {
    return {verdict_, std::string(to_string(verdict_)) + " because " + name_, {}};
  }

 private:
  std::string name_;
  Verdict verdict_;
};

struct Fixture {
  CheckRegistry registry;
  SuiteFile suite;
  CaseDecl decl;
  Case c;

  Fixture() {
    registry.add(std::make_unique<FixedCheck>("says_pass", Verdict::pass));
    registry.add(std::make_unique<FixedCheck>("says_fail", Verdict::fail));
    registry.add(std::make_unique<FixedCheck>("says_not_exercised", Verdict::not_exercised));
    registry.add(std::make_unique<FixedCheck>("says_not_judged", Verdict::not_judged));
    suite.path = "suites/x.toml";
    decl.id = "x/y";
    decl.rfc = "9000§4.6";
    c.suite = &suite;
    c.decl = &decl;
    c.settings.id = decl.id;
  }
  void expect(const std::string& check, RequirementLevel level = RequirementLevel::must, bool may = false,
              double bound = -1.0) {
    ExpectDecl e;
    e.check = check;
    e.level = level;
    e.may_be_unexercised = may;
    e.params["bound"] = bound;
    decl.expects.push_back(e);
  }
  RunRecord judge(CaptureOrigin origin) { return judge_checks(c, "/nonexistent", c.settings, registry, origin); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(verdict_states_test)

BOOST_AUTO_TEST_CASE(verdicts_are_spelled_one_way_and_read_back) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::not_exercised, Verdict::not_judged, Verdict::not_applicable})
    BOOST_TEST(*parse_verdict(to_string(v)) == v);
  BOOST_TEST(to_string(Verdict::not_exercised) == "NOT EXERCISED");
  BOOST_TEST(!parse_verdict("pass").has_value());
  BOOST_TEST(std::string(to_string(Status::not_exercised)) == "NOT EXERCISED");
  BOOST_TEST((parse_status("NOT JUDGED") == Status::not_judged));
  BOOST_TEST((parse_status("NOT APPLICABLE") == Status::not_applicable));
}

BOOST_AUTO_TEST_CASE(a_case_passes_when_one_instance_was_exercised_and_none_failed) {
  Fixture f;
  f.expect("says_pass");
  f.expect("says_not_exercised", RequirementLevel::must, true);
  f.expect("says_not_judged");
  const RunRecord seen = f.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(seen.status == Status::pass);
  BOOST_TEST(seen.checks[1].result.verdict == Verdict::not_exercised);
  BOOST_TEST(seen.checks[2].result.verdict == Verdict::not_judged);
}

BOOST_AUTO_TEST_CASE(nothing_exercised_is_not_exercised_and_skipped_not_failed) {
  Fixture f;
  f.expect("says_not_exercised");
  const RunRecord r = f.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(r.status == Status::not_exercised);
  BOOST_TEST(r.reason == "says_not_exercised: NOT EXERCISED because says_not_exercised");
  BOOST_TEST(is_skipped(r.status));
  BOOST_TEST(!is_failure(r.status));
}

BOOST_AUTO_TEST_CASE(not_judged_outranks_not_exercised_and_fails_the_gate) {
  Fixture f;
  f.expect("says_not_exercised");
  f.expect("says_not_judged");
  const RunRecord r = f.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(r.status == Status::not_judged);
  BOOST_TEST(is_failure(r.status));
}

BOOST_AUTO_TEST_CASE(a_fail_outranks_every_other_state) {
  Fixture f;
  f.expect("says_pass");
  f.expect("says_not_judged");
  f.expect("says_fail");
  BOOST_TEST(f.judge(CaptureOrigin::elsewhere).status == Status::fail);
  BOOST_TEST(f.judge(CaptureOrigin::case_run).status == Status::fail);
}

BOOST_AUTO_TEST_CASE(a_run_fails_an_expected_check_that_was_not_exercised) {
  Fixture f;
  f.expect("says_pass");
  f.expect("says_not_exercised");
  const RunRecord r = f.judge(CaptureOrigin::case_run);
  BOOST_TEST(r.status == Status::fail);
  BOOST_TEST(r.reason ==
             "says_not_exercised was not exercised (the case claims it): NOT EXERCISED because says_not_exercised");
}

BOOST_AUTO_TEST_CASE(may_be_unexercised_lets_a_run_pass_without_it) {
  Fixture f;
  f.expect("says_pass");
  f.expect("says_not_exercised", RequirementLevel::must, true);
  BOOST_TEST(f.judge(CaptureOrigin::case_run).status == Status::pass);
}

BOOST_AUTO_TEST_CASE(a_run_that_cannot_see_is_an_error) {
  Fixture f;
  f.expect("says_pass");
  f.expect("says_not_judged");
  const RunRecord r = f.judge(CaptureOrigin::case_run);
  BOOST_TEST(r.status == Status::error);
  BOOST_TEST(r.reason == "says_not_judged: NOT JUDGED because says_not_judged");
}

BOOST_AUTO_TEST_CASE(each_outcome_carries_its_expect_level_into_the_headline) {
  Fixture f;
  f.expect("says_fail", RequirementLevel::should);
  const RunRecord r = f.judge(CaptureOrigin::elsewhere);
  BOOST_TEST((r.checks[0].level == RequirementLevel::should));
  BOOST_TEST(verdict_label(r.checks[0]) == "FAIL [SHOULD]");
  const CaseResult result = aggregate(f.c, {r}, {});
  BOOST_TEST(result.headline == "says_fail [SHOULD]: FAIL because says_fail");
}

BOOST_AUTO_TEST_CASE(states_without_a_judgement_name_no_level) {
  CheckOutcome o{"x", {}, {Verdict::not_exercised, "", {}}, RequirementLevel::must};
  BOOST_TEST(verdict_label(o) == "NOT EXERCISED");
}

BOOST_AUTO_TEST_CASE(fail_on_counts_a_case_at_its_strongest_failed_level) {
  Fixture should_only, must_too;
  should_only.expect("says_fail", RequirementLevel::should);
  must_too.expect("says_fail", RequirementLevel::expectation);
  must_too.expect("says_fail", RequirementLevel::must);
  RunTotals totals;
  totals.add(aggregate(should_only.c, {should_only.judge(CaptureOrigin::elsewhere)}, {}));
  BOOST_TEST(totals.failures({FailLevel::must}) == 0u);
  BOOST_TEST(totals.failures({FailLevel::should}) == 1u);
  BOOST_TEST(totals.failures({FailLevel::any}) == 1u);
  totals.add(aggregate(must_too.c, {must_too.judge(CaptureOrigin::elsewhere)}, {}));
  BOOST_TEST(totals.failures({FailLevel::must}) == 1u);
  BOOST_TEST(totals.failed == 2u);
}

BOOST_AUTO_TEST_CASE(fail_on_never_excuses_a_failure_that_is_no_checks) {
  Fixture unexercised, blind;
  unexercised.expect("says_not_exercised", RequirementLevel::expectation);
  blind.expect("says_not_judged", RequirementLevel::expectation);
  RunTotals totals;
  totals.add(aggregate(unexercised.c, {unexercised.judge(CaptureOrigin::case_run)}, {}));
  totals.add(aggregate(blind.c, {blind.judge(CaptureOrigin::elsewhere)}, {}));
  BOOST_TEST(totals.failures({FailLevel::must}) == 2u);
  BOOST_TEST(totals.failed == 1u);  // NOT JUDGED is counted apart
  BOOST_TEST(totals.not_judged == 1u);
}

// A gate on production captures may let a capture it cannot see through:
// `--fail-on must,not-judged=ok`. Its failures at MUST still count.
BOOST_AUTO_TEST_CASE(not_judged_fails_unless_the_gate_says_it_is_ok) {
  Fixture blind, broken;
  blind.expect("says_not_judged");
  broken.expect("says_fail", RequirementLevel::must);
  RunTotals totals;
  totals.add(aggregate(blind.c, {blind.judge(CaptureOrigin::elsewhere)}, {}));
  BOOST_TEST(totals.failures({FailLevel::any, true}) == 1u);
  BOOST_TEST(totals.failures({FailLevel::any, false}) == 0u);
  totals.add(aggregate(broken.c, {broken.judge(CaptureOrigin::elsewhere)}, {}));
  BOOST_TEST(totals.failures({FailLevel::must, false}) == 1u);
}

BOOST_AUTO_TEST_CASE(an_instance_that_sets_a_scenario_parameter_is_not_applicable_offline_only) {
  Fixture f;
  f.expect("says_fail", RequirementLevel::must, false, 9.0);
  const RunRecord offline = f.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(offline.status == Status::not_applicable);
  BOOST_TEST(offline.checks[0].result.verdict == Verdict::not_applicable);
  BOOST_TEST(offline.reason == "says_fail: needs a bound of the case's simulated path: bound = 9.0");
  BOOST_TEST(!is_failure(offline.status));
  BOOST_TEST(!is_skipped(offline.status));
  // The same instance is judged when the case's own run made the capture.
  BOOST_TEST(f.judge(CaptureOrigin::case_run).status == Status::fail);
}

BOOST_AUTO_TEST_CASE(an_expect_that_applies_offline_is_judged_on_its_own_bounds) {
  Fixture f;
  f.expect("says_fail", RequirementLevel::must, false, 9.0);
  f.decl.expects.back().applies_offline = true;
  BOOST_TEST(f.judge(CaptureOrigin::elsewhere).status == Status::fail);
}

BOOST_AUTO_TEST_CASE(a_scenario_parameter_left_at_its_default_applies) {
  Fixture f;
  f.expect("says_fail", RequirementLevel::must, false, -1.0);
  BOOST_TEST(f.judge(CaptureOrigin::elsewhere).status == Status::fail);
}

BOOST_AUTO_TEST_CASE(what_applies_decides_the_case_and_not_applicable_counts_apart) {
  Fixture partly, wholly;
  partly.expect("says_pass");
  partly.expect("says_fail", RequirementLevel::must, false, 9.0);
  wholly.expect("says_fail", RequirementLevel::must, false, 9.0);
  wholly.expect("says_pass", RequirementLevel::must, false, 1.5);
  const RunRecord p = partly.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(p.status == Status::pass);
  BOOST_TEST(p.checks[1].result.verdict == Verdict::not_applicable);
  const RunRecord w = wholly.judge(CaptureOrigin::elsewhere);
  BOOST_TEST(w.status == Status::not_applicable);
  BOOST_TEST(w.reason == "says_fail: needs a bound of the case's simulated path: bound = 9.0; "
                         "says_pass: needs a bound of the case's simulated path: bound = 1.5");
  RunTotals totals;
  totals.add(aggregate(partly.c, {p}, {}));
  totals.add(aggregate(wholly.c, {w}, {}));
  BOOST_TEST(totals.passed == 1u);
  BOOST_TEST(totals.not_applicable == 1u);
  BOOST_TEST(totals.failed + totals.skipped == 0u);
  BOOST_TEST(totals.failures({FailLevel::any}) == 0u);
}

BOOST_AUTO_TEST_CASE(fail_on_words) {
  BOOST_TEST((parse_fail_on("must")->level == FailLevel::must));
  BOOST_TEST(parse_fail_on("must")->not_judged);
  BOOST_TEST((parse_fail_on("any")->level == FailLevel::any));
  BOOST_TEST(!parse_fail_on("should,not-judged=ok")->not_judged);
  BOOST_TEST(parse_fail_on("should,not-judged=fail")->not_judged);
  BOOST_TEST(!parse_fail_on("MUST").has_value());
  BOOST_TEST(!parse_fail_on("must,").has_value());
  BOOST_TEST(!parse_fail_on("must,not-judged").has_value());
  BOOST_TEST(!parse_fail_on("not-judged=ok").has_value());
  BOOST_TEST(parse_fail_on("any,not-exercised=fail,not-judged=ok")->not_exercised);
  BOOST_TEST(!parse_fail_on("any,not-exercised=fail,not-judged=ok")->not_judged);
  BOOST_TEST(!parse_fail_on("any")->not_exercised);
  BOOST_TEST(!parse_fail_on("any,not-judged=ok,not-judged=fail").has_value());
  BOOST_TEST(counts(FailLevel::should, RequirementLevel::must));
  BOOST_TEST(!counts(FailLevel::should, RequirementLevel::expectation));
}

BOOST_AUTO_TEST_CASE(units_fold_fail_then_pass_then_not_judged) {
  using quic_checks::fold;
  BOOST_TEST(fold({Verdict::not_exercised, Verdict::pass, Verdict::fail}) == Verdict::fail);
  BOOST_TEST(fold({Verdict::not_exercised, Verdict::pass, Verdict::not_judged}) == Verdict::pass);
  BOOST_TEST(fold({Verdict::not_exercised, Verdict::not_judged}) == Verdict::not_judged);
  BOOST_TEST(fold({Verdict::not_exercised, Verdict::not_exercised}) == Verdict::not_exercised);
  BOOST_TEST(fold({}) == Verdict::fail);
}

BOOST_AUTO_TEST_SUITE_END()
