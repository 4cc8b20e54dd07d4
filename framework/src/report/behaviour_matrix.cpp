// Stacks × behaviours, from the pairs' case results (behaviour_matrix.hpp).
#include "report/behaviour_matrix.hpp"

#include "cli/settings_markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

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
const std::vector<std::string> kGravity = {"FAIL",          "ERROR",          "TIMEOUT", "NOT JUDGED",
                                           "NOT EXERCISED", "NOT APPLICABLE", "PASS"};
int gravity(const std::string& verdict) {
  return static_cast<int>(std::find(kGravity.begin(), kGravity.end(), verdict) - kGravity.begin());
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

std::vector<std::vector<std::string>> BehaviourMatrix::cell_texts() const {
  std::vector<std::vector<std::string>> texts;
  for (const auto& stack : stacks_) {
    texts.emplace_back();
    for (const auto& behaviour : behaviours_) {
      const Cell c = cell(stack, behaviour);
      texts.back().push_back(c.judgements.empty() ? "-"
                                                  : cell_text(c.verdict, c.level, c.passed, c.judged, c.judgements));
    }
  }
  return texts;
}

void BehaviourMatrix::print(std::FILE* out) const {
  if (judgements_.empty() || !out) return;
  std::size_t first = 5;
  for (const auto& s : stacks_) first = std::max(first, s.size());
  const auto texts = cell_texts();
  std::vector<std::size_t> widths;
  for (std::size_t i = 0; i < behaviours_.size(); ++i) {
    widths.push_back(std::max<std::size_t>(behaviours_[i].size(), 18));
    for (const auto& row : texts) widths[i] = std::max(widths[i], row[i].size());
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

std::string BehaviourMatrix::markdown() const {
  std::string out = "| stack |";
  for (const auto& b : behaviours_) out += " " + markdown_cell(b) + " |";
  out += "\n|---|";
  for (std::size_t i = 0; i < behaviours_.size(); ++i) out += "---|";
  out += "\n";
  const auto texts = cell_texts();
  for (std::size_t s = 0; s < stacks_.size(); ++s) {
    out += "| " + markdown_cell(stacks_[s]) + " |";
    for (const auto& text : texts[s]) out += " " + text + " |";
    out += "\n";
  }
  return out;
}

BehaviourMatrix BehaviourMatrix::from_json(const nlohmann::json& j, const std::string& base, std::string& where) {
  BehaviourMatrix m;
  const auto member = [&where](const nlohmann::json& object, const std::string& at, const char* key) -> const auto& {
    where = at;
    if (!object.is_object()) throw std::invalid_argument("expected an object");
    where = at + "/" + key;
    if (!object.contains(key)) throw std::invalid_argument("missing");
    return object.at(key);
  };
  m.stacks_ = member(j, base, "stacks").get<std::vector<std::string>>();
  m.behaviours_ = member(j, base, "behaviours").get<std::vector<std::string>>();
  const auto& cells = member(j, base, "cells");
  if (!cells.is_array()) throw std::invalid_argument("expected an array");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string at = base + "/cells/" + std::to_string(i);
    BehaviourJudgement j0;
    for (auto [key, field, names] : {std::tuple{"stack", &j0.stack, &m.stacks_},
                                     std::tuple{"behaviour", &j0.behaviour, &m.behaviours_}}) {
      *field = member(cells[i], at, key).get<std::string>();
      if (std::find(names->begin(), names->end(), *field) == names->end())
        throw std::invalid_argument(fmt::format("\"{}\" is not in {}/{}s", *field, base, key));
    }
    if (!m.cell(j0.stack, j0.behaviour).judgements.empty())
      throw std::invalid_argument(fmt::format("a second cell of {} × {}", j0.stack, j0.behaviour));
    j0.role = member(cells[i], at, "role").get<std::string>();
    const auto& level = member(cells[i], at, "level");
    if (!level.is_null()) {
      const auto parsed = parse_requirement_level(level.get<std::string>());
      if (!parsed) throw std::invalid_argument("expected MUST, SHOULD, expectation or null");
      j0.level = *parsed;  // the level of the cell's FAILs: each takes it
    }
    const std::string stated = member(cells[i], at, "verdict").get<std::string>();
    const auto& each = member(cells[i], at, "judgements");
    if (!each.is_array() || each.empty()) throw std::invalid_argument("expected an array of at least one judgement");
    for (std::size_t k = 0; k < each.size(); ++k) {
      BehaviourJudgement judgement = j0;
      const std::string jat = at + "/judgements/" + std::to_string(k);
      judgement.case_id = member(each[k], jat, "id").get<std::string>();
      judgement.verdict = member(each[k], jat, "verdict").get<std::string>();
      if (gravity(judgement.verdict) == static_cast<int>(kGravity.size()))
        throw std::invalid_argument("expected one of " + fmt::format("{}", fmt::join(kGravity, ", ")));
      m.judgements_.push_back(std::move(judgement));
    }
    where = at + "/verdict";
    const std::string computed = m.cell(j0.stack, j0.behaviour).verdict;
    if (computed != stated)
      throw std::invalid_argument(fmt::format("\"{}\", but its judgements give \"{}\"", stated, computed));
    where = at + "/level";
    if (computed == "FAIL" && level.is_null()) throw std::invalid_argument("a FAIL needs the level of what failed");
  }
  return m;
}

}  // namespace conform
