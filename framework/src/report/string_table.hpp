// The strings of an HTML report's sequence diagrams, each once: a frame's
// description recurs across the datagrams of a run and across the runs of
// a case (its seeds, its mutants), so rows name strings by index.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace conform::report {

class StringTable {
 public:
  /// The index of `text`, added when new. `label` is how many of its first
  /// characters an arrow's one-line summary shows (a frame's name), 0 for
  /// all of it.
  std::size_t index(const std::string& text, std::size_t label = 0);
  /// {"text": [...], "label": [...]}, in index order.
  nlohmann::json to_json() const;

 private:
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::string> text_;
  std::vector<std::size_t> label_;
};

}  // namespace conform::report
