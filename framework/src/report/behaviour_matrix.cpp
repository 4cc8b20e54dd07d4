// Stacks × behaviours, from the pairs' case results (behaviour_matrix.hpp).
#include "report/behaviour_matrix.hpp"

#include "cli/settings_markdown.hpp"

#include <conform/label.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
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

BehaviourMatrix::Cell BehaviourMatrix::summarize(std::vector<const BehaviourJudgement*> judgements) {
  Cell c;
  c.judgements = std::move(judgements);
  for (const auto* j : c.judgements) {
    if (j->verdict == "PASS" || j->verdict == "FAIL") ++c.judged;
    if (j->verdict == "PASS") ++c.passed;
    if (j->verdict == "FAIL" && (!c.level || j->level < *c.level)) c.level = j->level;
    if (c.verdict.empty() || gravity(j->verdict) < gravity(c.verdict)) c.verdict = j->verdict;
  }
  // A stack that passed somewhere and failed nowhere shows the behaviour.
  if (c.verdict != "FAIL" && c.passed > 0) c.verdict = "PASS";
  return c;
}

std::map<std::pair<std::string, std::string>, BehaviourMatrix::Cell> BehaviourMatrix::cells() const {
  std::map<std::pair<std::string, std::string>, std::vector<const BehaviourJudgement*>> grouped;
  for (const auto& j : judgements_) grouped[{j.stack, j.behaviour}].push_back(&j);
  std::map<std::pair<std::string, std::string>, Cell> out;
  for (auto& [key, judgements] : grouped) out.emplace(key, summarize(std::move(judgements)));
  return out;
}

nlohmann::json BehaviourMatrix::to_json() const {
  nlohmann::json cells = nlohmann::json::array();
  const auto all = this->cells();
  for (const auto& stack : stacks_)
    for (const auto& behaviour : behaviours_) {
      const auto found = all.find({stack, behaviour});
      if (found == all.end()) continue;
      const Cell& c = found->second;
      nlohmann::json each = nlohmann::json::array();
      // Each judgement's role: one stack may be judged as client in one
      // case and as server in another.
      for (const auto* j : c.judgements)
        each.push_back({{"id", j->case_id}, {"verdict", j->verdict}, {"role", j->role}});
      cells.push_back({{"stack", stack},
                       {"behaviour", behaviour},
                       {"role", c.judgements.front()->role},
                       {"verdict", c.verdict},
                       {"level", c.level ? nlohmann::json(to_string(*c.level)) : nlohmann::json()},
                       {"passed", c.passed},
                       {"judged", c.judged},
                       {"judgements", each}});
    }
  nlohmann::json versions = nlohmann::json::object();
  for (const auto& stack : stacks_)
    if (auto v = versions_.find(stack); v != versions_.end()) versions[stack] = v->second;
  return {{"stacks", stacks_}, {"behaviours", behaviours_}, {"versions", versions}, {"cells", cells}};
}

const std::string& BehaviourMatrix::row_label(const std::string& stack) const {
  const auto v = versions_.find(stack);
  return v == versions_.end() ? stack : v->second;
}

std::vector<std::vector<std::string>> BehaviourMatrix::cell_texts() const {
  std::vector<std::vector<std::string>> texts;
  const auto all = cells();
  for (const auto& stack : stacks_) {
    texts.emplace_back();
    for (const auto& behaviour : behaviours_) {
      const auto found = all.find({stack, behaviour});
      if (found == all.end()) {
        texts.back().push_back("-");
        continue;
      }
      const Cell& c = found->second;
      texts.back().push_back(cell_text(c.verdict, c.level, c.passed, c.judged, c.judgements));
    }
  }
  return texts;
}

void BehaviourMatrix::print(std::FILE* out) const {
  if (judgements_.empty() || !out) return;
  std::size_t first = 5;
  for (const auto& s : stacks_) first = std::max(first, row_label(s).size());
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
    fmt::print(out, "{:<{}}", row_label(stacks_[s]), first);
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
    out += "| " + markdown_cell(row_label(stacks_[s])) + " |";
    for (const auto& text : texts[s]) out += " " + text + " |";
    out += "\n";
  }
  return out;
}

namespace {

// Members of the JSON being read, keeping in `where` the pointer of the one
// being read, so that an error names it.
class Reader {
 public:
  explicit Reader(std::string& where) : where_(where) {}
  const nlohmann::json& object(const nlohmann::json& j, const std::string& at) const {
    where_ = at;
    if (!j.is_object()) throw std::invalid_argument("expected an object");
    return j;
  }
  const nlohmann::json& member(const nlohmann::json& j, const std::string& at, const char* key) const {
    object(j, at);
    where_ = at + "/" + key;
    if (!j.contains(key)) throw std::invalid_argument("missing");
    return j.at(key);
  }
  const nlohmann::json& array(const nlohmann::json& j, const std::string& at, const char* key) const {
    const auto& a = member(j, at, key);
    if (!a.is_array()) throw std::invalid_argument("expected an array");
    return a;
  }
  // A name printed in a table: a string of one line.
  std::string name(const nlohmann::json& j, const std::string& at) const {
    where_ = at;
    if (!j.is_string()) throw std::invalid_argument("expected a string");
    const auto text = j.get<std::string>();
    if (!is_one_line(text)) throw std::invalid_argument("expected a name: not empty, no control characters");
    return text;
  }
  std::string name(const nlohmann::json& j, const std::string& at, const char* key) const {
    return name(member(j, at, key), at + "/" + key);
  }
  std::uint64_t count(const nlohmann::json& j, const std::string& at, const char* key) const {
    const auto& n = member(j, at, key);
    if (!n.is_number_integer() || (!n.is_number_unsigned() && n.get<std::int64_t>() < 0))
      throw std::invalid_argument("expected an integer at least 0");
    return n.get<std::uint64_t>();
  }
  // The list of names at `at/key`, each once.
  std::vector<std::string> names(const nlohmann::json& j, const std::string& at, const char* key) const {
    const auto& a = array(j, at, key);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
      out.push_back(name(a[i], at + "/" + key + "/" + std::to_string(i)));
      if (std::find(out.begin(), out.end() - 1, out.back()) != out.end() - 1)
        throw std::invalid_argument(fmt::format("\"{}\" is listed twice", out.back()));
    }
    return out;
  }

 private:
  std::string& where_;
};

}  // namespace

BehaviourMatrix BehaviourMatrix::from_json(const nlohmann::json& j, const std::string& base, std::string& where) {
  const Reader read(where);
  BehaviourMatrix m;
  m.stacks_ = read.names(j, base, "stacks");
  m.behaviours_ = read.names(j, base, "behaviours");
  // Reports written before versions were kept have none.
  if (j.contains("versions")) {
    const auto& versions = read.object(j.at("versions"), base + "/versions");
    for (const auto& [stack, label] : versions.items()) {
      std::string token;  // RFC 6901's escapes
      for (char c : stack) token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      const std::string at = base + "/versions/" + token;
      where = at;
      if (std::find(m.stacks_.begin(), m.stacks_.end(), stack) == m.stacks_.end())
        throw std::invalid_argument(fmt::format("\"{}\" is not in {}/stacks", stack, base));
      m.versions_[stack] = read.name(label, at);
    }
  }
  const auto& cells = read.array(j, base, "cells");
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string at = base + "/cells/" + std::to_string(i);
    BehaviourJudgement j0;
    for (auto [key, field, names] : {std::tuple{"stack", &j0.stack, &m.stacks_},
                                     std::tuple{"behaviour", &j0.behaviour, &m.behaviours_}}) {
      *field = read.name(cells[i], at, key);
      if (std::find(names->begin(), names->end(), *field) == names->end())
        throw std::invalid_argument(fmt::format("\"{}\" is not in {}/{}s", *field, base, key));
    }
    if (!seen.insert({j0.stack, j0.behaviour}).second)
      throw std::invalid_argument(fmt::format("a second cell of {} × {}", j0.stack, j0.behaviour));
    j0.role = read.name(cells[i], at, "role");
    if (j0.role != "client" && j0.role != "server") throw std::invalid_argument("expected client or server");
    const auto& level = read.member(cells[i], at, "level");
    if (!level.is_null()) {
      const auto parsed = level.is_string() ? parse_requirement_level(level.get<std::string>()) : std::nullopt;
      if (!parsed) throw std::invalid_argument("expected MUST, SHOULD, expectation or null");
      j0.level = *parsed;  // the level of the cell's FAILs: each takes it
    }
    const auto& each = read.array(cells[i], at, "judgements");
    if (each.empty()) throw std::invalid_argument("expected at least one judgement");
    std::vector<BehaviourJudgement> judgements;
    for (std::size_t k = 0; k < each.size(); ++k) {
      BehaviourJudgement& judgement = judgements.emplace_back(j0);
      const std::string jat = at + "/judgements/" + std::to_string(k);
      judgement.case_id = read.name(each[k], jat, "id");
      judgement.verdict = read.name(each[k], jat, "verdict");
      if (gravity(judgement.verdict) == static_cast<int>(kGravity.size()))
        throw std::invalid_argument("expected one of " + fmt::format("{}", fmt::join(kGravity, ", ")));
      if (each[k].contains("role")) {  // files written before it was kept take the cell's
        judgement.role = read.name(each[k], jat, "role");
        if (judgement.role != "client" && judgement.role != "server")
          throw std::invalid_argument("expected client or server");
      }
    }
    // The cell's role is its first judgement's.
    if (judgements.front().role != j0.role) {
      where = at + "/role";
      throw std::invalid_argument(fmt::format("expected \"{}\", the role of its first judgement", judgements.front().role));
    }
    std::vector<const BehaviourJudgement*> pointers;
    for (const auto& judgement : judgements) pointers.push_back(&judgement);
    const Cell computed = summarize(std::move(pointers));
    // What the cell says of itself must be what its judgements give.
    const std::string stated = read.name(cells[i], at, "verdict");
    if (computed.verdict != stated)
      throw std::invalid_argument(fmt::format("\"{}\", but its judgements give \"{}\"", stated, computed.verdict));
    for (auto [key, value] : {std::pair{"passed", computed.passed}, std::pair{"judged", computed.judged}})
      if (read.count(cells[i], at, key) != value)
        throw std::invalid_argument(fmt::format("expected {}, the count its judgements give", value));
    where = at + "/level";
    if (computed.level.has_value() != !level.is_null())
      throw std::invalid_argument(computed.level ? "a FAIL needs the level of what failed"
                                                 : "a level goes with a FAIL only: expected null");
    for (auto& judgement : judgements) m.judgements_.push_back(std::move(judgement));
  }
  return m;
}

}  // namespace conform
