// Stacks × behaviours, from the pairs' case results (behaviour_matrix.hpp).
#include "report/behaviour_matrix.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace conform {
namespace {

const std::string* string_param(const ValueMap& params, const std::string& name) {
  auto it = params.find(name);
  return it == params.end() ? nullptr : std::get_if<std::string>(&it->second);
}

// The role an expect judges: its `by`, else the role its check is named after.
std::string judged_role(const ExpectDecl& e) {
  if (const auto* by = string_param(e.params, "by")) return *by;
  for (const char* role : {"client", "server"})
    if (e.check.starts_with(std::string(role) + "_")) return role;
  return {};
}

// connection_closed_with in suites/violations' two expects: that the judged
// side closed (MUST, the code named or a generic one) and that it used the
// code the RFC names (SHOULD); a column each, counting the rules.
std::string violation_label(const ExpectDecl& e) {
  return e.level == RequirementLevel::must ? "answers violations: closes" : "answers violations: code named";
}

std::string behaviour_label(const ExpectDecl& e) {
  if (e.check == "connection_closed_with") return violation_label(e);
  const auto* dir = string_param(e.params, "dir");
  return dir ? e.check + " " + *dir : e.check;
}

// Worse first: the verdict a case with several seeds gives a behaviour.
int gravity(const std::string& verdict) {
  static const std::vector<std::string> order = {"FAIL", "ERROR", "TIMEOUT", "NOT JUDGED", "NOT EXERCISED",
                                                  "NOT APPLICABLE", "PASS"};
  return static_cast<int>(std::find(order.begin(), order.end(), verdict) - order.begin());
}

// The verdict of expect `k` on the case's own runs (not its mutants').
std::string verdict_of(const CaseResult& r, std::size_t k) {
  std::string worst;
  for (const RunRecord& run : r.runs) {
    if (!run.mutant.empty()) continue;
    const std::string v = k < run.checks.size() ? std::string(to_string(run.checks[k].result.verdict))
                                                : std::string(to_string(run.status));
    if (worst.empty() || gravity(v) < gravity(worst)) worst = v;
  }
  return worst.empty() ? to_string(r.status) : worst;
}

// `FAIL [SHOULD] 1/2`, and the runs that judged nothing when some did
// (`PASS 3/3 +1 ERROR`: a peer that crashed is not lost from the count).
std::string cell_text(const std::string& verdict, const std::optional<RequirementLevel>& level, std::size_t passed,
                      std::size_t judged, const std::vector<const BehaviourJudgement*>& judgements) {
  std::string text = verdict;
  if (level) text += fmt::format(" [{}]", to_string(*level));
  if (judged == 0) return text;
  text += fmt::format(" {}/{}", passed, judged);
  std::map<int, std::pair<std::string, std::size_t>> others;  // by gravity
  for (const auto* j : judgements)
    if (j->verdict != "PASS" && j->verdict != "FAIL") {
      auto& [name, count] = others[gravity(j->verdict)];
      name = j->verdict;
      ++count;
    }
  for (const auto& [gravity, other] : others) text += fmt::format(" +{} {}", other.second, other.first);
  return text;
}

}  // namespace

void add_once(std::vector<std::string>& list, const std::string& s) {
  if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

std::vector<BehaviourJudgement> behaviour_judgements(const CaseResult& r, const std::string& client,
                                                     const std::string& server) {
  std::vector<BehaviourJudgement> out;
  if (r.status == Status::unsupported || r.status == Status::interrupted) return out;
  const auto& expects = r.c->decl->expects;
  for (std::size_t k = 0; k < expects.size(); ++k) {
    const std::string role = judged_role(expects[k]);
    if (role != "client" && role != "server") continue;
    out.push_back({role == "client" ? client : server, role, behaviour_label(expects[k]), verdict_of(r, k),
                   expects[k].level, r.c->id()});
  }
  return out;
}

void BehaviourMatrix::add(std::vector<BehaviourJudgement> judgements) {
  for (auto& j : judgements) {
    add_once(stacks_, j.stack);
    add_once(behaviours_, j.behaviour);
    judgements_.push_back(std::move(j));
  }
}

BehaviourMatrix::Cell BehaviourMatrix::cell(const std::string& stack, const std::string& behaviour) const {
  Cell c;
  for (const auto& j : judgements_) {
    if (j.stack != stack || j.behaviour != behaviour) continue;
    c.judgements.push_back(&j);
    if (j.verdict == "PASS" || j.verdict == "FAIL") ++c.judged;
    if (j.verdict == "PASS") ++c.passed;
    if (j.verdict == "FAIL" && (!c.level || j.level < *c.level)) c.level = j.level;
    if (c.verdict.empty() || gravity(j.verdict) < gravity(c.verdict)) c.verdict = j.verdict;
  }
  // A stack that passed somewhere and failed nowhere shows the behaviour.
  if (c.verdict != "FAIL" && c.passed > 0) c.verdict = "PASS";
  return c;
}

nlohmann::json BehaviourMatrix::to_json() const {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& stack : stacks_)
    for (const auto& behaviour : behaviours_) {
      const Cell c = cell(stack, behaviour);
      if (c.judgements.empty()) continue;
      nlohmann::json each = nlohmann::json::array();
      for (const auto* j : c.judgements) each.push_back({{"id", j->case_id}, {"verdict", j->verdict}});
      cells.push_back({{"stack", stack},
                       {"behaviour", behaviour},
                       {"role", c.judgements.front()->role},
                       {"verdict", c.verdict},
                       {"level", c.level ? nlohmann::json(to_string(*c.level)) : nlohmann::json()},
                       {"passed", c.passed},
                       {"judged", c.judged},
                       {"judgements", each}});
    }
  return {{"stacks", stacks_}, {"behaviours", behaviours_}, {"cells", cells}};
}

void BehaviourMatrix::print(std::FILE* out) const {
  if (judgements_.empty() || !out) return;
  std::size_t first = 5;
  for (const auto& s : stacks_) first = std::max(first, s.size());
  std::vector<std::vector<std::string>> texts;  // [stack][behaviour]
  std::vector<std::size_t> widths;
  for (const auto& b : behaviours_) widths.push_back(std::max<std::size_t>(b.size(), 18));
  for (const auto& stack : stacks_) {
    texts.emplace_back();
    for (std::size_t i = 0; i < behaviours_.size(); ++i) {
      const Cell c = cell(stack, behaviours_[i]);
      texts.back().push_back(c.judgements.empty() ? "-"
                                                  : cell_text(c.verdict, c.level, c.passed, c.judged, c.judgements));
      widths[i] = std::max(widths[i], texts.back().back().size());
    }
  }
  fmt::print(out, "\nbehaviour matrix (stack × behaviour, over every pair it played in)\n{:<{}}", "stack", first);
  for (std::size_t i = 0; i < behaviours_.size(); ++i) fmt::print(out, "  {:<{}}", behaviours_[i], widths[i]);
  fmt::print(out, "\n");
  for (std::size_t s = 0; s < stacks_.size(); ++s) {
    fmt::print(out, "{:<{}}", stacks_[s], first);
    for (std::size_t i = 0; i < behaviours_.size(); ++i) fmt::print(out, "  {:<{}}", texts[s][i], widths[i]);
    fmt::print(out, "\n");
  }
}

}  // namespace conform
