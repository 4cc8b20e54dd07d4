// Pairs × cases, printed after the closing line and kept in the JSON report.
#include "report/interop_matrix.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace conform {
namespace {

const std::string* implementation(const CaseResult& r, const std::string& role) {
  auto it = r.c->settings.knobs.find(role);
  if (it == r.c->settings.knobs.end()) return nullptr;
  auto v = it->second.find("implementation");
  return v == it->second.end() ? nullptr : std::get_if<std::string>(&v->second);
}

std::string pair_label(const std::string& client, const std::string& server) { return client + " → " + server; }

// Display width of a label: "→" is three bytes, one column.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xc0) != 0x80; }));
}

std::string padded(const std::string& s, std::size_t w) { return s + std::string(w > width(s) ? w - width(s) : 0, ' '); }

}  // namespace

std::map<std::string, std::string> stack_versions(const std::vector<const PluginInfo*>& plugins) {
  std::map<std::string, std::string> out;
  for (const PluginInfo* p : plugins)
    for (const auto& knob : p->knobs)
      if (knob.name == "implementation") out.insert(knob.value_labels.begin(), knob.value_labels.end());
  return out;
}

void InteropMatrixReporter::case_done(const CaseResult& r) {
  const std::string* client = implementation(r, "client");
  const std::string* server = implementation(r, "server");
  if (!client || !server) return;
  add_once(pairs_, pair_label(*client, *server));
  add_once(cases_, r.c->decl->id);
  cells_.push_back({*client, *server, r.c->decl->id, r.c->id(), to_string(r.status), r.headline});
  behaviours_.add(behaviour_judgements(r, *client, *server));
}

void InteropMatrixReporter::end(const RunTotals&) {
  if (cells_.empty() || !out_) return;
  std::size_t first = 0;
  for (const auto& p : pairs_) first = std::max(first, width(p));
  std::vector<std::size_t> widths;
  for (const auto& c : cases_) widths.push_back(std::max<std::size_t>(width(c), 11));
  fmt::print(out_, "\ninterop matrix (client → server × case)\n{}", padded("", first));
  for (std::size_t i = 0; i < cases_.size(); ++i) fmt::print(out_, "  {}", padded(cases_[i], widths[i]));
  fmt::print(out_, "\n");
  for (const auto& p : pairs_) {
    fmt::print(out_, "{}", padded(p, first));
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      std::string status = "-";
      for (const auto& cell : cells_)
        if (pair_label(cell.client, cell.server) == p && cell.case_id == cases_[i]) status = cell.status;
      fmt::print(out_, "  {}", padded(status, widths[i]));
    }
    fmt::print(out_, "\n");
  }
  for (const auto& cell : cells_)
    if (cell.status != "PASS" && cell.status != "XFAIL")
      fmt::print(out_, "  {} {}  {}: {}\n", pair_label(cell.client, cell.server), cell.case_id, cell.status,
                 cell.headline);
  behaviours_.print(out_);
}

nlohmann::json InteropMatrixReporter::to_json() const {
  if (cells_.empty()) return nullptr;
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& c : cells_)
    cells.push_back({{"client", c.client}, {"server", c.server}, {"case", c.case_id}, {"id", c.id},
                     {"status", c.status}, {"headline", c.headline}});
  return {{"pairs", pairs_}, {"cases", cases_}, {"cells", cells}, {"behaviours", behaviours_.to_json()}};
}

}  // namespace conform
