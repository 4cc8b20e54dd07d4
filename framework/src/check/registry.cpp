// The check catalogue, and the one conform ships: a check from each check file.
#include "check/registry.hpp"

#include "check/check_files.hpp"

#include <stdexcept>

namespace conform {

void CheckRegistry::add(std::unique_ptr<Check> check) {
  std::string name = check->name();
  if (!checks_.emplace(name, std::move(check)).second)
    throw std::logic_error("check registered twice: " + name);
}

const Check* CheckRegistry::find(const std::string& name) const {
  auto it = checks_.find(name);
  return it == checks_.end() ? nullptr : it->second.get();
}

std::vector<std::string> CheckRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, check] : checks_) out.push_back(name);
  return out;
}

const CheckRegistry& CheckRegistry::builtin() {
  static const CheckRegistry registry = [] {
    CheckRegistry r;
    for (const CheckFile& file : check_files()) {
      auto check = file.registrar->make();
      // The file is named after its check, so a reader finds one from the other.
      if (check->name() != file.stem)
        throw std::logic_error("check file " + std::string(file.stem) + ".cpp registers '" + check->name() + "'");
      r.add(std::move(check));
    }
    return r;
  }();
  return registry;
}

}  // namespace conform
