// The check catalogue: every check a suite can name, by name.
#pragma once

#include "check/check.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace conform {

class CheckRegistry {
 public:
  /// Adds a check; throws std::logic_error if its name is taken (a bug).
  void add(std::unique_ptr<Check> check);
  /// The check named `name`, or nullptr.
  const Check* find(const std::string& name) const;
  /// All names, sorted.
  std::vector<std::string> names() const;
  /// The catalogue conform ships.
  static const CheckRegistry& builtin();

 private:
  std::map<std::string, std::unique_ptr<Check>> checks_;
};

}  // namespace conform
