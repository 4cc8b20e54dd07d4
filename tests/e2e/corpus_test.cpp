// The real-stack corpus judged instance by instance: `conform check` with
// suites/capture and suites/rfc9000 on every capture of
// captures/third-party/<stack>/, each check instance compared with the state
// its folder's expected.toml gives (and captures/third-party/offline.toml,
// the instances no offline capture can judge). Those states come from
// tshark's decoding (scripts/corpus-frames.sh) and the RFC text, never from
// conform's output (captures/third-party/README.md). Every instance must
// meet exactly one entry, every entry at least one instance: a check that
// starts misjudging one instance, or a suite that asks something new, fails
// here with capture, case, check, expected and got.
#include "support/support.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <filesystem>
#include <sstream>

using namespace conform::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(CONFORM_SOURCE_DIR) / "captures" / "third-party";

// One [[instance]] of an expected file: which instances it covers (its
// check, the parameters it names, its case if it names one) and their state.
struct Expectation {
  std::string where;  // file:line
  std::string check, case_id;
  json params = json::object();
  std::string state, level, why;
  std::string misjudged_as, misjudged_issue;  // a known misjudgement: what conform says today
  int matched = 0;
};

json to_json(const toml::node& node) {
  if (const auto* t = node.as_table()) {
    json out = json::object();
    for (const auto& [key, value] : *t) out[std::string(key.str())] = to_json(value);
    return out;
  }
  if (const auto* v = node.as_boolean()) return v->get();
  if (const auto* v = node.as_integer()) return v->get();
  if (const auto* v = node.as_floating_point()) return v->get();
  if (const auto* v = node.as_string()) return v->get();
  BOOST_FAIL("unsupported TOML value in an expected file");
  return {};
}

std::vector<Expectation> read_expectations(const fs::path& file) {
  std::vector<Expectation> out;
  const toml::table doc = toml::parse_file(file.string());
  const auto* instances = doc["instance"].as_array();
  BOOST_TEST_REQUIRE(instances, file.string() + ": no [[instance]]");
  for (const auto& node : *instances) {
    const auto& t = *node.as_table();
    Expectation e;
    e.where = file.filename().string() + ":" + std::to_string(t.source().begin.line);
    e.check = t["check"].value_or(std::string());
    e.case_id = t["case"].value_or(std::string());
    if (const auto* p = t["params"].as_table()) e.params = to_json(*p);
    e.state = t["state"].value_or(std::string());
    e.level = t["level"].value_or(std::string());
    e.why = t["why"].value_or(std::string());
    if (const auto* m = t["misjudged"].as_table()) {
      e.misjudged_as = (*m)["got"].value_or(std::string());
      e.misjudged_issue = (*m)["issue"].value_or(std::string());
    }
    BOOST_TEST(!e.check.empty(), e.where + ": no check");
    BOOST_TEST(!e.why.empty(), e.where + ": no why");
    BOOST_TEST((e.state == "PASS" || e.state == "FAIL" || e.state == "NOT EXERCISED" || e.state == "NOT JUDGED" ||
                e.state == "NOT APPLICABLE"),
               e.where + ": state '" + e.state + "'");
    BOOST_TEST((e.state == "FAIL") == !e.level.empty(), e.where + ": a level goes with FAIL alone");
    out.push_back(std::move(e));
  }
  return out;
}

bool numbers_equal(const json& a, const json& b) {
  return a.is_number() && b.is_number() && a.get<double>() == b.get<double>();
}

bool covers(const Expectation& e, const std::string& case_id, const std::string& check, const json& params) {
  if (e.check != check || (!e.case_id.empty() && e.case_id != case_id)) return false;
  for (const auto& [key, value] : e.params.items())
    if (!params.contains(key) || !(params.at(key) == value || numbers_equal(params.at(key), value))) return false;
  return true;
}

std::string describe(const std::string& stack, const std::string& case_id, const json& check) {
  return stack + ": " + case_id + " " + check.at("check").get<std::string>() + " " + check.value("params", json()).dump();
}

// The verdict of one instance against its expectation; "" when they agree.
std::string compare(const Expectation& e, const json& check) {
  const std::string got = check.at("verdict");
  const std::string got_level = check.value("level", "");
  const auto shown = [&](const std::string& state, const std::string& level) {
    return state == "FAIL" ? state + " [" + level + "]" : state;
  };
  const std::string told = " (" + e.where + ": " + e.why + "); conform said: " + check.value("summary", "");
  if (!e.misjudged_as.empty()) {
    if (got == e.misjudged_as) return "";
    if (got == e.state) return "now judged right, " + shown(got, got_level) + ": drop the misjudged note of issue " +
                               e.misjudged_issue + told;
    return "expected " + shown(e.state, e.level) + " (known to be misjudged as " + e.misjudged_as + "), got " +
           shown(got, got_level) + told;
  }
  if (got == e.state && (got != "FAIL" || got_level == e.level)) return "";
  return "expected " + shown(e.state, e.level) + ", got " + shown(got, got_level) + told;
}

// `conform check` of `stack`'s capture with both suites: the JSON report.
json judge(const std::string& stack) {
  const fs::path base = kCorpus / stack / stack;
  const std::string dir = scratch_dir("corpus_" + stack);
  const auto r = run_conform({"check", base.string() + ".pcap", "--keylog", base.string() + ".keys",
                              std::string(CONFORM_SOURCE_DIR) + "/suites/capture",
                              std::string(CONFORM_SOURCE_DIR) + "/suites/rfc9000", "--out", dir + "/out", "--json",
                              dir + "/report.json", "-q"},
                             ".", {build_plugins_env()});
  BOOST_TEST_REQUIRE(r.exit_code <= 1, stack + ": " + r.out + r.err);
  return json::parse(read_file(dir + "/report.json"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(corpus_test)

BOOST_AUTO_TEST_CASE(every_check_instance_on_every_capture_is_as_the_ground_truth_says) {
  auto shared = read_expectations(kCorpus / "offline.toml");
  std::vector<std::string> stacks;
  for (const auto& entry : fs::directory_iterator(kCorpus))
    if (entry.is_directory()) stacks.push_back(entry.path().filename().string());
  std::sort(stacks.begin(), stacks.end());
  BOOST_TEST_REQUIRE(stacks.size() >= 6u);
  std::size_t instances = 0, known = 0;
  for (const auto& stack : stacks) {
    BOOST_TEST_CONTEXT("capture " << stack) {
      const fs::path file = kCorpus / stack / "expected.toml";
      BOOST_TEST_REQUIRE(fs::exists(file), file.string() + " is missing: every capture of the corpus needs one");
      auto own = read_expectations(file);
      const json report = judge(stack);
      for (const auto& c : report.at("cases")) {
        const std::string case_id = c.at("id").get<std::string>().substr(0, c.at("id").get<std::string>().find(" @"));
        for (const auto& run : c.at("runs"))
          for (const auto& check : run.at("checks")) {
            ++instances;
            const json params = check.value("params", json::object());
            std::vector<Expectation*> hits;
            for (auto* list : {&own, &shared})
              for (auto& e : *list)
                if (covers(e, case_id, check.at("check"), params)) hits.push_back(&e);
            if (hits.size() != 1) {
              std::string where;
              for (const auto* h : hits) where += " " + h->where;
              BOOST_ERROR(describe(stack, case_id, check) << ": " << hits.size() << " expectations cover it" << where);
              continue;
            }
            ++hits[0]->matched;
            if (!hits[0]->misjudged_as.empty() && check.at("verdict") == hits[0]->misjudged_as) ++known;
            const std::string wrong = compare(*hits[0], check);
            if (!wrong.empty()) BOOST_ERROR(describe(stack, case_id, check) << ": " << wrong);
          }
      }
      for (const auto& e : own)
        BOOST_TEST(e.matched > 0, e.where + ": " + e.check + " " + e.params.dump() + " covers no instance");
    }
  }
  for (const auto& e : shared) BOOST_TEST(e.matched > 0, e.where + ": " + e.check + " covers no instance");
  BOOST_TEST_MESSAGE(instances << " check instances on " << stacks.size() << " captures; " << known
                               << " known misjudgements");
  BOOST_TEST(instances > 100u * stacks.size());
}

BOOST_AUTO_TEST_SUITE_END()
